import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { DISCOVER_WORKFLOW_TYPE, discoverWorkflowId, DiscoverWorkflowInput } from '@jobctrl/pipeline/contracts';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRunRepository, LifecycleProjector, PipelineRunRepository } from '@jobctrl/shared/jobs';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import type { StartPipelineRunDto } from './pipeline-run.dto';

export interface PipelineRunView {
  runId: string;
  workflowId: string;
  stages: string[];
  state: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  progress: { completed: number; total: number };
  familiesFailed: string[];
  familiesCompleted: string[];
  jobsDiscovered: number;
  createdAt: string;
  finishedAt: string | null;
}

/**
 * The Runs API. A run with the discover stage is a DiscoverWorkflow (discover-{runId}); scoring rides
 * along through each job's preparation workflow. Tailor and cover are accepted and recorded, and run
 * once the preparation stage provides them.
 */
@Injectable()
export class PipelineRunService {
  private readonly registry: PipelineRunRepository;
  private readonly runs: DiscoveryRunRepository;
  private readonly lifecycle: LifecycleProjector;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
  ) {
    this.registry = new PipelineRunRepository(uow);
    this.runs = new DiscoveryRunRepository(uow);
    this.lifecycle = new LifecycleProjector(uow);
  }

  async start(dto: StartPipelineRunDto): Promise<{ runId: string; workflowId: string }> {
    if (!dto.stages.includes('discover')) {
      throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: 'stages must include discover: runs without discovery arrive with the preparation stage',
        errors: [{ field: 'stages', value: dto.stages, rule: 'must include discover' }],
      });
    }
    const runId = randomUUID();
    const workflowId = discoverWorkflowId(runId);
    await this.registry.create({ runId, workflowId, stages: dto.stages, sourceIds: dto.sourceIds ?? null });
    const input: DiscoverWorkflowInput = { runId, ...(dto.sourceIds ? { sourceIds: dto.sourceIds } : {}) };
    try {
      const client = await this.temporal.client();
      await client.workflow.start(DISCOVER_WORKFLOW_TYPE, { taskQueue: this.temporal.taskQueue, workflowId, args: [input] });
    } catch (err) {
      // Nothing half-written: a run Temporal never accepted is not listed.
      await this.registry.remove(runId);
      throw err;
    }
    return { runId, workflowId };
  }

  async get(runId: string): Promise<PipelineRunView> {
    const run = await this.registry.get(runId);
    if (!run) throw new NotFoundException(`no run ${runId}`);
    const discovery = await this.runs.get(runId);
    // The run's status is the projection of its canonical lifecycle events (refreshed first, so a
    // refresh that failed earlier catches up); the discovery record adds progress and families.
    await this.lifecycle.refresh();
    const executions = await this.lifecycle.get(run.workflowId);
    const latest = executions[executions.length - 1];
    return {
      runId,
      workflowId: run.workflowId,
      stages: run.stages,
      state: latest?.status ?? discovery?.state ?? 'pending',
      progress: discovery?.progress ?? { completed: 0, total: 0 },
      familiesFailed: discovery?.familiesFailed.map((f) => f.family) ?? [],
      familiesCompleted: discovery?.familiesCompleted ?? [],
      jobsDiscovered: discovery?.jobsDiscovered ?? 0,
      createdAt: run.createdAt,
      finishedAt: discovery?.finishedAt ?? null,
    };
  }

  async cancel(runId: string): Promise<PipelineRunView> {
    const run = await this.registry.get(runId);
    if (!run) throw new NotFoundException(`no run ${runId}`);
    const view = await this.get(runId);
    if (view.state !== 'running' && view.state !== 'pending') {
      throw new ConflictException({ statusCode: 409, error: 'Conflict', message: `run ${runId} is already ${view.state}` });
    }
    try {
      await (await this.temporal.client()).workflow.getHandle(run.workflowId).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    return this.get(runId);
  }
}
