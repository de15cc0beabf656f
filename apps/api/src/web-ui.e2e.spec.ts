import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';
import { defaultWebDir } from './http/web-ui';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

describe('the web UI at / (a build in dist/apps/web)', () => {
  let dir: string;
  let webDir: string;
  let app: INestApplication;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-web-ui-'));
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0 }));
    // Not built yet: the first test sees the page that says how to build it.
    webDir = path.join(dir, 'web');
    app = await createApi(loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: temporalAddress } }), { logger: false, webDir });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without a build, / answers a 404 page that says to run `npx nx build web`; /v1 works', async () => {
    const res = await request(app.getHttpServer()).get('/jobs').expect(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('npx nx build web');
    await request(app.getHttpServer()).get('/v1/health').expect(200);
  });

  it('once built (no restart): files as they are, index.html for the UI routes, /v1 untouched', async () => {
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
    const http = request(app.getHttpServer());

    for (const url of ['/', '/jobs', '/jobs/greenhouse%3Aacme%3A42', '/settings/general?x=1']) {
      const res = await http.get(url).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<div id="root">');
    }
    const js = await http.get('/assets/index-abc.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    // An asset that is not there is a 404, never index.html served as a script.
    await http.get('/assets/index-old.js').expect(404);
    // The API's own answers are unchanged, its 404s included (JSON, not the UI).
    const health = await http.get('/v1/health').expect(200);
    expect(health.headers['content-type']).toMatch(/application\/json/);
    const missing = await http.get('/v1/no-such-route').expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404 });
    await http.get('/v1').expect(404);
    // Only reads fall back to the UI.
    await http.post('/jobs').send({}).expect(404);
  });

  it('the default build folder is the repo’s dist/apps/web, from the sources and from the compiled tree', () => {
    const repo = path.resolve(__dirname, '..', '..', '..');
    expect(defaultWebDir()).toBe(path.join(repo, 'dist', 'apps', 'web'));
    expect(defaultWebDir(path.join(repo, 'dist', 'apps', 'api', 'apps', 'api', 'src', 'http'))).toBe(path.join(repo, 'dist', 'apps', 'web'));
  });
});
