import { Controller, Get } from '@nestjs/common';
import { SpendService } from '@jobctrl/runs';

@Controller('v1/spend')
export class SpendController {
  constructor(private readonly spend: SpendService) {}

  @Get()
  today() {
    return this.spend.today();
  }
}
