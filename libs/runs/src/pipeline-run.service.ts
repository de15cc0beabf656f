import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { badRequest, conflict } from '@jobctrl/shared/api-errors';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  DISCOVER_WORKFLOW_TYPE,
  discoverWorkflowId,
  DiscoverWorkflowInput,
  JobPipelineInput,
  PIPELINE_STAGES,
  PIPELINE_WORKFLOW_TYPE,
  pipelineWorkflowId,
  type PipelineStage,
  type PreparationScope,
} from '@jobctrl/pipeline/contracts';
import { SettingsService } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { SourceService } from '@jobctrl/discovery';
import { DiscoveryRunRepository, LifecycleProjector, type DiscoveryProgressDetail } from '@jobctrl/shared/jobs';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import type { ListPipelineRunsQueryDto, StartPipelineRunDto } from './pipeline-run.dto';
import { PipelineRunRepository, type PipelineRunRow } from './pipeline-run.repository';

export type PipelineRunState = 'pending' | 'running' | 'spend_ceiling_reached' | 'completed' | 'failed' | 'cancelled';

export interface PipelineRunView {
  runId: string;
  workflowId: string;
  stages: string[];
  state: PipelineRunState;
  /** Why a running run is paused (spend_ceiling_reached), else null. */
  blockedReason: string | null;
  /**
   * Discover runs: the family + terminal spine, with `detail` (jobs committed, enriched, scored; stream
   * units) that moves per job; preparation-only runs: the batch's finished jobs of those selected
   * (detail null). Every number only moves forward.
   */
  progress: { completed: number; total: number; detail: DiscoveryProgressDetail | null };
  /** The preparation batch (null for discover-only runs and until the batch selected its jobs). */
  preparation: { selected: number; completed: number; failed: number } | null;
  familiesFailed: string[];
  /** Why each failed family failed (its last attempt's error), in familiesFailed's order: a name alone tells the user nothing. */
  familyFailures: Array<{ family: string; error: string | null }>;
  familiesCompleted: string[];
  /** Feed entries the run's families left out instead of failing their boards (a blank title or company), each with its reason. */
  entriesSkipped: Array<{ family: string; source: string; where: string; externalId: string | null; reason: string }>;
  /** Why a failed run failed (e.g. planning refused a disabled source); null otherwise. */
  error: string | null;
  jobsDiscovered: number;
  createdAt: string;
  finishedAt: string | null;
}

