import { CanActivate, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { ErrorCodes } from '@jobctrl/shared/errors';
import { WorkerReadinessService } from './worker-readiness.service';

/**
 * Put on every worker-backed API action: until a fresh, schema-valid heartbeat exists for this
 * database the action answers 503 with the reason, instead of starting work nobody will pick up.
 */
@Injectable()
export class WorkerReadyGuard implements CanActivate {
  constructor(private readonly readiness: WorkerReadinessService) {}

  async canActivate(): Promise<boolean> {
    const worker = await this.readiness.check();
    if (worker.status === 'ready') return true;
    throw new ServiceUnavailableException({
      statusCode: 503,
      error: 'Service Unavailable',
      code: ErrorCodes.workerNotReady,
      message: `worker is ${worker.status}: ${worker.reason}`,
      worker,
    });
  }
}
