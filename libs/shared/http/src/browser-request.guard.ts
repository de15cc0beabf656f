import type { AddressGuard } from './address-guard.rules';

/** The parts of a Playwright APIResponse the guard uses (shared-http does not depend on Playwright). */
export interface GuardedResponse {
  status(): number;
  headers(): Record<string, string>;
  body(): Promise<Buffer>;
}

/** The parts of a Playwright Route the guard uses. */
export interface GuardedRoute<R extends GuardedResponse> {
  request(): { url(): string; method(): string };
  abort(errorCode?: string): Promise<void>;
  continue(): Promise<void>;
  fetch(options: { url?: string; method?: string; maxRedirects?: number; timeout?: number }): Promise<R>;
  fulfill(options: { response: R; body?: Buffer }): Promise<void>;
}

export interface BrowserGuardOptions {
  /** Redirect hops a request may follow, each checked (default 5). */
  maxHops?: number;
  /** Per hop (default 30 s). */
  timeoutMs?: number;
  /** An extra rule every hop must pass besides the address rule (the renderer's same-origin rule). */
  allowUrl?: (url: string) => boolean;
  /** Hears of each refused request. */
  onRefused?: (url: string, reason: string) => void;
}

/**
 * Answers one browser request under the crawler's address rule (#15): every hop is checked before
 * anything is sent. A GET is fetched by Playwright hop by hop (`maxRedirects: 0`) and the final
 * answer handed to the page, because Chromium follows a redirect of a continued — or even a
 * fulfilled — request without routing the next hop again: letting it follow would let a public page
 * redirect the browser into the user's network. Other methods (a form post, whose body Playwright
 * may not carry over for uploads) are checked and continued. Two gaps of this route-level check are
 * closed by the GuardedProxy every browser is launched behind (guarded-proxy.ts), not here: the hops
 * Chromium follows after a continued request (a 303/307 of a form post), and the moment between this
 * check and Chromium's own DNS lookup (the proxy resolves once, checks, and connects to what it
 * checked). This guard stays as defence in depth, for its refusal reports, and for the renderer's
 * same-origin rule (`allowUrl`), which the proxy does not know. Returns the URL that answered, or
 * null when the request was refused or failed (it is then aborted).
 */
export async function guardBrowserRequest<R extends GuardedResponse>(route: GuardedRoute<R>, guard: AddressGuard, options: BrowserGuardOptions = {}): Promise<string | null> {
  const request = route.request();
  let url = request.url();
  if (!/^https?:/i.test(url)) {
    await route.continue().catch(() => undefined);
    return url;
  }
  const maxHops = options.maxHops ?? 5;
  const refuse = async (why: string): Promise<null> => {
    options.onRefused?.(url, why);
    await route.abort('blockedbyclient').catch(() => undefined);
    return null;
  };
  for (let hop = 0; hop <= maxHops; hop++) {
    if (options.allowUrl && !options.allowUrl(url)) return refuse('not allowed for this page');
    try {
      await guard.check(url);
    } catch (err) {
      // A host that cannot be resolved is refused too: "could not check" must not mean "allowed".
      return refuse(err instanceof Error ? err.message : String(err));
    }
    if (request.method() !== 'GET') {
      await route.continue().catch(() => undefined);
      return url;
    }
    let response: R;
    try {
      response = await route.fetch({ url, maxRedirects: 0, timeout: options.timeoutMs ?? 30_000 });
    } catch {
      await route.abort('failed').catch(() => undefined);
      return null;
    }
    const location = response.headers()['location'];
    if (response.status() >= 300 && response.status() < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    await route.fulfill({ response, body: await response.body() }).catch(() => undefined);
    return url;
  }
  return refuse(`more than ${maxHops} redirects`);
}
