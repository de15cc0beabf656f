import * as path from 'node:path';
import { startCountingServer, type CountingServer } from '@jobctrl/shared/http/testing';
import { AddressGuard } from '@jobctrl/shared/http';
import { launchApplyBrowser, type ApplyBrowser } from './apply-browser.launcher';
import { CHROMIUM, killSurvivorsUnder, makeTestRoot, survivorsUnder } from './testing/launcher.test-support';

// Real Chromium behind the launcher's GuardedProxy (#15), as apply.activities runs it (no route
// handler): a form post's 303/307 is a new request Chromium sends to the proxy, which refuses a hop
// into the user's network before anything reaches it.
const root = makeTestRoot('apply-proxy');


describe('the apply browser behind the guarded proxy (#15)', () => {
  let board: CountingServer;
  let intranet: CountingServer;
  let redirectTo = '';
  let redirectStatus = 307;

  beforeAll(async () => {
    // The user's network: anything that reaches it is a failure.
    intranet = await startCountingServer('127.0.0.2', (_req, res) => res.end('private'));
    // The (listed) board: a form whose submission redirects into the user's network.
    board = await startCountingServer('127.0.0.1', (req, res) => {
      if (req.url === '/form') {
        res.setHeader('content-type', 'text/html');
        res.end('<html><body><form method="post" action="/submit"><input name="email" value="me@example.com"><button id="go">Apply</button></form></body></html>');
        return;
      }
      res.writeHead(redirectStatus, { location: redirectTo });
      res.end();
    });
  });

  afterAll(async () => {
    await Promise.all([board, intranet].map((server) => server.close()));
    expect(killSurvivorsUnder(root)).toEqual([]);
  });

  it.each([
    [307, 'an unlisted loopback address', () => `http://127.0.0.2:${intranet.port}/admin`],
    [303, 'a name that resolves to a private address', () => `http://intranet.test:${intranet.port}/admin`],
  ])('a form post answered %i into %s: the proxy refuses the hop, nothing reaches it', async (status, _what, target) => {
    redirectStatus = status;
    redirectTo = target();
    const refused: string[] = [];
    // intranet.test "resolves" to the intranet server; everything else as the system says.
    const guard = new AddressGuard({
      allowedPrivateHosts: ['127.0.0.1'],
      resolve: async (host) => (host === 'intranet.test' ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
    });
    let browser: ApplyBrowser | undefined;
    try {
      browser = await launchApplyBrowser({
        appDir: path.join(root, 'app'),
        tenant: 'local',
        jobKey: `job-${status}`,
        runId: 'run-1',
        attempt: 1,
        owner: 'proxy-spec',
        executablePath: CHROMIUM,
        cleanup: { graceMs: 1_500 },
        addressGuard: guard,
        onRefused: ({ host, port }) => refused.push(`${host}:${port}`),
      });
      const page = await browser.context.newPage();
      await page.goto(`http://127.0.0.1:${board.port}/form`, { waitUntil: 'load', timeout: 60_000 });
      const submitted = page.waitForResponse((response) => response.url().includes(`:${intranet.port}/admin`), { timeout: 60_000 });
      await page.click('#go');
      // The browser did follow the redirect — to the proxy, which answered 403 itself.
      expect((await submitted).status()).toBe(403);
      expect(board.hits.filter((hit) => hit === 'POST /submit').length).toBeGreaterThan(0);
      expect(intranet.connections()).toBe(0); // over the whole file: no case reached it
      expect(refused).toContain(`${new URL(redirectTo).hostname}:${intranet.port}`);
    } finally {
      const cleanup = await browser?.close();
      if (cleanup) expect(cleanup.verified).toBe(true);
    }
    expect(survivorsUnder(root)).toEqual([]);
  }, 120_000);
});
