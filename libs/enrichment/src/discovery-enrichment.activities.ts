import * as path from 'node:path';
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { DiscoveryEnrichmentInput, DiscoveryEnrichmentResult, EnrichmentActivities } from '@jobctrl/pipeline/contracts';
import type { HttpClient } from '@jobctrl/shared/http';
import type { EnrichmentStatus, JobRepository } from '@jobctrl/shared/jobs';
import type { CpuTaskPool } from '@jobctrl/shared/temporal';
import type { DetailPageParse } from './detail-page.parser';
import type { PageRenderer } from './chromium.renderer';

export interface EnrichmentActivityDeps {
  jobs: JobRepository;
  http: HttpClient;
  cpu: CpuTaskPool;
  /** Chromium for pages that render their content with JavaScript; without it such pages keep the source's text. */
  renderer?: PageRenderer;
  /** Starts prep-{idempotency_key} with USE_EXISTING (composed by the worker app). */
  startPreparation: (job: { jobKey: string; idempotencyKey: string }) => Promise<void>;
  pollIntervalMs?: number;
  log?: (message: string) => void;
}

const PARSER = path.join(__dirname, `detail-page.parser${path.extname(__filename)}`);

/**
 * The execution-scoped enrichment consumer (score-as-you-discover).
 * live: polls the run's durable membership while families still commit jobs, until cancelled.
 * terminal: drains what is selectable and returns — the authoritative reconcile.
 * Robots-blocked and retryable-failed rows are re-admitted once per activity lifetime; as each job
 * is committed to pending_score its preparation workflow is started at once (per-job handoff),
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

      try {
        for (;;) {
          ctx.heartbeat(result);
          const candidates = await deps.jobs.selectForEnrichment(input.runId, { includeRecoverable: true, exclude: readmitted, limit: input.internalConcurrency * 4 });
          for (const c of candidates) if (c.status !== 'pending') readmitted.add(c.jobKey);
          if (candidates.length === 0) {
            if (input.mode === 'terminal') break;
            await ctx.sleep(deps.pollIntervalMs ?? 500); // rejects when the workflow cancels the live consumer
            continue;
          }
          await mapBounded(candidates, input.internalConcurrency, async (job) => {
            signal.throwIfAborted();
            const outcome = await enrichOne(deps, job.url, signal);
            if (outcome.status === 'enriched') result.enriched += 1;
            else result.failed += 1;
            const ready = await deps.jobs.recordEnrichment(job.jobKey, outcome);
            if (ready && input.perJobHandoff) await handOff({ jobKey: job.jobKey, idempotencyKey: ready });
            ctx.heartbeat(result);
          });
        }
      } catch (err) {
        // Whatever was interrupted (a fetch, a page render, a sleep), a requested cancel is reported
        // as the typed cancellation, so the workflow sees a clean stop rather than a failure.
        if (signal.aborted) throw err instanceof CancelledFailure ? err : new CancelledFailure('enrichment consumer cancelled', [], err instanceof Error ? err : undefined);
        throw err;
      }
      await handoffChain;
      return result;
    },
  };
}

async function enrichOne(
  deps: EnrichmentActivityDeps,
  url: string,
  signal: AbortSignal,
): Promise<{ status: EnrichmentStatus; method?: string; error?: string; descriptionText?: string | null }> {
  try {
      const html = await deps.http.getText(url, { signal });
      const parsed = await deps.cpu.run<string, DetailPageParse>(PARSER, 'parseDetailPage', html, { signal });
      if (parsed.method !== 'needs_browser') return { status: 'enriched', method: parsed.method, descriptionText: parsed.descriptionText };
      if (!deps.renderer) {
        return { status: 'failed', method: parsed.method, error: 'page renders its content with JavaScript and no browser is configured' };
      }
      // The host policy admitted this URL above (robots, politeness); only then may the browser load it.
      const rendered = await deps.renderer.render(url, { signal });
      const again = await deps.cpu.run<string, DetailPageParse>(PARSER, 'parseDetailPage', rendered, { signal });
      if (again.method === 'needs_browser') return { status: 'failed', method: 'browser', error: 'page had no readable content even after rendering' };
      return { status: 'enriched', method: 'browser', descriptionText: again.descriptionText };
    } catch (err) {
      if (signal.aborted) throw err;
      const e = err as { code?: string; retryable?: boolean; message?: string };
      if (e.code === 'robots_blocked' && e.retryable === false) return { status: 'robots_blocked', error: e.message };
      return { status: e.retryable ? 'failed_retryable' : 'failed', error: e.message ?? String(err) };
    }
  }

  async function mapBounded<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const lanes = Array.from({ length: Math.max(1, Math.min(width, items.length)) }, async () => {
      while (next < items.length) await fn(items[next++]);
    });
    await Promise.all(lanes);
  }
