import { Body, Controller, Get, Patch } from '@nestjs/common';
import { DiscoveryRuntimeService, UpdateDiscoveryRuntimeDto } from '@jobctrl/discovery';

@Controller('v1/discovery/runtime')
export class DiscoveryRuntimeController {
  constructor(private readonly runtime: DiscoveryRuntimeService) {}

  @Get()
  get() {
    return this.runtime.get();
  }

  @Patch()
  update(@Body() dto: UpdateDiscoveryRuntimeDto) {
    return this.runtime.update(dto);
  }
}
