import { chromium, Browser, type APIResponse, type BrowserContext, type CDPSession, type Page, type Request, type Route } from 'playwright-core';
import { AddressGuard, CHROMIUM_SWITCHES, GuardedProxy, guardBrowserRequest } from '@jobctrl/shared/http';
import { BoundedExecutor } from '@jobctrl/shared/temporal';
import { MIN_READABLE_CHARS } from './detail-page.parser';

/** Renders a page whose content only exists after its scripts ran. */
export interface PageRenderer {
  /**
   * `html`: the page as already fetched through the host policy; the browser then starts from it
   * instead of requesting the page again (its own scripts' requests still go to the page's origin).
   */
  render(url: string, opts?: { signal?: AbortSignal; html?: string }): Promise<string>;
  /** Starts what the first render would otherwise start (the worker calls it before it reports ready). */
  warm?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Called once an admitted resource's request ended: its status (undefined when it failed) and the
 * body bytes read. Returns whether the body may reach the page.
 */
export type SettleResource = (outcome: { status?: number; bytes: number }) => boolean;

export interface RenderPageOptions {
  signal?: AbortSignal;
  /** The page as already fetched: it answers the navigation (see PageRenderer.render). */
  html?: string;
  /** Navigation timeout of this render (default: the renderer's `timeoutMs`). */
  timeoutMs?: number;
  /**
   * Asked before every request the page makes (the pre-fetched document excepted), redirect hops
   * one by one: null aborts the request; otherwise the request runs while the caller holds whatever
   * it reserved, and the returned function hears how it ended. With it, resources are fetched by
   * Playwright hop by hop (a browser follows redirects without asking) and handed to the page.
   */
  admitResource?: (url: string, info: { signal: AbortSignal; navigation: boolean }) => Promise<SettleResource | null>;
}

/** Redirects one admitted resource may follow (each hop admitted again). */
const MAX_RESOURCE_HOPS = 5;

export interface ChromiumRendererOptions {
  executablePath: string;
  /** pipeline_internal_concurrency: pages rendering at once in this worker. */
  maxPages: number;
  timeoutMs?: number;
  /**
   * The worker's address rule (allowed_private_hosts): every request a page makes is checked against
   * it and refused ones are aborted, never sent. Default: no private host allowed.
   */
  addressGuard?: AddressGuard;
  /** How long a pooled page may stay unused before it is closed (default PAGE_IDLE_MS). */
  pageIdleMs?: number;
}


/** Renders one pooled page serves before it is closed and a fresh one opened (bounds what a long-lived renderer accumulates). */
const RENDERS_PER_PAGE = 100;
/** A pooled page nobody rendered on for this long is closed (an idle worker holds no renderer processes). */
const PAGE_IDLE_MS = 30_000;
/** Resetting a page after its render (about:blank, the origin's storage): longer means the page is wedged, and it is closed instead. */
const PAGE_RESET_TIMEOUT_MS = 2_000;

/** One reusable page in its own incognito context. */
interface PageLane {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  renders: number;
  /** The render this page serves now; null between renders, when every request is refused. */
  route: ((route: Route) => Promise<unknown>) | null;
  /** Crashed, closed or discarded: never handed out again. */
  dead: boolean;
  closing?: Promise<void>;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Browser rendering for enrichment, with hard resource bounds: ONE Chromium process per worker
 * (launched on first use; each is 300–600 MB, the spec's first-class risk), at most `maxPages`
 * pages at once, each in an incognito context of its own. A page may only load resources from its
 * own origin, so rendering cannot reach hosts the host policy did not admit, and every request
 * passes the address rule (allowed_private_hosts) hop by hop — in the route handler, and again in
 * the GuardedProxy the browser is launched behind, which sees every connection (redirects of a
 * script's POST included, which the route handler cannot) and pins the addresses it checked
 * (Chromium's own DNS lookup is never used). One proxy per renderer, kept across relaunches.
 *
 * Pages are pooled: opening a page (its context, target and renderer process) cost ~500 ms of
 * Chromium CPU on a 2-core machine, three times the render itself (measured: a fresh context per
 * render ~700 CPU-ms, a reused page ~190). Between renders a page is sent to about:blank (the
 * posting's scripts stop), its origin's storage and cookies are cleared and service workers are
 * blocked, so one posting cannot leave anything for the next; a page is closed after
 * RENDERS_PER_PAGE renders, after PAGE_IDLE_MS unused, and after any render that failed, was
 * cancelled or could not be reset — the next render opens a fresh one. Cancellation closes the
 * page's context, which aborts its navigation. A browser that crashed or lost its connection is
 * relaunched on the next render instead of failing every render until the worker restarts.
 */
export class ChromiumRenderer implements PageRenderer {
  private browser: Promise<Browser> | null = null;
  private proxy: Promise<GuardedProxy> | null = null;
  private readonly slots: BoundedExecutor;
  private active = 0;
  private peak = 0;
  private opened = 0;
  private readonly idle: PageLane[] = [];
  private readonly guard: AddressGuard;

  constructor(private readonly options: ChromiumRendererOptions) {
    this.guard = options.addressGuard ?? new AddressGuard();
    this.slots = new BoundedExecutor('browser-pages', options.maxPages, { graceMs: 2_000 });
  }

  /** `pagesOpened`: pages opened since start (each render that found no pooled page opened one). */
  stats(): { activePages: number; peakPages: number; launched: boolean; pooledPages: number; pagesOpened: number } {
    return { activePages: this.active, peakPages: this.peak, launched: this.browser !== null, pooledPages: this.idle.length, pagesOpened: this.opened };
  }

  async render(url: string, opts: { signal?: AbortSignal; html?: string } = {}): Promise<string> {
    return (await this.renderPage(url, opts)).html;
  }

  /** The rendered DOM and the URL of the document it belongs to (after redirects and script navigations). */
  renderPage(url: string, opts: RenderPageOptions = {}): Promise<{ html: string; finalUrl: string }> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 20_000;
    const admit = opts.admitResource;
    return this.slots.run(async (signal) => {
      const lane = await this.acquire();
      const onAbort = () => void this.discard(lane);
      signal.addEventListener('abort', onAbort, { once: true });
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      const origin = new URL(url).origin;
      let rendered = false;
      try {
        const { page } = lane;
        const target = new URL(url).href;
        let document = opts.html;
        let finalUrl = target;
        lane.route = async (route) => {
          const request = route.request();
          if (new URL(request.url()).origin !== origin) return route.abort();
          // The navigation itself is answered with the page already fetched (once): no second
          // request to the host, and nothing the host policy did not admit.
          if (document !== undefined && request.isNavigationRequest() && request.url() === target) {
            const body = document;
            document = undefined;
            return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
          }
          // Hop by hop, each hop checked (Chromium would follow a redirect out of the origin, or into
          // the user's network, without routing it again).
          if (!admit) return guardBrowserRequest<APIResponse>(route, this.guard, { timeoutMs, allowUrl: (hop) => new URL(hop).origin === origin });
          const mainDocument = isMainDocument(request, page);
          return fetchAdmitted(route, origin, admit, this.guard, signal, timeoutMs).then((landed) => {
            if (mainDocument && landed) finalUrl = landed;
          });
        };
        await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
        // Inline scripts have run by `load`; a page that already shows its text is done. Only a page
        // still empty (it fetches its content after load) waits for the network to settle, since
        // networkidle alone costs at least 500 ms of quiet per page.
        // (A string expression: it runs in the page, and this lib has no DOM types.)
        const readable = Number(await page.evaluate(`(document.body ? document.body.innerText : '').trim().length`).catch(() => 0));
        if (readable < MIN_READABLE_CHARS) await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => undefined);
        const html = await page.content();
        rendered = true;
        return { html, finalUrl: admit ? finalUrl : page.url() };
      } finally {
        this.active -= 1;
        signal.removeEventListener('abort', onAbort);
        lane.route = null;
        if (rendered && !signal.aborted) await this.release(lane, origin);
        else await this.discard(lane);
      }
    }, opts);
  }

  /** A pooled page of the current browser, or a fresh one. */
  private async acquire(): Promise<PageLane> {
    const browser = await this.launch();
    for (let lane = this.idle.pop(); lane; lane = this.idle.pop()) {
      clearTimeout(lane.idleTimer);
      if (!lane.dead && lane.browser === browser) return lane;
      void this.discard(lane);
    }
    // serviceWorkers 'block': a worker a posting registered would outlive its page and answer the
    // next render of its origin.
    const context = await browser.newContext({ javaScriptEnabled: true, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const lane: PageLane = { browser, context, page, cdp, renders: 0, route: null, dead: false };
      this.opened += 1;
      page.on('crash', () => void this.discard(lane));
      page.on('close', () => void this.discard(lane));
      // A popup the posting opened is closed at once (its requests meet the same route meanwhile).
      context.on('page', (other) => void (other === page ? undefined : other.close().catch(() => undefined)));
      // On the context, so a popup's requests are routed as well; between renders nothing loads.
      await context.route('**/*', (route) => (lane.route ? lane.route(route) : route.abort('blockedbyclient')));
      return lane;
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  /** Back to the pool, reset: about:blank (the posting's scripts stop), the origin's storage and cookies cleared. */
  private async release(lane: PageLane, origin: string): Promise<void> {
    lane.renders += 1;
    if (lane.dead || lane.renders >= RENDERS_PER_PAGE) return this.discard(lane);
    let timer: NodeJS.Timeout | undefined;
    const reset = (async () => {
      await lane.page.goto('about:blank', { timeout: PAGE_RESET_TIMEOUT_MS });
      await lane.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await lane.context.clearCookies();
      return true;
    })();
    const ok = await Promise.race([reset, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PAGE_RESET_TIMEOUT_MS)))]).catch(() => false);
    clearTimeout(timer);
    if (!ok || lane.dead || this.browser === null) return this.discard(lane);
    lane.idleTimer = setTimeout(() => void this.discard(lane), this.options.pageIdleMs ?? PAGE_IDLE_MS);
    lane.idleTimer.unref();
    this.idle.push(lane);
  }

  /** Closes the page's context (idempotent: a crash, its close event and the render's end may all ask). */
  private discard(lane: PageLane): Promise<void> {
    clearTimeout(lane.idleTimer);
    const at = this.idle.indexOf(lane);
    if (at >= 0) this.idle.splice(at, 1);
    lane.dead = true;
    lane.closing ??= lane.context.close().catch(() => undefined);
    return lane.closing;
  }

  /**
   * Launches the browser now rather than on the first render (a launch costs about a second), so a
   * worker that may render reports ready with Chromium up. A failed launch throws and is forgotten,
   * exactly as on a render: the next render tries again.
   */
  async warm(): Promise<void> {
    await this.launch();
  }

  async close(): Promise<void> {
    await this.slots.shutdown();
    await Promise.all([...this.idle].map((lane) => this.discard(lane)));
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser).close().catch(() => undefined);
    const proxy = this.proxy;
    this.proxy = null;
    if (proxy) await (await proxy.catch(() => null))?.close();
  }

  private async launch(): Promise<Browser> {
    const current = this.browser;
    if (current) {
      // A failed launch already cleared the field; a crashed (killed, OOM) or disconnected one is
      // replaced here — only by the first render to notice, the others share its relaunch.
      const browser = await current.catch(() => null);
      if (browser?.isConnected()) return browser;
      if (this.browser === current) this.browser = null;
      if (this.browser) return this.browser;
      void browser?.close().catch(() => undefined);
    }
    this.browser ??= this.start();
    return this.browser;
  }

  private start(): Promise<Browser> {
    // A failed proxy start is forgotten like a failed launch: the next render tries again.
    const proxy = (this.proxy ??= GuardedProxy.start({ guard: this.guard }).catch((err: unknown) => {
      this.proxy = null;
      throw err;
    }));
    const launching: Promise<Browser> = proxy
      // Playwright's `proxy` (not a raw --proxy-server) so its own fetches for the route handler go
      // through the proxy too; `<-loopback>` sends loopback targets there as well (Chromium bypasses
      // a proxy for loopback by default), where they are refused unless listed.
      .then(({ url }) => chromium.launch({ executablePath: this.options.executablePath, args: [...CHROMIUM_SWITCHES], headless: true, proxy: { server: url, bypass: '<-loopback>' } }))
      .then((browser) => {
        browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
        });
        return browser;
      })
      .catch((err: unknown) => {
        if (this.browser === launching) this.browser = null;
        throw new Error(
          `could not start Chromium at ${this.options.executablePath} (browser_executable_path): ${err instanceof Error ? err.message : String(err)}. ` +
            'Install it with `apt-get install chromium` (the Debian package; browsers are never downloaded).',
        );
      });
    return launching;
  }
}

/**
 * Fetches one admitted request through Playwright, redirect hop by redirect hop, each hop admitted
 * again (so each reserves its own host) and kept to the page's origin, then hands the answer to the
 * page. Returns the URL that answered, or null when the request was refused or failed.
 */
async function fetchAdmitted(
  route: Route,
  origin: string,
  admit: NonNullable<RenderPageOptions['admitResource']>,
  guard: AddressGuard,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<string | null> {
  const navigation = route.request().isNavigationRequest();
  let url = route.request().url();
  for (let hop = 0; hop <= MAX_RESOURCE_HOPS; hop++) {
    // The address rule before the caller reserves anything: a refused hop is aborted, not fetched.
    if (!(await guard.check(url).then(() => true, () => false))) break;
    const settle = await admit(url, { signal, navigation }).catch(() => null);
    if (!settle) break;
    let answer: { status: number; location: string | undefined; body: Buffer; response: Awaited<ReturnType<Route['fetch']>> };
    try {
      const response = await route.fetch({ url, maxRedirects: 0, timeout: timeoutMs });
      answer = { status: response.status(), location: response.headers()['location'], body: await response.body(), response };
    } catch {
      settle({ bytes: 0 });
      break;
    }
    if (!settle({ status: answer.status, bytes: answer.body.byteLength })) break;
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      const next = new URL(answer.location, url);
      if (next.origin !== origin) break;
      url = next.href;
      continue;
    }
    await route.fulfill({ response: answer.response, body: answer.body }).catch(() => undefined);
    return url;
  }
  await route.abort('blockedbyclient').catch(() => undefined);
  return null;
}

function isMainDocument(request: Request, page: Page): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame() === page.mainFrame();
  } catch {
    // frame() throws for a service worker's requests; those are never the page's document.
    return false;
  }
}
