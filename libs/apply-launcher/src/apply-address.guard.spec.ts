import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type APIResponse, type Browser } from 'playwright-core';
import { AddressGuard, guardBrowserRequest } from '@jobctrl/shared/http';

/**
 * The apply attempt's context routes every request through the address rule exactly like this
 * (apply.activities.ts): a form page on a listed host loads, but its resources — and redirect hops —
 * on an unlisted private host are aborted before Chromium sends them.
 */
describe('apply launcher: the address rule on the form page (#15)', () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  let browser: Browser;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${(req.headers.host ?? '').replace(/:\d+$/, '')}${req.url}`);
      if (req.url === '/form') {
        res.setHeader('content-type', 'text/html');
        res.end(`<html><body><form><input name="email"></form>
          <img src="http://localhost:${port}/tracker.png"><img src="/jump.png"><img src="/own.png"></body></html>`);
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
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('loads the listed page and its own resources; nothing reaches the unlisted host, not even through a redirect', async () => {
    const context = await browser.newContext();
    const refused: string[] = [];
    const guard = new AddressGuard({ allowedPrivateHosts: ['127.0.0.1'] });
    await context.route('**/*', (route) => guardBrowserRequest<APIResponse>(route, guard, { onRefused: (url) => refused.push(url) }).then(() => undefined));
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/form`, { waitUntil: 'load' });
      expect(await page.locator('input[name=email]').count()).toBe(1);
      expect(hits.sort()).toEqual(['127.0.0.1/form', '127.0.0.1/jump.png', '127.0.0.1/own.png']);
      expect(refused.sort()).toEqual([`http://localhost:${port}/after-jump.png`, `http://localhost:${port}/tracker.png`]);
      // And a form URL on an unlisted loopback host is not even navigated to.
      await expect(page.goto(`http://localhost:${port}/form`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(hits.filter((h) => h.startsWith('localhost'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
