import { Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SMOKE_WORKFLOW_TYPE, SmokeWorkflowInput, SmokeWorkflowResult } from '@jobctrl/pipeline/contracts';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import type { StartSmokeRunDto } from './smoke-run.dto';
import { LifecycleProjector } from '@jobctrl/shared/jobs';
import type { RunProjection } from '@jobctrl/shared/jobs';

export interface SmokeRunStatus {
  workflowId: string;
  runId: string;
  status: string;
  result: SmokeWorkflowResult | null;
  /** The run as projected from its lifecycle events (what jobctrl recorded, not what Temporal says). */
  lifecycle: RunProjection[];
}

/** Starts and reads smoke workflows on the configured task queue (by type name: no workflow import). */
@Injectable()
export class SmokeRunService {
  constructor(
    private readonly temporal: TemporalClientService,
    private readonly projector: LifecycleProjector,
  ) {}

  async start(dto: StartSmokeRunDto): Promise<{ workflowId: string; runId: string }> {
    const input: SmokeWorkflowInput = { activities: dto.activities ?? 4, holdMs: dto.holdMs ?? 1_000 };
    const client = await this.temporal.client();
    const workflowId = `smoke-${randomUUID()}`;
    const handle = await client.workflow.start(SMOKE_WORKFLOW_TYPE, {
      taskQueue: this.temporal.taskQueue,
      workflowId,
      args: [input],
    });
    return { workflowId, runId: handle.firstExecutionRunId };
  }

  async get(workflowId: string): Promise<SmokeRunStatus> {
    if (!/^smoke-[0-9a-f-]{36}$/.test(workflowId)) throw new NotFoundException(`no smoke run ${workflowId}`);
    const client = await this.temporal.client();
    const handle = client.workflow.getHandle(workflowId);
    let description;
    try {
      description = await handle.describe();
    } catch {
      throw new NotFoundException(`no smoke run ${workflowId}`);
    }
    const status = description.status.name;
    const result = status === 'COMPLETED' ? ((await handle.result()) as SmokeWorkflowResult) : null;
    // Catch up any events a failed refresh left behind, then read the projection.
    await this.projector.refresh();
    const lifecycle = await this.projector.get(workflowId);
    return { workflowId, runId: description.runId, status, result, lifecycle };
  }
}
