import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Observable } from 'rxjs';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { JobStage } from '@jobctrl/shared/jobs';
import { PipelineRunService, type PipelineRunView } from '../pipeline-run.service';
import { SpendService, type SpendView } from '../spend/spend.service';
import { JobStageChangesRepository } from './job-stage-changes.repository';

/** How often the shared poller reads the stores while anyone listens. */
export const LIVE_EVENTS_POLL_MS = 1000;
/** Runs the poller follows besides the unfinished ones it already knows: the newest this many. */
const NEWEST_RUNS = 20;
/** Job rows are re-read this far back: a writer that took its timestamp before another's may commit after it. */
const JOB_OVERLAP_MS = 5000;
const JOB_ROWS_PER_POLL = 500;
/** The job stages remembered to tell a change from a touch; older entries are dropped beyond this. */
const KNOWN_JOBS_MAX = 20_000;
const TERMINAL_RUN_STATES = new Set(['completed', 'failed', 'cancelled']);

export interface JobStageEvent {
  jobKey: string;
  stage: JobStage;
  /** The stage this stream last saw; null when the job is new to it (new, or untouched since it started). */
  previousStage: JobStage | null;
}

/** What GET /v1/events sends: the SSE event name (`type`) and its JSON `data`. */
export type LiveEvent =
  | { type: 'ready'; data: { pollIntervalMs: number } }
  | { type: 'run'; data: PipelineRunView }
  | { type: 'spend'; data: SpendView }
  | { type: 'job'; data: JobStageEvent };

/**
 * The live events behind GET /v1/events. One poller for all subscribers (started by the first,
 * stopped with the last) reads the runs, today's spend and recently touched jobs every ~1 s and
 * emits only what changed, so ten open browser tabs cost one set of queries, and none cost nothing.
 * A new subscriber first gets `ready` and the latest run and spend values the poller holds, so a
 * change between its page load and its connection is not lost.
 */
@Injectable()
export class LiveEventsService implements OnModuleDestroy {
  private readonly log = new Logger('LiveEvents');
  private readonly jobs: JobStageChangesRepository;
  private readonly listeners = new Set<(e: LiveEvent) => void>();
  private timer: NodeJS.Timeout | null = null;
  private generation = 0;
  /** How many times a poller was started (tests prove subscribers share one). */
  pollerStarts = 0;

  private runs = new Map<string, { json: string; view: PipelineRunView }>();
  private finishedRuns = new Set<string>();
  private spend: { json: string; view: SpendView } | null = null;
  private knownStages = new Map<string, JobStage>();
  /** Jobs touched from here on are reported; before it, only remembered. Null until the first poll. */
  private jobsStart: number | null = null;
  private jobsSince = 0;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(PipelineRunService) private readonly pipelineRuns: PipelineRunService,
    @Inject(SpendService) private readonly spendService: SpendService,
  ) {
    this.jobs = new JobStageChangesRepository(uow);
  }

  get polling(): boolean {
    return this.timer !== null;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  /** A cold stream per subscriber over the one shared poller. */
  stream(): Observable<LiveEvent> {
    return new Observable<LiveEvent>((subscriber) => {
      const listener = (e: LiveEvent) => subscriber.next(e);
      subscriber.next({ type: 'ready', data: { pollIntervalMs: LIVE_EVENTS_POLL_MS } });
      for (const { view } of this.runs.values()) subscriber.next({ type: 'run', data: view });
      if (this.spend) subscriber.next({ type: 'spend', data: this.spend.view });
      this.listeners.add(listener);
      if (this.listeners.size === 1) this.start();
      return () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) this.stop();
      };
    });
  }

  onModuleDestroy(): void {
    this.listeners.clear();
    this.stop();
  }

  private start(): void {
    this.pollerStarts++;
    const generation = ++this.generation;
    // Polls never overlap: the next is scheduled when this one is done, however long it took.
    const loop = async () => {
      await this.poll().catch((err) => this.log.warn(`poll failed: ${err instanceof Error ? err.message : String(err)}`));
      if (generation === this.generation && this.listeners.size > 0) this.timer = setTimeout(() => void loop(), LIVE_EVENTS_POLL_MS);
    };
    this.timer = setTimeout(() => void loop(), 0);
  }

  /** Forgets everything: a later first subscriber starts from the stores, not from stale memory. */
  private stop(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.runs = new Map();
    this.finishedRuns = new Set();
    this.spend = null;
    this.knownStages = new Map();
    this.jobsStart = null;
    this.jobsSince = 0;
  }

  private emit(e: LiveEvent): void {
    for (const listener of this.listeners) listener(e);
  }

  private async poll(): Promise<void> {
    const generation = this.generation;
    const [views, spend, jobs] = await Promise.all([
      this.pipelineRuns.viewsForEvents({ newest: NEWEST_RUNS, also: this.runs.keys(), skip: this.finishedRuns }),
      this.spendService.today(),
      this.jobChanges(),
    ]);
    if (generation !== this.generation) return; // stopped while reading
    for (const view of views) {
      const json = JSON.stringify(view);
      if (this.runs.get(view.runId)?.json !== json) {
        this.runs.set(view.runId, { json, view });
        this.emit({ type: 'run', data: view });
      }
      if (TERMINAL_RUN_STATES.has(view.state) && view.finishedAt) this.finishedRuns.add(view.runId);
    }
    const spendJson = JSON.stringify(spend);
    if (this.spend?.json !== spendJson) {
      this.spend = { json: spendJson, view: spend };
      this.emit({ type: 'spend', data: spend });
    }
    for (const change of jobs) this.emit({ type: 'job', data: change });
  }

  private async jobChanges(): Promise<JobStageEvent[]> {
    if (this.jobsStart === null) {
      // A fresh poller reports changes from now on, not the store's history.
      this.jobsStart = this.jobsSince = (await this.jobs.newestChange()) + 1;
      return [];
    }
    const start = this.jobsStart;
    const rows = await this.jobs.touchedSince(this.jobsSince - JOB_OVERLAP_MS, JOB_ROWS_PER_POLL);
    const changes: JobStageEvent[] = [];
    // Oldest first, so a client applying them in order ends on the newest stage.
    for (const row of rows.reverse()) {
      const previous = this.knownStages.get(row.jobKey) ?? null;
      if (previous === row.stage) continue;
      this.knownStages.delete(row.jobKey);
      this.knownStages.set(row.jobKey, row.stage);
      // A row touched before this stream started is in the overlap window: remember it, report nothing.
      if (previous !== null || row.updatedAt >= start) changes.push({ jobKey: row.jobKey, stage: row.stage, previousStage: previous });
    }
    if (rows.length > 0) this.jobsSince = Math.max(this.jobsSince, ...rows.map((r) => r.updatedAt + 1));
    while (this.knownStages.size > KNOWN_JOBS_MAX) this.knownStages.delete(this.knownStages.keys().next().value as string);
    return changes;
  }
}
