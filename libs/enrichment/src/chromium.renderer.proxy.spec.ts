import * as fs from 'node:fs';
import { startCountingServer, type CountingServer } from '@jobctrl/shared/http/testing';
import { AddressGuard } from '@jobctrl/shared/http';
import { ChromiumRenderer } from './chromium.renderer';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium`);

/**
 * #15: a page script's POST is checked by the route handler and continued; Chromium then follows its
 * redirect without routing the next hop. The renderer's GuardedProxy is what stops that hop.
 */
describe('ChromiumRenderer behind the guarded proxy', () => {
  let board: CountingServer;
  let intranet: CountingServer;
  let redirectTo = '';

  beforeAll(async () => {
    intranet = await startCountingServer('127.0.0.2', (_req, res) => res.end('<html><body>private</body></html>'));
    board = await startCountingServer('127.0.0.1', (_req, res) => {
      res.writeHead(307, { location: redirectTo });
      res.end();
    });
  });

  afterAll(async () => {
    await Promise.all([board, intranet].map((server) => server.close()));
  });

  it.each([
    ['an unlisted loopback address', () => `http://127.0.0.2:${intranet.port}/admin`],
    ['a name that resolves to a private address', () => `http://intranet.test:${intranet.port}/admin`],
  ])("a script's form POST redirected (307) into %s never reaches it", async (_what, target) => {
    redirectTo = target();
    const renderer = new ChromiumRenderer({
      executablePath: CHROMIUM,
      maxPages: 1,
      addressGuard: new AddressGuard({
        allowedPrivateHosts: ['127.0.0.1'],
        resolve: async (host) => [{ address: host === 'intranet.test' ? '127.0.0.2' : '127.0.0.1', family: 4 }],
      }),
    });
    const origin = `http://127.0.0.1:${board.port}`;
    // The post goes to an iframe: the page's load event waits for it, so the render sees it through.
    const html = `<html><body><iframe name="sink"></iframe>
      <form id="f" method="post" action="${origin}/submit" target="sink"><input name="q" value="1"></form>
      <script>document.getElementById('f').submit()</script></body></html>`;
    try {
      board.hits.length = 0;
      await renderer.render(`${origin}/posting`, { html }).catch(() => '');
      expect(board.hits).toEqual(['POST /submit']);
      expect(intranet.connections()).toBe(0);
    } finally {
      await renderer.close();
    }
  }, 120_000);
});
