/** DiscoverWorkflow and its activities (spec: "Where Fan-out Happens (And Why)"). */
export const DISCOVER_WORKFLOW_TYPE = 'discoverWorkflow';

/** Guards the terminal reconcile's per-job handoff input; histories without it replay the old input. */
export const TERMINAL_HANDOFF_PATCH = 'discover-terminal-enrichment-handoff-v1';
/** Marks histories in which a failing run cancels its live enrichment consumer before recording the failure. */
export const FAILED_RUN_STOPS_CONSUMER_PATCH = 'discover-failed-run-stops-consumer-v1';
/**
 * Marks histories whose activities are dispatched ahead of the queue's default work (priority key
 * PRODUCERS_FIRST_PRIORITY). Histories without it replay with the unprioritised options.
 */
export const PRODUCERS_FIRST_PATCH = 'discover-producers-first-v1';

/**
 * Temporal's task-queue priority (1 = first, default 3). The run's own activities — the family
 * crawls, the live consumer, its control writes — are the producers of every per-job preparation on
 * the same queue. Dispatched in FIFO order they waited behind the preparations they had just started
 * (bench:discover, 4 × 50: the third family's crawl queued ~10 s, a progress write 14 s, the last
 * family started only once 142 jobs were scored), so the crawl took as long as the scoring. The
 * slots are unchanged (worker_activity_slots): only the order in which a free slot is filled.
 */
export const PRODUCERS_FIRST_PRIORITY = 2;

/**
 * Marks histories whose live enrichment consumer ends by itself once the run's families are done and
 * nothing is left to enrich (input `drainAfterFamilies`), instead of being cancelled when the crawl
 * ends. Histories without it replay the cancel.
 */
export const LIVE_CONSUMER_DRAINS_PATCH = 'discover-live-consumer-drains-v1';

export function discoverWorkflowId(runId: string): string {
  return `discover-${runId}`;
}

export interface DiscoverWorkflowInput {
  runId: string;
  /** Limit the run to these sources; all enabled sources when absent. */
  sourceIds?: string[];
  /**
   * pipeline_internal_concurrency as snapshotted when the run was started (a pipeline passes its
   * own); absent, planning snapshots the value configured then.
   */
  internalConcurrency?: number;
}

export interface FamilyPlan {
  family: string;
  sourceIds: string[];
}

/** Frozen at planning time so the workflow stays deterministic whatever changes in SQLite later. */
export interface DiscoveryPlan {
  runId: string;
  families: FamilyPlan[];
  maxParallelFamilies: number;
  internalConcurrency: number;
}

export interface FamilyOutcome {
  family: string;
  status: 'completed' | 'failed';
  jobs: number;
  error?: string;
}

export interface DiscoverWorkflowResult {
  runId: string;
  state: 'completed' | 'cancelled';
  /**
   * The spec's `families_failed`: families whose activity failed after its retries. The run records
   * each one and goes on to the next family; the API shows them as the run's `familiesFailed`.
   */
  familiesFailed: string[];
  familiesCompleted: string[];
  enriched: number;
}

export interface DiscoveryEnrichmentInput {
  runId: string;
  /** live: poll membership until cancelled; terminal: drain what is selectable, then return. */
  mode: 'live' | 'terminal';
  perJobHandoff: boolean;
  internalConcurrency: number;
  /**
   * live only: the run's family count. Once the run's progress shows that many families done and no
   * job is left to select, the consumer returns instead of polling until cancelled. Cancelling it
   * when the crawl ended cost the wait for the cancel to reach it (its next heartbeat response) and
   * the captures it had in flight, redone by the terminal reconcile.
   */
  drainAfterFamilies?: number;
}

/**
 * Counts of one enrichment consumer. The spec's `worker_crashes` and `counts_known` (an internal
 * worker crashing fails the batch, the counts say whether they are complete) are not reported here:
 * an exception escaping one of the consumer's lanes cancels and awaits its siblings, then fails the
 * whole activity, which Temporal retries by policy; the counts of a failed attempt are not returned.
 */
export interface DiscoveryEnrichmentResult {
  enriched: number;
  failed: number;
  handedOff: number;
}

export interface FanOutInput {
  /** Restrict to one run's membership; the straggler sweep covers every job. */
  runId?: string;
  includePendingTailor: boolean;
}

export interface DiscoveryActivities {
  planDiscoverySources(input: DiscoverWorkflowInput): Promise<DiscoveryPlan>;
  discoverySourceFamily(input: { runId: string; family: FamilyPlan; internalConcurrency: number }): Promise<FamilyOutcome>;
  recordFamilyFailure(input: { runId: string; family: string; error: string }): Promise<void>;
  advanceDiscoveryProgress(input: { runId: string; completed: number }): Promise<void>;
  finishDiscoveryRun(input: { runId: string; state: 'completed' | 'cancelled' | 'failed' }): Promise<void>;
  fanOutPreparation(input: FanOutInput): Promise<{ started: number }>;
}

export interface EnrichmentActivities {
  discoveryEnrichment(input: DiscoveryEnrichmentInput): Promise<DiscoveryEnrichmentResult>;
}
