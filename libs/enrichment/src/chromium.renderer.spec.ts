import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressGuard } from '@jobctrl/shared/http';
import { ChromiumRenderer } from './chromium.renderer';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (the enrichment browser tests need it; Debian's package, never a downloaded browser)`);
}

/** The test servers are on 127.0.0.1, listed as every harness lists the simulators (allowed_private_hosts). */
const SIMULATOR = new AddressGuard({ allowedPrivateHosts: ['127.0.0.1'] });

const TEXT = 'Design resilient APIs in TypeScript and run PostgreSQL at scale.';
let server: http.Server;
let other: http.Server;
let base: string;
let otherHits = 0;
let inFlight = 0;
let ticks = 0;
let peakInFlight = 0;
const hits: string[] = [];

let OTHER = '';
/** /late-data answers this late: well inside the renderer's 2 s networkidle cap. */
const LATE_MS = 800;
const LATE_TEXT = 'Own the data platform end to end: ingestion, modelling and the on-call rota for it. '.repeat(4);
let lateAnswered = false;
const GALLERY_IMAGES = 80;
/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A page loading more images from its own origin than a posting check may, and two redirects. */
function galleryHtml(): string {
  const images = Array.from({ length: GALLERY_IMAGES }, (_, i) => `<img src="/img/${i}.png">`).join('');
  return `<html><body><p>${TEXT}</p>${images}<img src="/hop"><img src="/hop-away"></body></html>`;
}

/** Chromium browser processes this test process started (its direct children). */
function chromiumChildren(): number[] {
  const out = execFileSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm?.startsWith('chrom'))
    .map(([pid]) => Number(pid));
}

