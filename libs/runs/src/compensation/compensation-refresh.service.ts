import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CompensationRefreshRepository, type RefreshView } from '@jobctrl/compensation';
import { COMPENSATION_REFRESH_WORKFLOW_TYPE, compensationRefreshWorkflowId, type CompensationRefreshInput } from '@jobctrl/pipeline/contracts';
import { badRequest } from '@jobctrl/shared/api-errors';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import type { StartCompensationRefreshDto } from './compensation-refresh.dto';

export interface CompensationRefreshView extends RefreshView {
  workflowId: string;
}

/**
 * POST/GET /v1/compensation/refresh: an on-demand refresh is one compensationRefreshWorkflow; its
 * row (queued until a worker's coordinator takes it) carries the state and counts GET reports.
 */
@Injectable()
export class CompensationRefreshService {
  private readonly refreshes: CompensationRefreshRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
  ) {
    this.refreshes = new CompensationRefreshRepository(uow);
  }

  async start(dto: StartCompensationRefreshDto): Promise<{ refreshId: string; workflowId: string }> {
    const jobKeys = dto.jobKeys ?? null;
    if (jobKeys) {
      const known = new Set(await this.refreshes.existingJobKeys(jobKeys));
      const unknown = jobKeys.filter((k) => !known.has(k));
      if (unknown.length > 0) throw badRequest(unknown.map((value) => ({ field: 'jobKeys', value, rule: 'no such job' })), `unknown job keys: ${unknown.join(', ')}`);
    }
    const refreshId = randomUUID();
    const workflowId = compensationRefreshWorkflowId(refreshId);
    await this.refreshes.queueRefresh(refreshId);
    try {
      const input: CompensationRefreshInput = { refreshId, jobKeys };
      const client = await this.temporal.client();
      await client.workflow.start(COMPENSATION_REFRESH_WORKFLOW_TYPE, { taskQueue: this.temporal.taskQueue, workflowId, args: [input] });
    } catch (err) {
      // Nothing half-written: a refresh Temporal never accepted is not listed.
      await this.refreshes.removeRefresh(refreshId);
      throw err;
    }
    return { refreshId, workflowId };
  }

  async get(refreshId: string): Promise<CompensationRefreshView> {
    const view = await this.refreshes.getRefresh(refreshId);
    if (!view) throw new NotFoundException(`no compensation refresh ${refreshId}`);
    return { ...view, workflowId: compensationRefreshWorkflowId(refreshId) };
  }
}
