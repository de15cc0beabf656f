import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { OperationsSnapshotService } from '@jobctrl/operations';

@ApiTags('operations')
@Controller('v1/pipeline/operations')
export class OperationsController {
  constructor(private readonly operations: OperationsSnapshotService) {}

  /** Capacity (configured/active/available slots), active items (≤ 20), task-queue stats and ETA. */
  @Get()
  snapshot() {
    return this.operations.snapshot();
  }
}
