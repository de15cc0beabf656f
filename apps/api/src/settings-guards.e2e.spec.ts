import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}
const temporalPort = Number(temporalAddress.split(':').pop());

const TOKEN = 'tok-settings-guards-5d1c9a7e3b';

/**
 * An API as `npm start` runs it: the embedded Temporal server (no TEMPORAL_ADDRESS in its
 * environment; the test run's dev server stands in on temporal_dev_server_port).
 */
async function api(dir: string, settings: Record<string, unknown>, env: Record<string, string> = {}): Promise<INestApplication> {
  const configPath = path.join(dir, 'config.json');
  fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0, temporal_dev_server_port: temporalPort, ...settings }));
  const app = await createApi(loadConfig({ path: configPath, env }), { logger: false, webDir: path.join(dir, 'no-web') });
  await app.init();
  return app;
}

/** A local listener that records the Authorization headers it receives (the attack's catcher). */
async function catcher(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.headers.authorization) seen.push(req.headers.authorization);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('Settings API: settings that cannot switch off their own guards (#39)', () => {
  describe('without an API token (any local user can call the API)', () => {
    let dir: string;
    let app: INestApplication;
    const client = () => request(app.getHttpServer());
    const configFile = () => fs.readFileSync(path.join(dir, 'config.json'), 'utf8');

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-guards-'));
      app = await api(dir, { temporal_address: null });
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('refuses file_source_dirs ["/"] with 403 naming the key and why; config.json is untouched', async () => {
      const before = configFile();
      const res = await client().patch('/v1/settings').send({ file_source_dirs: ['/'] }).expect(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden', errors: [{ field: 'file_source_dirs', value: ['/'], rule: expect.stringContaining('api_token_env') }] });
      expect(res.body.message).toContain('file_source_dirs');
      expect(configFile()).toBe(before);
    });

    it('refuses pointing the model client at a listener with another secret variable as its key: nothing written, nothing sent', async () => {
      const listener = await catcher();
      try {
        const before = configFile();
        const res = await client()
          .patch('/v1/settings')
          .send({ llm: { provider: 'openai', model: 'm', base_url: listener.url, api_key_env: 'TEMPORAL_API_KEY' } })
          .expect(403);
        expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['llm.api_key_env', 'llm.base_url']);
        expect(configFile()).toBe(before);
        expect(listener.seen).toEqual([]);
      } finally {
        await listener.close();
      }
    });

    it('refuses every other key that widens reach: allowed_private_hosts, *_env names, the Temporal connection, api_host, the browser', async () => {
      const attempts: Array<[Record<string, unknown>, string]> = [
        [{ allowed_private_hosts: ['169.254.169.254'] }, 'allowed_private_hosts'],
        [{ api_token_env: 'HOME' }, 'api_token_env'],
        [{ temporal_address: '127.0.0.1:1' }, 'temporal_address'],
        [{ temporal_tls: true }, 'temporal_tls'],
        [{ api_host: '0.0.0.0', api_token_env: 'JOBCTRL_OTHER_TOKEN' }, 'api_host'],
        [{ browser_executable_path: '/bin/sh' }, 'browser_executable_path'],
      ];
      for (const [patch, key] of attempts) {
        const res = await client().patch('/v1/settings').send(patch).expect(403);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(key);
      }
    });

    it('still saves ordinary keys, and file-only keys sent unchanged (a tab posting its whole form)', async () => {
      const doc = (await client().get('/v1/settings').expect(200)).body;
      const res = await client()
        .patch('/v1/settings')
        .send({ tailor_score_threshold: 71, allowed_private_hosts: doc.allowed_private_hosts, llm: { base_url: doc.llm.base_url, api_key_env: doc.llm.api_key_env } })
        .expect(200);
      expect(res.body.changed_keys).toEqual(['tailor_score_threshold']);
    });

    it('GET /v1/settings/guards lists the file-only keys with why, read-only here', async () => {
      const res = await client().get('/v1/settings/guards').expect(200);
      expect(res.body.file_only_writable).toBe(false);
      expect(res.body.reason).toContain('config.json');
      const keys = res.body.file_only.map((s: { key: string }) => s.key);
      expect(keys).toEqual(expect.arrayContaining(['file_source_dirs', 'allowed_private_hosts', 'llm.base_url', 'llm.api_key_env', 'temporal_api_key_env', 'temporal_address', 'api_host', 'api_token_env']));
      for (const s of res.body.file_only) expect(s.why).toEqual(expect.any(String));
    });
  });

  describe('with an API token (the caller proved to be the owner)', () => {
    let dir: string;
    let app: INestApplication;
    const client = () => request(app.getHttpServer());
    const auth = { authorization: `Bearer ${TOKEN}` };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-guards-owner-'));
      app = await api(dir, { api_token_env: 'JOBCTRL_TEST_GUARDS_TOKEN' }, { JOBCTRL_TEST_GUARDS_TOKEN: TOKEN });
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('changes file-only keys and says so in GET /v1/settings/guards', async () => {
      expect((await client().get('/v1/settings/guards').set(auth).expect(200)).body).toMatchObject({ file_only_writable: true, reason: null });
      const res = await client().patch('/v1/settings').set(auth).send({ file_source_dirs: ['imports', 'exports'] }).expect(200);
      expect(res.body.changed_keys).toEqual(['file_source_dirs']);
      expect(res.body.restart_required).toEqual(['file_source_dirs']);
    });

    it('never lets a *_env setting name a variable another one names: the model server would get the API token', async () => {
      const res = await client().patch('/v1/settings').set(auth).send({ llm: { provider: 'openai', model: 'm', api_key_env: 'JOBCTRL_TEST_GUARDS_TOKEN' } }).expect(400);
      expect(res.body.errors).toEqual([{ field: 'llm.api_key_env', value: 'JOBCTRL_TEST_GUARDS_TOKEN', rule: expect.stringContaining('api_token_env') }]);
    });

    it('refuses at PATCH time temporal_api_key_env for the embedded server (the next start would exit 78)', async () => {
      const res = await client().patch('/v1/settings').set(auth).send({ temporal_api_key_env: 'TEMPORAL_API_KEY' }).expect(400);
      expect(res.body.errors).toEqual([{ field: 'temporal_api_key_env', value: 'TEMPORAL_API_KEY', rule: expect.stringContaining('temporal_address') }]);
      const ok = await client().patch('/v1/settings').set(auth).send({ temporal_address: 'temporal.example:7233', temporal_api_key_env: 'TEMPORAL_API_KEY' }).expect(200);
      expect(ok.body.changed_keys).toEqual(['temporal_address', 'temporal_api_key_env']);
    });
  });
});
