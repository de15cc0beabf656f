import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DiscoveryRuntimeService, UpdateDiscoveryRuntimeDto } from '@jobctrl/discovery';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('settings')
@Controller('v1/discovery/runtime')
export class DiscoveryRuntimeController {
  constructor(private readonly runtime: DiscoveryRuntimeService) {}

  @Get()
  get() {
    return this.runtime.get();
  }

  @Patch()
  @ApiErrors(400)
  update(@Body() dto: UpdateDiscoveryRuntimeDto) {
    return this.runtime.update(dto);
  }
}