beforeAll(async () => {
  // Another origin (another port): the renderer must never request it.
  other = http.createServer((_req, res) => {
    otherHits += 1;
    res.end('');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  OTHER = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/gallery') {
      res.setHeader('content-type', 'text/html');
      res.end(galleryHtml());
      return;
    }
    if (req.url?.startsWith('/img/')) {
      res.setHeader('content-type', 'image/png');
      res.end(PIXEL);
      return;
    }
    if (req.url === '/hop' || req.url === '/moved') {
      res.writeHead(302, { location: req.url === '/hop' ? '/img/hopped.png' : '/job' });
      res.end();
      return;
    }
    if (req.url === '/hop-away') {
      res.writeHead(302, { location: `${OTHER}/tracker.gif` });
      res.end();
      return;
    }
    if (req.url === '/late-data') {
      // What a single-page app fetches after load: answered after LATE_MS.
      lateAnswered = false;
      setTimeout(() => {
        lateAnswered = true;
        res.end(LATE_TEXT);
      }, LATE_MS);
      return;
    }
    if (req.url === '/spa' || req.url === '/inline-then-poll') {
      res.setHeader('content-type', 'text/html');
      const fill = req.url === '/spa' ? `document.getElementById('app').innerText = t` : `void t`;
      const inline = req.url === '/inline-then-poll' ? `<p>${TEXT.repeat(5)}</p>` : '';
      res.end(`<html><body>${inline}<div id="app"></div>
        <script>window.addEventListener('load', () => fetch('/late-data').then((r) => r.text()).then((t) => { ${fill}; }));</script></body></html>`);
      return;
    }
    if (req.url === '/tick') {
      ticks += 1;
      res.end('');
      return;
    }
    if (req.url === '/leave-traces') {
      // A posting that stores what it can and keeps calling home.
      res.setHeader('content-type', 'text/html');
      res.setHeader('set-cookie', 'served=1; Path=/');
      res.end(`<html><body><p>${TEXT.repeat(5)}</p><script>
        document.cookie = 'scripted=1; path=/';
        localStorage.setItem('left', 'behind');
        sessionStorage.setItem('left', 'behind');
        indexedDB.open('left-behind');
        setInterval(() => fetch('/tick'), 20);
      </script></body></html>`);
      return;
    }
    if (req.url === '/read-traces') {
      res.setHeader('content-type', 'text/html');
      res.end(`<html><body><p>${TEXT.repeat(5)}</p><div id="traces"></div><script>
        indexedDB.databases().then((dbs) => {
          document.getElementById('traces').textContent = JSON.stringify({ cookie: document.cookie, local: localStorage.getItem('left'), session: sessionStorage.getItem('left'), dbs: dbs.map((d) => d.name) });
        });
      </script></body></html>`);
      return;
    }
    if (req.url === '/slow') {
      inFlight += 1;
      peakInFlight = Math.max(peakInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end(`<html><body><p>slow</p></body></html>`);
      }, 300);
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end(`<html><body><div id="app"></div>
      <img src="${OTHER}/tracker.gif">
      <script>document.getElementById('app').innerHTML = '<p>' + atob('${Buffer.from(TEXT).toString('base64')}') + '</p>';</script></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
});

describe('ChromiumRenderer', () => {
  it('returns the DOM after scripts ran, and never loads another origin', async () => {
    const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 2, addressGuard: SIMULATOR });
    try {
      const html = await renderer.render(`${base}/job`);
      expect(html).toContain(TEXT);
      expect(otherHits).toBe(0);
      expect(renderer.stats()).toMatchObject({ launched: true, activePages: 0 });
    } finally {
      await renderer.close();
    }
  });

  it('a page that fills itself after load (a fetch) is waited for; one that shows its text at load is not', async () => {
    const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 2, addressGuard: SIMULATOR });
    try {
      expect(await renderer.render(`${base}/spa`)).toContain(LATE_TEXT.trim().slice(0, 40));
      // Readable at load: returned without waiting for the network to settle (its fetch still pending).
      const html = await renderer.render(`${base}/inline-then-poll`);
      expect(html).toContain(TEXT);
      expect(lateAnswered).toBe(false);
    } finally {
      await renderer.close();
    }
  });

  it('starts from the page already fetched: the document is not requested again, its own requests are', async () => {
    const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
    try {
      hits.length = 0;
      const fetched = `<html><body><div id="app"></div><script>fetch('/late-data').then((r) => r.text()).then((t) => { document.getElementById('app').innerText = t; });</script></body></html>`;
      const html = await renderer.render(`${base}/never-served`, { html: fetched });
      expect(html).toContain(LATE_TEXT.trim().slice(0, 40));
      expect(hits).toEqual(['/late-data']);
    } finally {
      await renderer.close();
    }
  });

  it('renders at most maxPages pages at once', async () => {
    const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
    try {
      peakInFlight = 0;
      await Promise.all([renderer.render(`${base}/slow`), renderer.render(`${base}/slow`), renderer.render(`${base}/slow`)]);
      expect(peakInFlight).toBe(1);
      expect(renderer.stats().peakPages).toBe(1);
    } finally {
      await renderer.close();
    }
  });

  it('relaunches a browser that was killed: the next render works', async () => {
    const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
    try {
      const before = chromiumChildren();
      expect(await renderer.render(`${base}/job`)).toContain(TEXT);
      const launched = chromiumChildren().filter((pid) => !before.includes(pid));
      expect(launched).toHaveLength(1);
      // The browser process dies under the worker (OOM killer, a crash).
      process.kill(launched[0], 'SIGKILL');
      for (let i = 0; i < 100 && chromiumChildren().includes(launched[0]); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await renderer.render(`${base}/job`)).toContain(TEXT);
    } finally {
      await renderer.close();
    }
  });

  describe('pooled pages', () => {
    it('one page serves render after render, and a posting leaves nothing behind: no cookie, storage or running script', async () => {
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
      try {
        ticks = 0;
        expect(await renderer.render(`${base}/leave-traces`)).toContain(TEXT);
        expect(renderer.stats()).toMatchObject({ pooledPages: 1, pagesOpened: 1 });
        // Its interval stopped with the render: no call home after it returned.
        const after = ticks;
        await new Promise((r) => setTimeout(r, 300));
        expect(ticks).toBe(after);

        const page = await renderer.renderPage(`${base}/read-traces`);
        const traces = /<div id="traces">([^<]*)<\/div>/.exec(page.html)?.[1];
        expect(JSON.parse(traces ?? 'null')).toEqual({ cookie: '', local: null, session: null, dbs: [] });
        expect(renderer.stats()).toMatchObject({ pooledPages: 1, pagesOpened: 1, activePages: 0 });
      } finally {
        await renderer.close();
      }
    });

    it('a render that failed closes its page, and so does a page left unused: the next render opens a fresh one', async () => {
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR, pageIdleMs: 300 });
      try {
        expect(await renderer.render(`${base}/job`)).toContain(TEXT);
        // localhost is not a listed host: the navigation is refused and the render fails.
        await expect(renderer.render(`${base.replace('127.0.0.1', 'localhost')}/job`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
        expect(renderer.stats()).toMatchObject({ pooledPages: 0, pagesOpened: 1 });
        expect(await renderer.render(`${base}/job`)).toContain(TEXT);
        expect(renderer.stats()).toMatchObject({ pooledPages: 1, pagesOpened: 2 });
        await new Promise((r) => setTimeout(r, 600));
        expect(renderer.stats().pooledPages).toBe(0);
        expect(await renderer.render(`${base}/job`)).toContain(TEXT);
        expect(renderer.stats().pagesOpened).toBe(3);
      } finally {
        await renderer.close();
      }
    });
  });

  describe('admitResource (a posting check bounding what the page loads)', () => {
    it('asks before every request the page makes, hop by hop: a refused one is never sent, a redirect off the origin is not followed', async () => {
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
      try {
        hits.length = 0;
        otherHits = 0;
        const asked: string[] = [];
        const settled: Array<{ status?: number; bytes: number }> = [];
        let admitted = 0;
        const { html, finalUrl } = await renderer.renderPage(`${base}/gallery`, {
          // The document itself comes from the check's own fetch, so it is not asked for.
          html: galleryHtml(),
          admitResource: async (url) => {
            asked.push(new URL(url).pathname);
            // A check's budget: 64 resources, whatever the page wants.
            if (admitted >= 64) return null;
            admitted += 1;
            return (outcome) => {
              settled.push(outcome);
              return true;
            };
          },
        });
        expect(html).toContain(TEXT);
        expect(finalUrl).toBe(`${base}/gallery`);
        const served = hits.filter((hit) => hit !== '/gallery');
        expect(served).toHaveLength(64);
        expect(hits).not.toContain('/gallery');
        expect(otherHits).toBe(0);
        expect(asked.length).toBeGreaterThan(64);
        expect(settled).toHaveLength(64);
        expect(settled.filter((s) => s.status === 200).every((s) => s.bytes === PIXEL.byteLength)).toBe(true);
      } finally {
        await renderer.close();
      }
    });

    it('follows a redirect hop by hop, each admitted, and reports where the document landed', async () => {
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
      try {
        hits.length = 0;
        otherHits = 0;
        const asked: Array<[string, boolean]> = [];
        const { html, finalUrl } = await renderer.renderPage(`${base}/moved`, {
          admitResource: async (url, { navigation }) => {
            asked.push([new URL(url).pathname, navigation]);
            return () => true;
          },
        });
        expect(html).toContain(TEXT);
        expect(finalUrl).toBe(`${base}/job`);
        expect(asked).toEqual([
          ['/moved', true],
          ['/job', true],
        ]);
        // The tracker on the other origin is never asked for, let alone requested.
        expect(otherHits).toBe(0);

        // A script sending the pre-fetched page elsewhere (a careers index, say): that is where it landed.
        const moved = await renderer.renderPage(`${base}/script-moved`, {
          html: `<html><body><script>location.replace('/job')</script></body></html>`,
          admitResource: async () => () => true,
        });
        expect(moved.finalUrl).toBe(`${base}/job`);
      } finally {
        await renderer.close();
      }
    });
  });

  describe('the address rule (#15: allowed_private_hosts)', () => {
    it('refuses a page on a loopback host nobody listed: the navigation is aborted and the server sees nothing', async () => {
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1 });
      try {
        hits.length = 0;
        await expect(renderer.render(`${base}/job`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
        expect(hits).toEqual([]);
      } finally {
        await renderer.close();
      }
    });

    it('a page already fetched whose own sub-resources resolve to a refused address loads none of them (with and without admitResource)', async () => {
      // Only 127.0.0.1 is listed; the page's origin is localhost, which resolves to loopback too.
      const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, maxPages: 1, addressGuard: SIMULATOR });
      const page = `${base.replace('127.0.0.1', 'localhost')}/prefetched`;
      const html = `<html><body><p>${TEXT}</p><img src="/img/1.png"><script>fetch('/late-data')</script></body></html>`;
      try {
        hits.length = 0;
        expect(await renderer.render(page, { html })).toContain(TEXT);
        const admitted: string[] = [];
        const result = await renderer.renderPage(page, { html, admitResource: async (url) => (admitted.push(url), () => true) });
        expect(result.html).toContain(TEXT);
        expect(admitted).toEqual([]);
        expect(hits).toEqual([]);
      } finally {
        await renderer.close();
      }
    });
  });

  it('says how to install Chromium when the executable is missing', async () => {
    const renderer = new ChromiumRenderer({ executablePath: '/nonexistent/chromium', maxPages: 1 });
    await expect(renderer.render(`${base}/job`)).rejects.toThrow(/apt-get install chromium/);
    await renderer.close();
  });
});
