import { chromium, Browser } from 'playwright-core';
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

export interface ChromiumRendererOptions {
  executablePath: string;
  /** pipeline_internal_concurrency: pages rendering at once in this worker. */
  maxPages: number;
  timeoutMs?: number;
}

// As root on these machines Chromium needs --no-sandbox; the network flags keep it from calling home
// (there is no outside network, and its background requests would only fail and slow it down).
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

/**
 * Browser rendering for enrichment, with hard resource bounds: ONE Chromium process per worker
 * (launched on first use; each is 300–600 MB, the spec's first-class risk), at most `maxPages`
 * pages at once, each in a fresh incognito context that is closed after use. A page may only load
 * resources from its own origin, so rendering cannot reach hosts the host policy did not admit.
 * Cancellation closes the page's context, which aborts its navigation. A browser that crashed or
 * lost its connection is relaunched on the next render instead of failing every render until the
 * worker restarts.
 */
export class ChromiumRenderer implements PageRenderer {
  private browser: Promise<Browser> | null = null;
  private readonly slots: BoundedExecutor;
  private active = 0;
  private peak = 0;

  constructor(private readonly options: ChromiumRendererOptions) {
    this.slots = new BoundedExecutor('browser-pages', options.maxPages, { graceMs: 2_000 });
  }

  stats(): { activePages: number; peakPages: number; launched: boolean } {
    return { activePages: this.active, peakPages: this.peak, launched: this.browser !== null };
  }

  render(url: string, opts: { signal?: AbortSignal; html?: string } = {}): Promise<string> {
    return this.slots.run(async (signal) => {
      const browser = await this.launch();
      const context = await browser.newContext({ javaScriptEnabled: true });
      const onAbort = () => void context.close().catch(() => undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      try {
        const origin = new URL(url).origin;
        const page = await context.newPage();
        const target = new URL(url).href;
        let document = opts.html;
        await page.route('**/*', (route) => {
          const request = route.request();
          if (new URL(request.url()).origin !== origin) return route.abort();
          // The navigation itself is answered with the page already fetched (once): no second
          // request to the host, and nothing the host policy did not admit.
          if (document !== undefined && request.isNavigationRequest() && request.url() === target) {
            const body = document;
            document = undefined;
            return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
          }
          return route.continue();
        });
        await page.goto(url, { waitUntil: 'load', timeout: this.options.timeoutMs ?? 20_000 });
        // Inline scripts have run by `load`; a page that already shows its text is done. Only a page
        // still empty (it fetches its content after load) waits for the network to settle, since
        // networkidle alone costs at least 500 ms of quiet per page.
        // (A string expression: it runs in the page, and this lib has no DOM types.)
        const readable = Number(await page.evaluate(`(document.body ? document.body.innerText : '').trim().length`).catch(() => 0));
        if (readable < MIN_READABLE_CHARS) await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => undefined);
        return await page.content();
      } finally {
        this.active -= 1;
        signal.removeEventListener('abort', onAbort);
        await context.close().catch(() => undefined);
      }
    }, opts);
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
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser).close().catch(() => undefined);
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
    const launching: Promise<Browser> = chromium
      .launch({ executablePath: this.options.executablePath, args: CHROMIUM_ARGS, headless: true })
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
