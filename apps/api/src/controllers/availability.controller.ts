import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AvailabilityService } from '@jobctrl/runs';

/** GET /v1/availability: the sweep schedule and the posting-check budget of the hour. */
@ApiTags('availability')
@Controller('v1/availability')
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  @Get()
  status() {
    return this.availability.status();
  }
}
