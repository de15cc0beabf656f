// Debian's Chromium through playwright-core (never a downloaded browser), and a screenshot helper:
// every page a test visits is saved under the git-ignored test-artifacts/, and with
// JOBCTRL_UPDATE_SCREENSHOTS=1 also as docs/screenshots/<page>.png (the README's pictures).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pidAlive, processTree, waitFor } from '@jobctrl/tools/processes';
import { root } from '@jobctrl/tools/stack/testing';

const CHROMIUM = '/usr/bin/chromium';
// The flags the product's renderer launches with (libs/enrichment/src/chromium.renderer.ts).
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

export const ARTIFACTS = path.join(root, 'test-artifacts', 'web-e2e');
const DOCS_SHOTS = path.join(root, 'docs', 'screenshots');

export interface TestBrowser {
  browser: Browser;
  /** Closes the browser; rejects when any process of its tree (seen while it ran) is still alive. */
  close(): Promise<void>;
}

/**
 * A browser server the suite owns by pid (launchServer), so its process tree can be listed while it
 * runs and proven gone after close — from /proc, not from Playwright's word.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (Debian's package)`);
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const browser = await chromium.connect(server.wsEndpoint());
  const pid = server.process().pid as number;
  return {
    browser,
    async close() {
      const tree = processTree(pid).map((p) => p.pid);
      await browser.close().catch(() => undefined);
      await server.close();
      await waitFor(() => (tree.some(pidAlive) ? { progress: tree.filter(pidAlive) } : { done: true }), { what: 'the browser processes to exit', idleTimeoutMs: 15_000 });
    },
  };
}

/**
 * Saves what `page` shows as test-artifacts/web-e2e/<test>/<nn>-<name>.png. A shot marked `docs` is
 * the README's picture of its page: with JOBCTRL_UPDATE_SCREENSHOTS=1 it is also written to
 * docs/screenshots/<name>.png (one per page, so the committed set stays small).
 */
export function screenshots(test: string) {
  const dir = path.join(ARTIFACTS, test.replace(/[^a-z0-9-]+/gi, '-'));
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  return async (page: Page, name: string, opts: { docs?: boolean } = {}): Promise<void> => {
    const png = await page.screenshot({ fullPage: false });
    fs.writeFileSync(path.join(dir, `${String(++n).padStart(2, '0')}-${name}.png`), png);
    if (opts.docs && process.env['JOBCTRL_UPDATE_SCREENSHOTS'] === '1') {
      fs.mkdirSync(DOCS_SHOTS, { recursive: true });
      fs.writeFileSync(path.join(DOCS_SHOTS, `${name}.png`), png);
    }
  };
}
