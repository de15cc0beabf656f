// POST /v1/jobs/:jobKey/prepare and the job detail's actions.prepare (#13) on the real API app; the
// re-prepare itself runs on a worker in apps/worker/src/reprepare.int.spec.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig, type ResolvedConfig } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { createApi } from './bootstrap';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

describe('re-prepare on the API', () => {
  let dir: string;
  let app: INestApplication | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-prepare-'));
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(address: string): Promise<ResolvedConfig> {
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0 }));
    const config = loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: address } });
    app = await createApi(config, { logger: false });
    await app.init();
    await seedEnrichedJob(new JobRepository(new UnitOfWorkFactory({ databasePath: config.databasePath, entities: [] })), { jobKey: 'j1', title: 'Engineer', company: 'Acme', description: 'Build things.' });
    return config;
  }
  const http = () => request(app?.getHttpServer());

  it('the detail allows it for an enriched job nobody prepares; the action needs a ready worker (503) like every worker-backed action', async () => {
    await start(temporalAddress as string);
    expect((await http().get('/v1/jobs/j1').expect(200)).body.actions).toEqual({ prepare: true, prepareRefusal: null });
    expect((await http().post('/v1/jobs/j1/prepare').expect(503)).body.code).toBe('worker_not_ready');
  });

  it('with Temporal unreachable the detail still answers, with the action off and no reason claimed', async () => {
    await start('127.0.0.1:1');
    expect((await http().get('/v1/jobs/j1').expect(200)).body.actions).toEqual({ prepare: false, prepareRefusal: null });
  });
});
