import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SpendService } from '@jobctrl/runs';

@ApiTags('operations')
@Controller('v1/spend')
export class SpendController {
  constructor(private readonly spend: SpendService) {}

  @Get()
  today() {
    return this.spend.today();
  }
}
