// The bench's baseline: the same activities DiscoverWorkflow and the preparation workflow call, in
// strict batch order — every family (one after another, the product's default), then ONE terminal
// enrichment without per-job handoff, then scoreJob for every job, at most `slots` at once. Bundled
// on its own by discover.bench.ts and run on a worker built exactly like the product's.
// Workflow code: it runs in Temporal's deterministic sandbox (no Node built-ins, no I/O).
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type {
  DiscoveryActivities,
  DiscoveryEnrichmentResult,
  EnrichmentActivities,
  FamilyOutcome,
  ScoringActivities,
} from '@jobctrl/pipeline/contracts';

/** Registered beside the product's activities by the bench (extraActivities): which jobs are ready to score. */
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

// Activity options mirror discover.workflow.ts and job-preparation.workflow.ts.
const family = proxyActivities<Pick<DiscoveryActivities, 'discoverySourceFamily'>>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['malformed_response', 'source_config_invalid'] },
});

const control = proxyActivities<Pick<DiscoveryActivities, 'planDiscoverySources'> & BenchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
});

const enrichment = proxyActivities<EnrichmentActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

const scoring = proxyActivities<ScoringActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds' },
});

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
