// The bench's baseline: the same activities DiscoverWorkflow and the preparation workflow call, in
// strict batch order — every family (one after another, the product's default), then ONE terminal
// enrichment without per-job handoff, then scoreJob for every job, at most `slots` at once. Bundled
// on its own by discover.bench.ts and run on a worker built exactly like the product's.
// Workflow code: it runs in Temporal's deterministic sandbox (no Node built-ins, no I/O).
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import {
  activityOptions,
  type DiscoveryActivities,
  type DiscoveryEnrichmentResult,
  type EnrichmentActivities,
  type FamilyOutcome,
  type ScoringActivities,
} from '@jobctrl/pipeline/contracts';

/** Registered beside the product's activities by the bench (extraActivities): which jobs are ready to score. */
/**
 * The product's WORKER_WARM_UP_WORKFLOW_TYPE, in this bundle too: the baseline's worker is warmed
 * like the product's (warmWorkflowSandbox), so neither ordering pays the sandbox's cold start.
 */
export async function workerWarmUpWorkflow(): Promise<void> {
  return;
}

export interface BenchActivities {
  benchJobsToScore(input: { runId: string }): Promise<string[]>;
}

export interface BatchDiscoverInput {
  runId: string;
  /** scoreJob calls in flight at once (the worker's remote activity slots bound them too). */
  slots: number;
}

export interface BatchDiscoverResult {
  runId: string;
  families: FamilyOutcome[];
  familiesFailed: Array<{ family: string; error: string }>;
  enrichment: DiscoveryEnrichmentResult;
  scored: number;
}

// The product's activity options (timeouts and retry policies), as discover.workflow.ts and
// job-preparation.workflow.ts use them: the baseline must retry and time out exactly like the product.
const family = proxyActivities<Pick<DiscoveryActivities, 'discoverySourceFamily'>>(activityOptions('discoverySourceFamily'));
const control = proxyActivities<Pick<DiscoveryActivities, 'planDiscoverySources'> & BenchActivities>(activityOptions('discoveryControl'));
const enrichment = proxyActivities<EnrichmentActivities>(activityOptions('discoveryEnrichment'));
const scoring = proxyActivities<ScoringActivities>(activityOptions('scoreJob'));

export async function batchDiscoverWorkflow(input: BatchDiscoverInput): Promise<BatchDiscoverResult> {
  // Planning creates the run record whose membership enrichment selects from, as in the product.
  const plan = await control.planDiscoverySources({ runId: input.runId });
  const { runId } = plan;

  const families: FamilyOutcome[] = [];
  const familiesFailed: Array<{ family: string; error: string }> = [];
  for (const f of plan.families) {
    try {
      families.push(await family.discoverySourceFamily({ runId, family: f, internalConcurrency: plan.internalConcurrency }));
    } catch (err) {
      familiesFailed.push({ family: f.family, error: describe(err) });
    }
  }

  const enriched = await enrichment.discoveryEnrichment({ runId, mode: 'terminal', perJobHandoff: false, internalConcurrency: plan.internalConcurrency });

  const jobKeys = await control.benchJobsToScore({ runId });
  let next = 0;
  let scored = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(input.slots, jobKeys.length)) }, async () => {
    while (next < jobKeys.length) {
      const jobKey = jobKeys[next++];
      await scoring.scoreJob({ jobKey });
      scored += 1;
    }
  });
  await Promise.all(lanes);

  return { runId, families, familiesFailed, enrichment: enriched, scored };
}

function describe(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return `${cause.type ?? 'error'}: ${cause.message}`;
  return err instanceof Error ? err.message : String(err);
}
