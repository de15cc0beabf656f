import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';

/**
 * The built web UI (apps/web → dist/apps/web by `npx nx build web`), found from this file's place so
 * the sources (ts-node) and the compiled tree (dist/apps/api/…) both find the repo's one build.
 */
export function defaultWebDir(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'nx.json'))) return path.join(dir, 'dist', 'apps', 'web');
    if (path.dirname(dir) === dir) return path.resolve('dist', 'apps', 'web');
  }
}

const isApiPath = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>jobctrl: the web UI is not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>The web UI is not built</h1>
<p>Build it once with <code>npx nx build web</code> (or <code>npm run build</code>), then reload this page.
<code>npm start</code> builds it for you when its sources changed.</p>
<p>The API itself is up: <a href="/v1/health">/v1/health</a>, <a href="/v1/docs">/v1/docs</a>.</p>
</body></html>`;

/**
 * Serves the UI at / beside the /v1 routes: files of the build as they are (hashed assets cached for
 * good), and index.html for any other GET outside /v1 so the UI's own routes (/jobs/abc) survive a
 * reload. /v1 is never touched: an unknown API route still answers the API's JSON 404. The build is
 * looked up per request, so building the UI while the API runs needs no restart.
 */
export function serveWebUi(app: INestApplication, webDir: string): void {
  const index = path.join(webDir, 'index.html');
  (app as NestExpressApplication).useStaticAssets(webDir, {
    index: false,
    fallthrough: true,
    setHeaders: (res, file) => res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = req.url ?? '/';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(url)) return next();
    // A missing file (an old asset name, a typo) is a 404, not the app's HTML served as script.
    if (/\.[a-z0-9]+$/i.test(url.split('?')[0])) return next();
    fs.readFile(index, (err, html) => {
      const built = !err;
      res.statusCode = built ? 200 : 404;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.end(req.method === 'HEAD' ? undefined : built ? html : NOT_BUILT);
    });
  });
}
