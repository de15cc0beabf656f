import { mapBounded } from './bounded-lanes.util';
import { captureDetail, type DetailCaptureDeps } from './detail-capture';

export interface EnrichmentRetryPassDeps extends DetailCaptureDeps {
  /** Starts the job's prep-{idempotency_key} (USE_EXISTING), like the run's per-job handoff. */
  startPreparation: (job: { jobKey: string; idempotencyKey: string }) => Promise<void>;
  /** Jobs claimed per pass (default 20): a pass stays short, the next tick takes the rest. */
  batchSize?: number;
  /** Captures at once (pipeline_internal_concurrency). */
  width: () => number;
  log?: (message: string) => void;
}

export interface EnrichmentRetryPassResult {
  retried: number;
  enriched: number;
  /** Moved on to scoring with the source's description after the last attempt. */
  sourceOnly: number;
  /** Still failing, with a later attempt scheduled. */
  rescheduled: number;
  handedOff: number;
}

/**
 * Enrichment retries outside any run: a job whose retryable failure outlived the run that found it
 * would otherwise sit in pending_enrichment with nothing to move it. Each pass claims the retries that
 * are due, captures them under the same host policy and retry policy as the run's consumer, and hands
 * each job that became ready to score to its preparation workflow. The worker calls `run` from its
 * periodic recovery tick; one pass at a time.
 */
export class EnrichmentRetryPass {
  private inFlight: Promise<EnrichmentRetryPassResult> | null = null;

  constructor(private readonly deps: EnrichmentRetryPassDeps) {}

  /** Runs one pass, or joins the one still running. `now` decides what is due (tests move it). */
  run(opts: { now?: number; signal?: AbortSignal } = {}): Promise<EnrichmentRetryPassResult> {
    this.inFlight ??= this.pass(opts.now ?? Date.now(), opts.signal ?? new AbortController().signal).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async pass(now: number, signal: AbortSignal): Promise<EnrichmentRetryPassResult> {
    const result: EnrichmentRetryPassResult = { retried: 0, enriched: 0, sourceOnly: 0, rescheduled: 0, handedOff: 0 };
    const due = await this.deps.jobs.claimDueEnrichmentRetries({ limit: this.deps.batchSize ?? 20, now });
    await mapBounded(due, this.deps.width(), signal, async (job, lane) => {
      const { outcome, ready } = await captureDetail(this.deps, job, lane, () => now);
      result.retried += 1;
      if (outcome.status === 'enriched') result.enriched += 1;
      else if (outcome.status === 'source_only') result.sourceOnly += 1;
      else if (outcome.status === 'failed_retryable') result.rescheduled += 1;
      if (!ready) return;
      await this.deps.startPreparation({ jobKey: job.jobKey, idempotencyKey: ready }).then(
        () => void (result.handedOff += 1),
        // The job is in pending_score now; idle preparation recovery starts what a failed start left.
        (err: unknown) => this.deps.log?.(`enrichment retry: starting preparation of ${job.jobKey} failed; idle recovery will start it: ${String(err)}`),
      );
    });
    return result;
  }
}
