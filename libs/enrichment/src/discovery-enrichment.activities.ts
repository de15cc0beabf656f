import { Context } from '@temporalio/activity';
import type { DiscoveryEnrichmentInput, DiscoveryEnrichmentResult, EnrichmentActivities } from '@jobctrl/pipeline/contracts';
import { cancelledFailureOf } from '@jobctrl/shared/temporal';
import { pullBounded } from './bounded-lanes.util';
import { captureDetail, type DetailCaptureDeps } from './detail-capture';
import type { DiscoveryRunRepository } from '@jobctrl/shared/jobs';
import type { RunCommitNotifier } from './run-commit.notifier';

export interface EnrichmentActivityDeps extends DetailCaptureDeps {
  /** Starts prep-{idempotency_key} with USE_EXISTING (composed by the worker app). */
  startPreparation: (job: { jobKey: string; idempotencyKey: string }) => Promise<void>;
  pollIntervalMs?: number;
  /**
   * Wakes the live consumer when this worker's families commit jobs, so it need not wait for its
   * next poll; without it (or for commits made elsewhere) the poll alone finds them.
   */
  commits?: Pick<RunCommitNotifier, 'count' | 'wait'>;
  /** The run's progress, for a live consumer that ends once the families are done (`drainAfterFamilies`). */
  runs?: Pick<DiscoveryRunRepository, 'get'>;
  log?: (message: string) => void;
}

/**
 * The execution-scoped enrichment consumer (score-as-you-discover).
 * live: polls the run's durable membership while families still commit jobs, until cancelled — or,
 * with `drainAfterFamilies`, until the run's progress shows its families done and a query that
 * started after that finds nothing left; a commit in this worker wakes it at once (the poll is the
 * fallback for everything else).
 * terminal: drains what is selectable and returns — the authoritative reconcile.
 * Robots-blocked rows are re-admitted once per activity lifetime, retryable failures whenever their
 * backoff has elapsed (after the last bounded attempt they move on as source_only, and the retry
 * pass outside runs takes over those still waiting when the run ends); as each job is committed
 * to pending_score its preparation workflow is started at once (per-job handoff),
 * serialized, best-effort: a failed start is left to the fan-out backstop.
 */
export function createEnrichmentActivities(deps: EnrichmentActivityDeps): EnrichmentActivities {
  return {
    async discoveryEnrichment(input: DiscoveryEnrichmentInput): Promise<DiscoveryEnrichmentResult> {
      const ctx = Context.current();
      const signal = ctx.cancellationSignal;
      const readmitted = new Set<string>();
      const result = { enriched: 0, failed: 0, handedOff: 0 };
      let handoffChain: Promise<void> = Promise.resolve();
      const handOff = (job: { jobKey: string; idempotencyKey: string }) => {
        handoffChain = handoffChain.then(() =>
          deps.startPreparation(job).then(
            () => void (result.handedOff += 1),
            (err: unknown) => deps.log?.(`per-job handoff of ${job.jobKey} failed; the fan-out backstop will start it: ${String(err)}`),
          ),
        );
        return handoffChain;
      };

      const drainAfter = input.mode === 'live' ? input.drainAfterFamilies : undefined;
      if (drainAfter !== undefined && !deps.runs) throw new Error('a draining live consumer needs the run store (EnrichmentActivityDeps.runs)');
      try {
        for (;;) {
          ctx.heartbeat(result);
          // Read before the first query: a commit that lands after it is seen by the wait below.
          const commitsSeen = deps.commits?.count(input.runId) ?? 0;
          // Read before the query too: a family counts as done only after its last commit, so once
          // this says done, an empty query below means the run has nothing left for this consumer.
          const familiesDone = drainAfter !== undefined && ((await deps.runs?.get(input.runId))?.progress.completed ?? 0) >= drainAfter;
          // Lanes take the next job as soon as they are free (a render holds its own lane, not a
          // batch); queued and running jobs are kept out of the next query.
          const taken = new Set<string>();
          const ran = await pullBounded(
            input.internalConcurrency,
            signal,
            async () => {
              const candidates = await deps.jobs.selectForEnrichment(input.runId, { includeRecoverable: true, exclude: new Set([...readmitted, ...taken]), limit: input.internalConcurrency * 4 });
              for (const c of candidates) {
                taken.add(c.jobKey);
                if (c.status === 'robots_blocked') readmitted.add(c.jobKey);
              }
              return candidates;
            },
            async (job, lane) => {
              const { outcome, ready } = await captureDetail(deps, job, lane);
              taken.delete(job.jobKey);
              if (outcome.status === 'enriched') result.enriched += 1;
              else result.failed += 1;
              // The start is queued behind the earlier ones (serialized); the lane goes on to its next
              // job meanwhile, and the activity awaits the queue before it ends, whichever way.
              if (ready && input.perJobHandoff) void handOff({ jobKey: job.jobKey, idempotencyKey: ready });
              ctx.heartbeat(result);
            },
          );
          if (ran === 0) {
            if (input.mode === 'terminal' || familiesDone) break;
            // Both reject when the workflow cancels the live consumer.
            const pollMs = deps.pollIntervalMs ?? 500;
            await (deps.commits ? deps.commits.wait(input.runId, commitsSeen, pollMs, signal) : ctx.sleep(pollMs));
          }
        }
      } catch (err) {
        await handoffChain;
        // Whatever was interrupted (a fetch, a page render, a sleep), a requested cancel is reported
        // as the typed cancellation, so the workflow sees a clean stop rather than a failure.
        if (signal.aborted) throw cancelledFailureOf(err, 'enrichment consumer cancelled');
        throw err;
      }
      await handoffChain;
      return result;
    },
  };
}
