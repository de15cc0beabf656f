import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ProfileDto, ProfileService } from '@jobctrl/runs';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('profile')
@Controller('v1/profile')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get()
  get() {
    return this.profiles.get();
  }

  /** Saving does not need the worker; the automatic preparation batch starts when Temporal accepts it. */
  @Put()
  @ApiErrors(400)
  put(@Body() profile: ProfileDto) {
    return this.profiles.put(profile);
  }
}
