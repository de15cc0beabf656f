import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { LookupAddress } from 'node:dns';
import { AddressGuard } from '@jobctrl/shared/http';
import { launchApplyBrowser, type ApplyBrowser } from './launcher/apply-browser.launcher';
import { CHROMIUM, killSurvivorsUnder, makeTestRoot, survivorsUnder } from './launcher/testing/launcher.test-support';

/**
 * The apply attempt's browser exactly as apply.activities launches it (#15): behind the launcher's
 * GuardedProxy and nothing else — no route handler fetching in the worker's process. A form page on
 * a listed host loads with its own resources; resources and redirect hops to a host nobody listed
 * never reach it; and every host name is resolved by the guard alone (Chromium's and Playwright's
 * own lookups are never used, so a DNS answer that changes after the check cannot be connected to).
 */
const root = makeTestRoot('apply-address');

describe('apply launcher: the address rule on the form page (#15)', () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${(req.headers.host ?? '').replace(/:\d+$/, '')}${req.url}`);
      if (req.url === '/form') {
        res.setHeader('content-type', 'text/html');
        // board.test exists only in the guard's resolver: it loads only if the guard's lookup is the one used.
        res.end(`<html><body><form><input name="email"></form>
          <img src="http://localhost:${port}/tracker.png"><img src="/jump.png"><img src="/own.png"><img src="http://board.test:${port}/named.png"></body></html>`);
        return;
      }
      if (req.url === '/jump.png') {
        // A same-host resource that redirects into a host nobody listed.
        res.writeHead(302, { location: `http://localhost:${port}/after-jump.png` });
        res.end();
        return;
      }
      res.setHeader('content-type', 'image/png');
      res.end('');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(killSurvivorsUnder(root)).toEqual([]);
  });

  it('loads the listed page, its own resources and a name only the guard can resolve; nothing reaches the unlisted host, not even through a redirect', async () => {
    const lookups: string[] = [];
    const resolve = async (host: string): Promise<LookupAddress[]> => {
      lookups.push(host);
      if (host === 'board.test' || host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const guard = new AddressGuard({ allowedPrivateHosts: ['127.0.0.1', 'board.test'], resolve });
    const refused: string[] = [];
    let browser: ApplyBrowser | undefined;
    try {
      browser = await launchApplyBrowser({
        appDir: path.join(root, 'app'),
        tenant: 'local',
        jobKey: 'job-address',
        runId: 'run-1',
        attempt: 1,
        owner: 'address-spec',
        executablePath: CHROMIUM,
        cleanup: { graceMs: 1_500 },
        addressGuard: guard,
        onRefused: ({ host, port: refusedPort }) => refused.push(`${host}:${refusedPort}`),
      });
      const page = await browser.context.newPage();
      const named = page.waitForResponse((response) => response.url().endsWith('/named.png'), { timeout: 60_000 });
      await page.goto(`http://127.0.0.1:${port}/form`, { waitUntil: 'load', timeout: 60_000 });
      expect(await page.locator('input[name=email]').count()).toBe(1);
      expect((await named).status()).toBe(200);
      // (Chromium's own favicon request to the listed host may come or not.)
      expect(hits.filter((h) => !h.endsWith('/favicon.ico')).sort()).toEqual(['127.0.0.1/form', '127.0.0.1/jump.png', '127.0.0.1/own.png', 'board.test/named.png']);
      // The tracker and the redirect hop, both to the unlisted `localhost`, were refused at the proxy.
      // Nothing else but what Chromium 156 still sends to its vendor despite CHROMIUM_SWITCHES
      // (update.googleapis.com, accounts.google.com; refused here: not resolvable).
      expect(refused.filter((r) => !/\.google(apis)?\.com:\d+$/.test(r))).toEqual([`localhost:${port}`, `localhost:${port}`]);
      // board.test was resolved by the guard once, by the proxy, which then connected to that answer.
      expect(lookups.filter((h) => !/\.google(apis)?\.com$/.test(h))).toEqual(['board.test']);
      // A form URL on an unlisted host is answered by the proxy itself: nothing is sent to it.
      const blocked = await page.goto(`http://localhost:${port}/form`, { timeout: 60_000 });
      expect(blocked?.status()).toBe(403);
      expect(hits.filter((h) => h.startsWith('localhost'))).toEqual([]);
    } finally {
      const cleanup = await browser?.close();
      if (cleanup) expect(cleanup.verified).toBe(true);
    }
    expect(survivorsUnder(root)).toEqual([]);
  }, 120_000);
});
