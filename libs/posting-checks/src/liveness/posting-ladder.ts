import type { AvailabilityEvidence, AvailabilityState, AvailabilityVerdict, CheckMethod, PostingResponse, PostingTarget } from '../availability.model';
import { apiLookupUrl, readApiAnswer } from './api-lookup';
import { isCancellation, readFetchFailure } from './fetch-failure';
import { readPostingPage } from './page-reading';

/**
 * The port the ladder fetches through. The check's fetcher (libs/posting-checks/src/check-fetcher.ts)
 * implements it with the shared host policy, the per-check request/byte/redirect limits and the
 * renderer; tests implement it with a map. `fetch` returns every HTTP status (it does not throw
 * for 4xx/5xx) and throws for what never produced one (robots, timeout, network, limits, loops).
 */
export interface PostingFetcher {
  fetch(url: string, accept: 'json' | 'html'): Promise<PostingResponse>;
  /** Renders the page in the browser; `html` is what HTTP already fetched, for a renderer that can reuse it. */
  render?(url: string, html?: string): Promise<{ html: string; finalUrl: string }>;
}

export interface LadderOptions {
  now: Date;
  /** Checked between rungs; a fired signal rethrows instead of producing a verdict. */
  signal?: AbortSignal;
}

/**
 * Checks one posting, cheapest and most certain rung first:
 *  1. API — the board's own API (when the job came from one). Its answer is evidence; it decides
 *     alone only when the provider itself reports the posting inactive. A missing posting never
 *     closes it (unlisted postings are missing too, see api-lookup.ts).
 *  2. HTTP — the posting page through the host policy, read by readPostingPage.
 *  3. Browser — only when the HTTP page is a client-rendered shell and the fetcher can render.
 * The page is read even when the API lists the posting: board APIs serve cached lists, and what
 * the applicant sees — a 404, a redirect to the index, "position filled" — is the closure that
 * matters; a page that keeps us out stays `blocked` and a page we could not read stays `unknown`
 * (a listing says nothing about a captcha or a JavaScript-only closed banner). The listing decides
 * one case only: a page that shows the posting but no apply control (unknown, no_apply_control) is
 * `open` (method `api`) when the board's API still lists it.
 * Evidence accumulates across rungs; `method` names the rung that decided. A failure to fetch is
 * `unknown` (or `blocked` for robots.txt/403/429) with its reason and never `closed`.
 *
 * Not readings (rethrown, so that the caller records nothing about the employer): cancellation,
 * and an error the fetcher marks `local: true` — a refusal of our own making (budget, host
 * reservation) that must release the job without evidence or backoff.
 */
export async function checkPostingAvailability(target: PostingTarget, fetcher: PostingFetcher, opts: LadderOptions): Promise<AvailabilityVerdict> {
  const evidence: AvailabilityEvidence[] = [];
  const { signal, now } = opts;
  signal?.throwIfAborted();
  let apiListed = false;
  const settle = (state: AvailabilityState, reason: string | null, method: CheckMethod): AvailabilityVerdict =>
    apiListed && state === 'unknown' && reason === 'no_apply_control'
      ? { state: 'open', reason: null, method: 'api', evidence }
      : { state, reason, method, evidence };

  const apiUrl = target.api ? apiLookupUrl(target.api) : null;
  if (target.api && apiUrl) {
    try {
      const reading = readApiAnswer(target.api, await fetcher.fetch(apiUrl, 'json'));
      evidence.push(...reading.evidence);
      if (reading.decision === 'closed') return { state: 'closed', reason: reading.reason, method: 'api', evidence };
      apiListed = reading.decision === 'open';
    } catch (err) {
      rethrowIfNotReading(err, signal);
      // Whatever kept the API from answering (even robots.txt on the API host) says nothing about
      // the posting page: note it and ask the page.
      const failure = readFetchFailure(err, apiUrl);
      evidence.push({ kind: 'api_error', detail: `${failure.reason}: ${failure.detail}`, url: failure.url, status: failure.status });
    }
  }

  signal?.throwIfAborted();
  let response: PostingResponse;
  try {
    response = await fetcher.fetch(target.url, 'html');
  } catch (err) {
    rethrowIfNotReading(err, signal);
    const failure = readFetchFailure(err, target.url);
    evidence.push({ kind: failure.kind, detail: failure.detail, url: failure.url, status: failure.status });
    return settle(failure.state, failure.reason, 'http');
  }
  const page = readPostingPage(response, { postingUrl: target.url, now });
  evidence.push(...page.evidence);
  if (!page.needsJavascript || !fetcher.render) return settle(page.verdict, page.reason, 'http');

  signal?.throwIfAborted();
  let rendered: { html: string; finalUrl: string };
  try {
    rendered = await fetcher.render(response.finalUrl, response.body);
  } catch (err) {
    rethrowIfNotReading(err, signal);
    const failure = readFetchFailure(err, response.finalUrl);
    evidence.push({ kind: failure.kind, detail: failure.detail, url: failure.url, status: failure.status });
    return settle(failure.state, failure.reason, 'browser');
  }
  // A client-side navigation away from the fetched page (a single-page app routing a closed
  // posting to its job list) is one more redirect; the rendered DOM itself answered like a 200.
  const navigated = rendered.finalUrl && rendered.finalUrl !== response.finalUrl;
  const browserPage = readPostingPage(
    {
      url: target.url,
      finalUrl: rendered.finalUrl || response.finalUrl,
      status: 200,
      hops: navigated ? [...response.hops, { url: response.finalUrl, status: 200 }] : response.hops,
      contentType: 'text/html',
      body: rendered.html,
    },
    { postingUrl: target.url, now },
  );
  evidence.push(...browserPage.evidence.filter((e) => e.kind !== 'redirect' || navigated));
  const reason = browserPage.needsJavascript ? 'empty_after_render' : browserPage.reason;
  return settle(browserPage.verdict, reason, 'browser');
}

function rethrowIfNotReading(err: unknown, signal: AbortSignal | undefined): void {
  if (isCancellation(err, signal)) throw err;
  if (err !== null && typeof err === 'object' && (err as { local?: unknown }).local === true) throw err;
}