/** A page of runs, newest first. */
export interface PipelineRunPage {
  items: PipelineRunView[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * The Runs API. A discover-only run is a DiscoverWorkflow (discover-{runId}); any run with a
 * preparation stage is a JobPipelineWorkflow (pipeline-{runId}) that runs discover as a child and
 * then a bounded preparation batch. Profile updates start the same kind of run (scope profile_update).
 */
@Injectable()
export class PipelineRunService {
  private readonly registry: PipelineRunRepository;
  private readonly runs: DiscoveryRunRepository;
  private readonly lifecycle: LifecycleProjector;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
    @Inject(SettingsService) private readonly settings: SettingsService,
    @Inject(SourceService) private readonly sources: SourceService,
  ) {
    this.registry = new PipelineRunRepository(uow);
    this.runs = new DiscoveryRunRepository(uow);
    this.lifecycle = new LifecycleProjector(uow);
  }

  async start(dto: StartPipelineRunDto): Promise<{ runId: string; workflowId: string }> {
    if (dto.sourceIds && !dto.stages.includes('discover')) {
      throw badRequest([{ field: 'sourceIds', value: dto.sourceIds, rule: 'only with the discover stage' }], 'sourceIds select sources to discover: they need the discover stage');
    }
    // Only sources that exist and are enabled: a run never waits on a source it cannot crawl.
    if (dto.sourceIds) await this.sources.requireRunnable(dto.sourceIds);
    return this.startRun({ stages: dto.stages, sourceIds: dto.sourceIds, scope: 'run' });
  }

  /** Starts a run; nothing half-written: a run Temporal never accepted is not listed. */
  async startRun(opts: { stages: PipelineStage[]; sourceIds?: string[]; scope: PreparationScope; profileRevision?: number }): Promise<{ runId: string; workflowId: string }> {
    const stages = PIPELINE_STAGES.filter((s) => opts.stages.includes(s));
    const runId = randomUUID();
    const discoverOnly = stages.length === 1 && stages[0] === 'discover';
    const workflowId = discoverOnly ? discoverWorkflowId(runId) : pipelineWorkflowId(runId);
    await this.registry.create({ runId, workflowId, stages, sourceIds: opts.sourceIds ?? null });
    // The run's one snapshot of pipeline_internal_concurrency: a later settings change does not
    // resize it (its discovery plan and its preparation batch both use this value).
    const internalConcurrency = this.settings.live().pipeline_internal_concurrency;
    try {
      const client = await this.temporal.client();
      if (discoverOnly) {
        const input: DiscoverWorkflowInput = { runId, internalConcurrency, ...(opts.sourceIds ? { sourceIds: opts.sourceIds } : {}) };
        await client.workflow.start(DISCOVER_WORKFLOW_TYPE, { taskQueue: this.temporal.taskQueue, workflowId, args: [input] });
      } else {
        const input: JobPipelineInput = {
          runId,
          stages,
          scope: opts.scope,
          internalConcurrency,
          ...(opts.sourceIds ? { sourceIds: opts.sourceIds } : {}),
          ...(opts.profileRevision !== undefined ? { profileRevision: opts.profileRevision } : {}),
        };
        await client.workflow.start(PIPELINE_WORKFLOW_TYPE, { taskQueue: this.temporal.taskQueue, workflowId, args: [input] });
      }
    } catch (err) {
      await this.registry.remove(runId);
      throw err;
    }
    return { runId, workflowId };
  }

  async get(runId: string): Promise<PipelineRunView> {
    const run = await this.registry.get(runId);
    if (!run) throw new NotFoundException(`no run ${runId}`);
    // The run's status is the projection of its canonical lifecycle events (refreshed first, so a
    // refresh that failed earlier catches up); the discovery record adds progress and families.
    await this.lifecycle.refresh();
    return this.viewOf(run);
  }

  /** GET /v1/pipeline/runs: newest first, each in the same view as GET /v1/pipeline/runs/:id. */
  async list(query: ListPipelineRunsQueryDto = {}): Promise<PipelineRunPage> {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await this.registry.list({ limit, offset });
    // One projection refresh for the page, not one per run.
    if (page.items.length > 0) await this.lifecycle.refresh();
    const items: PipelineRunView[] = [];
    for (const run of page.items) items.push(await this.viewOf(run));
    return { items, total: page.total, limit, offset };
  }

  /**
   * The live-events poller's read: the newest `newest` runs plus the `also` ids (runs it still
   * follows), leaving out `skip` (runs it saw finish, whose view no longer changes). One projection
   * refresh for all of them.
   */
  async viewsForEvents(opts: { newest: number; also: Iterable<string>; skip: ReadonlySet<string> }): Promise<PipelineRunView[]> {
    const rows = new Map((await this.registry.list({ limit: opts.newest, offset: 0 })).items.map((r) => [r.runId, r] as const));
    for (const id of opts.also) {
      if (rows.has(id)) continue;
      const row = await this.registry.get(id);
      if (row) rows.set(id, row);
    }
    const wanted = [...rows.values()].filter((r) => !opts.skip.has(r.runId));
    if (wanted.length === 0) return [];
    await this.lifecycle.refresh();
    const views: PipelineRunView[] = [];
    for (const run of wanted) views.push(await this.viewOf(run));
    return views;
  }

  /** The view of a registered run; the caller refreshed the lifecycle projection. */
  private async viewOf(run: PipelineRunRow): Promise<PipelineRunView> {
    const runId = run.runId;
    const discovery = await this.runs.get(runId);
    const executions = await this.lifecycle.get(run.workflowId);
    const latest = executions[executions.length - 1];
    const status = latest?.status ?? discovery?.state ?? 'pending';
    const blocked = status === 'running' ? run.blockedReason : null;
    return {
      runId,
      workflowId: run.workflowId,
      stages: run.stages,
      state: (blocked ?? status) as PipelineRunState,
      blockedReason: blocked,
      progress: discovery
        ? { ...discovery.progress, detail: discovery.detail }
        : { ...(run.preparation ? { completed: run.preparation.completed + run.preparation.failed, total: run.preparation.selected } : { completed: 0, total: 0 }), detail: null },
      preparation: run.preparation,
      familiesFailed: discovery?.familiesFailed.map((f) => f.family) ?? [],
      familyFailures: discovery?.familiesFailed.map(({ family, error }) => ({ family, error })) ?? [],
      familiesCompleted: discovery?.familiesCompleted ?? [],
      entriesSkipped: discovery?.entriesSkipped ?? [],
      error: status === 'failed' ? failureReason(latest?.outcome ?? null) : null,
      jobsDiscovered: discovery?.jobsDiscovered ?? 0,
      createdAt: run.createdAt,
      // A run is finished when its own workflow is: a pipeline's discover child finishing early is not it.
      finishedAt: latest ? (latest.finishedAt ? new Date(latest.finishedAt).toISOString() : null) : (discovery?.finishedAt ?? null),
    };
  }

  async cancel(runId: string): Promise<PipelineRunView> {
    const run = await this.registry.get(runId);
    if (!run) throw new NotFoundException(`no run ${runId}`);
    const view = await this.get(runId);
    if (!['running', 'pending', 'spend_ceiling_reached'].includes(view.state)) {
      throw conflict(`run ${runId} is already ${view.state}`);
    }
    try {
      await (await this.temporal.client()).workflow.getHandle(run.workflowId).cancel();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    return this.get(runId);
  }
}

/** The reason a failed workflow recorded in its lifecycle outcome (the payload's `error`). */
function failureReason(outcome: string | null): string {
  try {
    const error = (JSON.parse(outcome ?? '{}') as { error?: unknown }).error;
    return typeof error === 'string' && error ? error : 'the run failed without a recorded reason';
  } catch {
    return 'the run failed without a recorded reason';
  }
}
