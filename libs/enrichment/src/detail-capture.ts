import * as path from 'node:path';
import type { HttpClient } from '@jobctrl/shared/http';
import type { EnrichmentCandidate, JobRepository } from '@jobctrl/shared/jobs';
import type { CpuTaskPool } from '@jobctrl/shared/temporal';
import type { DetailPageParse } from './detail-page.parser';
import type { PageRenderer } from './chromium.renderer';
import { DEFAULT_ENRICHMENT_RETRY, type EnrichmentOutcome, type EnrichmentRetryPolicy, settleRetryableFailure } from './enrichment-retry.rules';

/** What a detail capture needs; shared by the run's enrichment consumer and the retry pass. */
export interface DetailCaptureDeps {
  jobs: JobRepository;
  http: HttpClient;
  cpu: CpuTaskPool;
  /** Chromium for pages that render their content with JavaScript; without it such pages keep the source's text. */
  renderer?: PageRenderer;
  retry?: EnrichmentRetryPolicy;
}

const PARSER = path.join(__dirname, `detail-page.parser${path.extname(__filename)}`);

/** A page the parser reads in well under a millisecond, to load it (and its imports) in a thread. */
const WARM_PAGE = '<html><head><title>warm-up</title></head><body><main><p>warm-up</p></main></body></html>';

/**
 * The worker's warm-up for detail capture: every CPU thread loads the parser (one tiny parse each),
 * so the first captured job pays no thread start-up. (The browser has its own `warm()`.)
 */
export async function warmDetailCapture(deps: Pick<DetailCaptureDeps, 'cpu'>): Promise<void> {
  await deps.cpu.warm(PARSER, 'parseDetailPage', WARM_PAGE);
}

/**
 * Captures one job's detail page and records the outcome, a retryable failure settled by the retry
 * policy (another attempt later, or source_only once the attempts are spent). Returns the outcome
 * and the job's idempotency key when it just became ready to score.
 */
export async function captureDetail(deps: DetailCaptureDeps, job: EnrichmentCandidate, signal: AbortSignal, now: () => number = Date.now): Promise<{ outcome: EnrichmentOutcome; ready: string | null }> {
  const { employer, pageCompensation, ...fetched } = await fetchDetail(deps, job.url, signal);
  const outcome = fetched.status === 'failed_retryable' ? settleRetryableFailure(fetched, job.attempts + 1, deps.retry ?? DEFAULT_ENRICHMENT_RETRY, now()) : fetched;
  // The employer's own name on the page (JSON-LD hiringOrganization) replaces a board token in the
  // same write that moves the job on, so scoring and letters see it; a name the source gave is kept.
  // The pay the page states is kept beside it for the compensation refresh.
  const ready = await deps.jobs.recordEnrichment(job.jobKey, { ...outcome, employer, pageCompensation });
  return { outcome, ready };
}

async function fetchDetail(deps: DetailCaptureDeps, url: string, signal: AbortSignal): Promise<EnrichmentOutcome & { employer?: string | null; pageCompensation?: DetailPageParse['compensation'] }> {
  try {
    const html = await deps.http.getText(url, { signal });
    const parsed = await deps.cpu.run<string, DetailPageParse>(PARSER, 'parseDetailPage', html, { signal });
    if (parsed.method !== 'needs_browser') return { status: 'enriched', method: parsed.method, descriptionText: parsed.descriptionText, employer: parsed.employer, pageCompensation: parsed.compensation };
    if (!deps.renderer) {
      return { status: 'failed', method: parsed.method, error: 'page renders its content with JavaScript and no browser is configured', employer: parsed.employer };
    }
    // The host policy admitted this URL above (robots, politeness); the browser starts from the page
    // fetched there and only its scripts' own requests reach the host.
    const rendered = await deps.renderer.render(url, { signal, html });
    const again = await deps.cpu.run<string, DetailPageParse>(PARSER, 'parseDetailPage', rendered, { signal });
    if (again.method === 'needs_browser') return { status: 'failed', method: 'browser', error: 'page had no readable content even after rendering' };
    return { status: 'enriched', method: 'browser', descriptionText: again.descriptionText, employer: again.employer ?? parsed.employer, pageCompensation: again.compensation ?? parsed.compensation };
  } catch (err) {
    if (signal.aborted) throw err;
    const e = err as { code?: string; retryable?: boolean; message?: string };
    if (e.code === 'robots_blocked' && e.retryable === false) return { status: 'robots_blocked', error: e.message };
    return { status: e.retryable ? 'failed_retryable' : 'failed', error: e.message ?? String(err) };
  }
}
