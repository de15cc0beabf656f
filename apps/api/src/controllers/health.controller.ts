import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WorkerReadinessService } from '@jobctrl/operations';
import { TemporalClientService } from '@jobctrl/shared/temporal';

@ApiTags('operations')
@Controller('v1/health')
export class HealthController {
  constructor(
    private readonly readiness: WorkerReadinessService,
    private readonly temporal: TemporalClientService,
  ) {}

  /** Always 200 while the API is up; worker readiness and Temporal reachability are in the body. */
  @Get()
  async health() {
    const [worker, temporal] = await Promise.all([this.readiness.check(), this.temporal.reachability()]);
    return {
      status: worker.status === 'ready' && temporal.status === 'reachable' ? 'ok' : 'degraded',
      api: { status: 'up', pid: process.pid, uptimeSeconds: Math.round(process.uptime()) },
      worker,
      temporal,
    };
  }
}
