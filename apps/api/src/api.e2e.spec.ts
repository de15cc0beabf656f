import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import request from 'supertest';
import { loadConfig, ResolvedConfig } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRunRepository, JobRepository, PreparationRepository } from '@jobctrl/shared/jobs';
import { seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { ApplicationRepository } from '@jobctrl/apply-launcher/application';
import { PostingCheckRepository } from '@jobctrl/posting-checks';
import type { ApplyInput, JobPipelineInput } from '@jobctrl/pipeline/contracts';
import { HEARTBEAT_SCHEMA_VERSION, OPERATIONS_ENTITIES, WorkerHeartbeat, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { spendDay, SpendLedgerRepository, type LlmUsage } from '@jobctrl/shared/llm';
import { LiveEventsService } from '@jobctrl/runs';
import { createApi } from './bootstrap';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

interface Ctx {
  dir: string;
  configPath: string;
  config: ResolvedConfig;
  app: INestApplication;
  heartbeats: WorkerHeartbeatRepository;
}

async function startApi(doc: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = { TEMPORAL_ADDRESS: temporalAddress }): Promise<Ctx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-api-'));
  const configPath = path.join(dir, 'config.json');
  // Sources in these tests point at loopback ports, which only a listed host may (#15).
  fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0, allowed_private_hosts: ['127.0.0.1'], ...doc }, null, 2));
  const config = loadConfig({ path: configPath, env });
  const app = await createApi(config, { logger: false });
  await app.init();
  const heartbeats = new WorkerHeartbeatRepository(new UnitOfWorkFactory({ databasePath: config.databasePath, entities: OPERATIONS_ENTITIES }));
  return { dir, configPath, config, app, heartbeats };
}

function heartbeat(config: ResolvedConfig, overrides: Partial<WorkerHeartbeat> = {}): WorkerHeartbeat {
  const now = Date.now();
  return {
    workerId: `test:${process.pid}:${Math.random().toString(16).slice(2, 10)}`,
    taskQueue: 'jobctrl-default',
    databasePath: config.databasePath,
    appDir: config.appDir,
    host: os.hostname(),
    pid: process.pid,
    activitySlots: 4,
    localControlSlots: 2,
    executorWidth: 6,
    schemaVersion: HEARTBEAT_SCHEMA_VERSION,
    startedAt: now,
    recordedAt: now,
    payload: {
      namespace: 'default',
      temporalAddress: temporalAddress as string,
      uvThreadpoolSize: 16,
      activity: {
        remoteActive: 0,
        localActive: 0,
        peakRemoteActive: 0,
        peakLocalActive: 0,
        remoteStarted: 0,
        localStarted: 0,
        remoteCompleted: 0,
        localCompleted: 0,
        detailTotal: 0,
        detail: [],
        throughput: { windowSeconds: 60, remoteCompleted: 0 },
      },
      executors: {
        temporalSync: { name: 'temporal-sync', width: 6, generation: 1, running: 0, queued: 0, retiredRunning: 0, retiredGenerations: 0 },
        blockingStage: { name: 'blocking-stage', width: 6, generation: 1, running: 0, queued: 0, retiredRunning: 0, retiredGenerations: 0 },
      },
      heartbeatWrites: { ok: 1, failed: 0, skipped: 0, lastError: null },
    },
    ...overrides,
  };
}

describe('API v1', () => {
  let ctx: Ctx;
  beforeEach(async () => {
    ctx = await startApi();
  });
  afterEach(async () => {
    await ctx.app.close();
    fs.rmSync(ctx.dir, { recursive: true, force: true });
  });
  const http = () => request(ctx.app.getHttpServer());

  describe('GET /v1/health', () => {
    it('reports the API up, Temporal reachable and the worker missing without a heartbeat', async () => {
      const res = await http().get('/v1/health').expect(200);
      expect(res.body.api.status).toBe('up');
      expect(res.body.temporal).toMatchObject({ status: 'reachable', address: temporalAddress });
      expect(res.body.worker).toMatchObject({ status: 'missing', freshWorkers: 0 });
      expect(res.body.status).toBe('degraded');
    });

    it('is ready only with a fresh, schema-valid heartbeat for this database', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const res = await http().get('/v1/health').expect(200);
      expect(res.body.worker).toMatchObject({ status: 'ready', freshWorkers: 1 });
      expect(res.body.worker.newest.activitySlots).toBe(4);
      expect(res.body.status).toBe('ok');
    });

    it('calls an old heartbeat stale', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { recordedAt: Date.now() - 10 * 60_000 }));
      const res = await http().get('/v1/health').expect(200);
      expect(res.body.worker.status).toBe('stale');
      expect(res.body.worker.reason).toMatch(/old/);
    });

    it('ignores heartbeats of another database or app dir, and schema-invalid rows', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { appDir: '/elsewhere' }));
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { schemaVersion: 99 }));
      const res = await http().get('/v1/health').expect(200);
      expect(res.body.worker.status).toBe('missing');
    });

    it('reports Temporal unreachable (not an error) when nothing listens at its address', async () => {
      await ctx.app.close();
      ctx = await startApi({}, { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      const res = await http().get('/v1/health').expect(200);
      expect(res.body.temporal.status).toBe('unreachable');
      expect(res.body.temporal.error).toEqual(expect.any(String));
    });
  });

  describe('GET /v1/pipeline/operations', () => {
    it('aggregates fresh workers of this database and queue; stale and foreign rows are excluded', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { workerId: 'w1', activitySlots: 4 }));
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { workerId: 'w2', activitySlots: 2 }));
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { workerId: 'old', activitySlots: 8, recordedAt: Date.now() - 10 * 60_000 }));
      await ctx.heartbeats.upsert(heartbeat(ctx.config, { workerId: 'foreign', appDir: '/elsewhere', activitySlots: 16 }));
      const res = await http().get('/v1/pipeline/operations').expect(200);
      expect(res.body.capacity).toMatchObject({ status: 'fresh', taskQueue: 'jobctrl-default', configuredSlots: 6, activeSlots: 0, availableSlots: 6 });
      expect(res.body.capacity.workers.map((w: { workerId: string }) => w.workerId).sort()).toEqual(['w1', 'w2']);
      expect(res.body.activeItems).toEqual([]);
      expect(res.body.taskQueueStats.activity.status).toBe('ok');
      expect(res.body.taskQueueStats.activity.backlogCount).toEqual(expect.any(Number));
    });

    it('reads task-queue stats as unavailable (not 0) and refuses the ETA when Temporal is down', async () => {
      await ctx.app.close();
      ctx = await startApi({}, { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const res = await http().get('/v1/pipeline/operations').expect(200);
      for (const kind of ['workflow', 'activity']) {
        expect(res.body.taskQueueStats[kind]).toMatchObject({ status: 'unavailable', pollers: null, backlogCount: null });
        expect(res.body.taskQueueStats[kind].reason).toEqual(expect.any(String));
      }
      expect(res.body.eta).toMatchObject({ status: 'refused', reason: expect.stringMatching(/statistics are unavailable/) });
    });

    it('estimates an ETA from pending jobs and fresh telemetry, and refuses it once the telemetry is stale', async () => {
      // A queue of its own: no poller of another test can count as unbounded contention.
      const taskQueue = `eta-${randomUUID()}`;
      await ctx.app.close();
      ctx = await startApi({ temporal_task_queue: taskQueue });
      const jobs = new JobRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      const url = (n: number) => `https://x.test/jobs/${n}`;
      await jobs.recordObservations('r1', 'greenhouse', [1, 2, 3].map((n) => ({ jobKey: `j_${n}`, idempotencyKey: `v1-j_${n}`, contentKey: null, canonicalUrl: url(n), sourceId: 'src-1',
        sourceKind: 'greenhouse', externalId: String(n), title: 'Engineer', company: 'Acme', location: null, remote: null, url: url(n), applyUrl: null, descriptionHtml: null,
        descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [] })));
      const busy = (recordedAt: number) => {
        const hb = heartbeat(ctx.config, { workerId: 'w1', taskQueue, recordedAt });
        hb.payload.activity.throughput = { windowSeconds: 600, remoteCompleted: 120 }; // 12 activities a minute
        return hb;
      };

      await ctx.heartbeats.upsert(busy(Date.now()));
      const fresh = (await http().get('/v1/pipeline/operations').expect(200)).body;
      expect(fresh.remainingWork).toEqual({ total: 3, byStage: { discovery: 0, preparation: 3 } });
      expect(fresh.eta).toEqual({ status: 'estimated', remainingWork: 3, throughputPerMinute: 12, etaSeconds: 15 });

      await ctx.heartbeats.upsert(busy(Date.now() - 10 * 60_000));
      const stale = (await http().get('/v1/pipeline/operations').expect(200)).body;
      expect(stale.eta).toEqual({ status: 'refused', reason: expect.stringMatching(/telemetry is stale/), remainingWork: 3 });
    });
  });

  describe('GET/PATCH /v1/settings', () => {
    it('returns the config document in snake_case with defaults', async () => {
      const res = await http().get('/v1/settings').expect(200);
      expect(res.body).toMatchObject({ worker_activity_slots: 4, temporal_task_queue: 'jobctrl-default', app_dir: 'data', llm: { provider: 'extractive' } });
    });

    it('rejects worker_activity_slots 0 with a 400 naming the key, leaving config.json unchanged', async () => {
      const before = fs.readFileSync(ctx.configPath);
      const res = await http().patch('/v1/settings').send({ worker_activity_slots: 0 }).expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'worker_activity_slots', value: 0 })]);
      expect(res.body.message).toContain('worker_activity_slots');
      expect(fs.readFileSync(ctx.configPath).equals(before)).toBe(true);
    });

    it('rejects unknown keys by name', async () => {
      const res = await http().patch('/v1/settings').send({ worker_slots: 3 }).expect(400);
      expect(res.body.errors[0].field).toBe('worker_slots');
    });

    it('writes a valid change atomically and says which keys need a worker restart', async () => {
      const res = await http().patch('/v1/settings').send({ worker_activity_slots: 3, daily_spend_ceiling_usd: 2.5 }).expect(200);
      expect(res.body.worker_activity_slots).toBe(3);
      expect(res.body.changed_keys.sort()).toEqual(['daily_spend_ceiling_usd', 'worker_activity_slots']);
      expect(res.body.restart_required).toEqual(['worker_activity_slots']);
      const onDisk = JSON.parse(fs.readFileSync(ctx.configPath, 'utf8'));
      expect(onDisk.worker_activity_slots).toBe(3);
      expect(fs.readdirSync(ctx.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const again = await http().get('/v1/settings').expect(200);
      expect(again.body.worker_activity_slots).toBe(3);
    });

    it('a run started after a PATCH or a hand edit of pipeline_internal_concurrency snapshots the new value, with no restart', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        const client = new Client({ connection });
        const snapshotOfNewRun = async () => {
          const { workflowId } = (await http().post('/v1/pipeline/runs').send({ stages: ['score'] }).expect(202)).body;
          const history = await client.workflow.getHandle(workflowId).fetchHistory();
          const started = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
          return defaultPayloadConverter.fromPayload<JobPipelineInput>(started ?? {}).internalConcurrency;
        };
        expect(await snapshotOfNewRun()).toBe(2);
        const res = await http().patch('/v1/settings').send({ pipeline_internal_concurrency: 5 }).expect(200);
        expect(res.body.restart_required).toEqual([]);
        expect(await snapshotOfNewRun()).toBe(5);
        const doc = JSON.parse(fs.readFileSync(ctx.configPath, 'utf8'));
        fs.writeFileSync(ctx.configPath, JSON.stringify({ ...doc, pipeline_internal_concurrency: 3 }));
        expect(await snapshotOfNewRun()).toBe(3);
        expect((await http().get('/v1/settings').expect(200)).body.pipeline_internal_concurrency).toBe(3);
      } finally {
        await connection.close();
      }
    });
  });

  describe('GET/PATCH /v1/discovery/runtime', () => {
    it('defaults max_parallel_families to 1 and persists a change in SQLite', async () => {
      expect((await http().get('/v1/discovery/runtime').expect(200)).body.max_parallel_families).toBe(1);
      const res = await http().patch('/v1/discovery/runtime').send({ max_parallel_families: 2 }).expect(200);
      expect(res.body.max_parallel_families).toBe(2);
      // A fresh API on the same database sees the stored value.
      await ctx.app.close();
      const config = loadConfig({ path: ctx.configPath, env: { TEMPORAL_ADDRESS: temporalAddress } });
      ctx.app = await createApi(config, { logger: false });
      await ctx.app.init();
      expect((await http().get('/v1/discovery/runtime').expect(200)).body.max_parallel_families).toBe(2);
    });

    it.each([[0], [17], ['2'], [1.5], [null]])('rejects max_parallel_families = %p with a field error', async (value) => {
      const res = await http().patch('/v1/discovery/runtime').send({ max_parallel_families: value }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('max_parallel_families');
      expect((await http().get('/v1/discovery/runtime')).body.max_parallel_families).toBe(1);
    });

    it('rejects unknown fields', async () => {
      const res = await http().patch('/v1/discovery/runtime').send({ max_parallel_families: 2, turbo: true }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('turbo');
    });
  });

  describe('/v1/sources', () => {
    const greenhouse = { kind: 'greenhouse', name: 'Acme on Greenhouse', config: { board_token: 'acme', base_url: 'http://127.0.0.1:9' } };

    it('creates, lists, reads, updates and deletes a source', async () => {
      const created = await http().post('/v1/sources').send(greenhouse).expect(201);
      expect(created.body).toMatchObject({ kind: 'greenhouse', name: 'Acme on Greenhouse', family: 'greenhouse', enabled: true, config: { board_token: 'acme', base_url: 'http://127.0.0.1:9' } });
      const id = created.body.id as string;
      expect((await http().get('/v1/sources').expect(200)).body.map((s: { id: string }) => s.id)).toEqual([id]);
      const patched = await http().patch(`/v1/sources/${id}`).send({ enabled: false, family: 'ats', config: { board_token: 'acme2' } }).expect(200);
      expect(patched.body).toMatchObject({ enabled: false, family: 'ats', config: { board_token: 'acme2' } });
      expect((await http().get(`/v1/sources/${id}`).expect(200)).body.enabled).toBe(false);
      await http().delete(`/v1/sources/${id}`).expect(204);
      await http().get(`/v1/sources/${id}`).expect(404);
      await http().delete(`/v1/sources/${id}`).expect(404);
    });

    it('validates the config with the adapter of its kind and names the field', async () => {
      const res = await http().post('/v1/sources').send({ kind: 'greenhouse', name: 'x', config: { board_tokn: 'acme' } }).expect(400);
      const fields = res.body.errors.map((e: { field: string }) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['config.board_tokn', 'config.board_token']));
      expect((await http().get('/v1/sources')).body).toEqual([]);
    });

    it('rejects an unknown kind, a duplicate name and a change of kind', async () => {
      expect((await http().post('/v1/sources').send({ ...greenhouse, kind: 'monster' }).expect(400)).body.errors[0].field).toBe('kind');
      const { body } = await http().post('/v1/sources').send(greenhouse).expect(201);
      expect((await http().post('/v1/sources').send(greenhouse).expect(409)).body.errors[0].field).toBe('name');
      expect((await http().patch(`/v1/sources/${body.id}`).send({ kind: 'lever' }).expect(400)).body.errors[0].field).toBe('kind');
      await http().patch(`/v1/sources/${body.id}`).send({ kind: 'greenhouse', name: 'renamed' }).expect(200);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      await http().get('/v1/sources/00000000-0000-4000-8000-000000000000').expect(404);
      await http().get('/v1/sources/not-a-uuid').expect(400);
    });
  });

  describe('runs and jobs', () => {
    it('starting a run needs a ready worker, then a valid body', async () => {
      expect((await http().post('/v1/pipeline/runs').send({ stages: ['discover'] }).expect(503)).body.code).toBe('worker_not_ready');
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const bad = await http().post('/v1/pipeline/runs').send({ stages: ['discover', 'dance'], sourceIds: ['nope'] }).expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['sourceIds', 'stages']);
      expect((await http().post('/v1/pipeline/runs').send({}).expect(400)).body.errors[0].field).toBe('stages');
    });

    it('refuses unknown (or deleted) source ids with a 400 naming each, and disabled ones with a 409; nothing is started', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const unknownA = '00000000-0000-4000-8000-00000000000a';
      const unknownB = '00000000-0000-4000-8000-00000000000b';
      const src = (await http().post('/v1/sources').send({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme' } }).expect(201)).body;
      const res = await http().post('/v1/pipeline/runs').send({ stages: ['discover'], sourceIds: [src.id, unknownA, unknownB] }).expect(400);
      expect(res.body.errors).toEqual([
        { field: 'sourceIds', value: unknownA, rule: expect.stringContaining('existing source') },
        { field: 'sourceIds', value: unknownB, rule: expect.stringContaining('existing source') },
      ]);
      const gone = (await http().post('/v1/sources').send({ kind: 'lever', name: 'gone', config: { site: 'gone' } }).expect(201)).body;
      await http().delete(`/v1/sources/${gone.id}`).expect(204);
      expect((await http().post('/v1/pipeline/runs').send({ stages: ['discover', 'score'], sourceIds: [gone.id] }).expect(400)).body.errors[0]).toMatchObject({ field: 'sourceIds', value: gone.id });
      await http().patch(`/v1/sources/${src.id}`).send({ enabled: false }).expect(200);
      const off = await http().post('/v1/pipeline/runs').send({ stages: ['discover'], sourceIds: [src.id] }).expect(409);
      expect(off.body.message).toMatch(/disabled/);
      expect(off.body.errors[0]).toMatchObject({ field: 'sourceIds', value: src.id });
    });

    it('answers 404 for unknown runs and jobs, and lists no jobs on a fresh database', async () => {
      await http().get('/v1/pipeline/runs/00000000-0000-4000-8000-000000000000').expect(404);
      await http().get('/v1/jobs/j_unknown').expect(404);
      expect((await http().get('/v1/jobs').expect(200)).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
      expect((await http().get('/v1/jobs?limit=0').expect(400)).body.errors[0].field).toBe('limit');
      expect((await http().get('/v1/jobs?stage=done').expect(400)).body.errors[0].field).toBe('stage');
      expect((await http().get('/v1/jobs?limit=5&offset=10').expect(200)).body).toMatchObject({ limit: 5, offset: 10 });
    });
  });

  describe('GET /v1/pipeline/runs', () => {
    it('pages the runs newest first, each in the same view as GET /v1/pipeline/runs/:id', async () => {
      expect((await http().get('/v1/pipeline/runs').expect(200)).body).toEqual({ items: [], total: 0, limit: 20, offset: 0 });
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const first = (await http().post('/v1/pipeline/runs').send({ stages: ['score'] }).expect(202)).body.runId;
      const second = (await http().post('/v1/pipeline/runs').send({ stages: ['score', 'tailor'] }).expect(202)).body.runId;
      const all = (await http().get('/v1/pipeline/runs').expect(200)).body;
      expect(all.items.map((r: { runId: string }) => r.runId)).toEqual([second, first]);
      expect(all.total).toBe(2);
      expect(all.items[0]).toEqual((await http().get(`/v1/pipeline/runs/${second}`).expect(200)).body);
      expect((await http().get('/v1/pipeline/runs?limit=1&offset=1').expect(200)).body).toMatchObject({ items: [{ runId: first }], total: 2, limit: 1, offset: 1 });
      expect((await http().get('/v1/pipeline/runs?limit=0').expect(400)).body.errors[0].field).toBe('limit');
      expect((await http().get('/v1/pipeline/runs?offset=-1').expect(400)).body.errors[0].field).toBe('offset');
    });

    it('says why each failed family failed, beside its name (#15: a bare "failed" is no reason)', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const runId = (await http().post('/v1/pipeline/runs').send({ stages: ['score'] }).expect(202)).body.runId;
      // The discovery record a run's families write (the worker's part), with one family failed and one done.
      const runs = new DiscoveryRunRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      await runs.create(runId, {}, 2);
      await runs.recordFamily(runId, 'lever', 'failed', 0, 'malformed JSON from http://127.0.0.1/v0/postings/globex: Unexpected token <', Date.now());
      await runs.recordFamily(runId, 'greenhouse', 'completed', 3, null, Date.now());
      const view = (await http().get(`/v1/pipeline/runs/${runId}`).expect(200)).body;
      expect(view).toMatchObject({ familiesFailed: ['lever'], familyFailures: [{ family: 'lever', error: expect.stringContaining('malformed JSON') }] });
    });
  });

  describe('GET /v1/events', () => {
    /** A plain HTTP client reading server-sent events: `next(pred)` waits for the first matching event. */
    const openStream = async (port: number) => {
      const events: Array<{ type: string; data: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
      const waiters: Array<() => void> = [];
      const req = httpGet({ host: '127.0.0.1', port, path: '/v1/events', headers: { accept: 'text/event-stream' } });
      const res = await new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: ?(.*)$/m.exec(frame)?.[1] ?? 'message';
          const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
          events.push({ type, data: JSON.parse(data) });
          waiters.splice(0).forEach((w) => w());
        }
      });
      const next = async (pred: (e: { type: string; data: any }) => boolean, what: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        const deadline = Date.now() + 20_000;
        for (;;) {
          const hit = events.find(pred);
          if (hit) return hit;
          if (Date.now() > deadline) throw new Error(`no ${what} event within 20 s; saw ${JSON.stringify(events.map((e) => e.type))}`);
          await new Promise<void>((resolve) => {
            waiters.push(resolve);
            setTimeout(resolve, 500);
          });
        }
      };
      return { res, events, next, close: () => req.destroy() };
    };
    const listen = async (): Promise<number> => {
      const server = ctx.app.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };

    it('streams ready, spend, run changes and job stage changes; subscribers share one poller, stopped with the last', async () => {
      const port = await listen();
      const live = ctx.app.get(LiveEventsService);
      const a = await openStream(port);
      expect(a.res.statusCode).toBe(200);
      expect(a.res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect((await a.next((e) => e.type === 'ready', 'ready')).data).toEqual({ pollIntervalMs: expect.any(Number) });
      expect((await a.next((e) => e.type === 'spend', 'spend')).data).toMatchObject({ spentUsd: 0, ceilingReached: false });

      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const runId = (await http().post('/v1/pipeline/runs').send({ stages: ['score'] }).expect(202)).body.runId;
      const run = await a.next((e) => e.type === 'run' && e.data.runId === runId, 'run');
      expect(run.data).toMatchObject({ runId, stages: ['score'], state: 'pending', progress: { completed: 0, total: 0 } });

      const jobs = new JobRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      await seedEnrichedJob(jobs, { jobKey: 'j_live', title: 'Engineer', company: 'Acme', description: 'Build things.' });
      const job = await a.next((e) => e.type === 'job' && e.data.jobKey === 'j_live', 'job');
      expect(job.data).toEqual({ jobKey: 'j_live', stage: (await jobs.get('j_live'))?.stage, previousStage: null });

      // A second subscriber joins the running poller and first gets what it holds.
      const b = await openStream(port);
      await b.next((e) => e.type === 'run' && e.data.runId === runId, 'replayed run');
      expect(live.subscribers).toBe(2);
      expect(live.pollerStarts).toBe(1);
      // Nothing changed: the run is not sent again to the first subscriber.
      expect(a.events.filter((e) => e.type === 'run' && e.data.runId === runId)).toHaveLength(1);

      a.close();
      b.close();
      for (const deadline = Date.now() + 10_000; live.polling && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect({ polling: live.polling, subscribers: live.subscribers }).toEqual({ polling: false, subscribers: 0 });
    });
  });

  describe('/v1/compensation/refresh', () => {
    const seedJob = async (key: string) => {
      const jobs = new JobRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      await jobs.recordObservations('run-comp', 'lever', [
        { sourceId: 'src-1', sourceKind: 'lever', externalId: key, jobKey: key, idempotencyKey: `idem-${key}`, contentKey: null, title: 'Engineer', company: 'Acme', location: 'Berlin, Germany', remote: null, url: `https://jobs.example/${key}`, canonicalUrl: null, applyUrl: null, descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: '€60k–€80k', employmentType: null, tags: [] },
      ]);
    };

    it('needs a ready worker, refuses unknown job keys by name, then queues a refresh GET reports', async () => {
      expect((await http().post('/v1/compensation/refresh').send({}).expect(503)).body.code).toBe('worker_not_ready');
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      await seedJob('j_comp1');
      const bad = await http().post('/v1/compensation/refresh').send({ jobKeys: ['j_comp1', 'j_nope'] }).expect(400);
      expect(bad.body.errors).toEqual([{ field: 'jobKeys', value: 'j_nope', rule: 'no such job' }]);
      expect((await http().post('/v1/compensation/refresh').send({ jobKeys: 'j_comp1' }).expect(400)).body.errors[0].field).toBe('jobKeys');
      expect((await http().post('/v1/compensation/refresh').send({ jobKeys: [] }).expect(400)).body.errors[0].field).toBe('jobKeys');
      expect((await http().post('/v1/compensation/refresh').send({ everything: true }).expect(400)).body.errors[0].field).toBe('everything');

      const started = await http().post('/v1/compensation/refresh').send({ jobKeys: ['j_comp1'] }).expect(202);
      expect(started.body).toEqual({ refreshId: expect.any(String), workflowId: `compensation-refresh-${started.body.refreshId}` });
      // No worker polls this test's queue: the refresh is queued, with nothing counted yet.
      const view = (await http().get(`/v1/compensation/refresh/${started.body.refreshId}`).expect(200)).body;
      expect(view).toMatchObject({ refreshId: started.body.refreshId, workflowId: started.body.workflowId, state: 'queued', admitted: 0, completed: 0, cached: 0, failed: 0 });
      // Leave nothing on the shared dev server's queue for another suite's worker to pick up.
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        await new Client({ connection }).workflow.getHandle(started.body.workflowId).terminate('test over');
      } finally {
        await connection.close();
      }
    });

    it('lists jobs with their compensation (null before a refresh) and validates the salary filter and sort', async () => {
      await seedJob('j_comp2');
      expect((await http().get('/v1/jobs/j_comp2').expect(200)).body.compensation).toBeNull();
      // No figure published yet: excluded by a salary filter unless unknown salaries are asked for.
      expect((await http().get('/v1/jobs?minSalary=50000&currency=eur').expect(200)).body).toMatchObject({ items: [], total: 0 });
      expect((await http().get('/v1/jobs?minSalary=50000&currency=EUR&includeUnknownSalary=true&sort=salary').expect(200)).body.items.map((j: { jobKey: string }) => j.jobKey)).toEqual(['j_comp2']);
      const field = async (query: string) => [...new Set((await http().get(`/v1/jobs?${query}`).expect(400)).body.errors.map((e: { field: string }) => e.field))];
      expect(await field('minSalary=lots')).toEqual(['minSalary']);
      expect(await field('minSalary=-1')).toEqual(['minSalary']);
      expect(await field('currency=dollars')).toEqual(['currency']);
      expect(await field('includeUnknownSalary=maybe')).toEqual(['includeUnknownSalary']);
      expect(await field('sort=pay')).toEqual(['sort']);
    });

    it('answers 404 for an unknown refresh and 400 for a malformed id', async () => {
      await http().get('/v1/compensation/refresh/00000000-0000-4000-8000-000000000000').expect(404);
      await http().get('/v1/compensation/refresh/nope').expect(400);
    });
  });

  describe('posting availability', () => {
    const seedJob = async (key: string) => {
      const jobs = new JobRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      await jobs.recordObservations('run-av', 'lever', [
        { sourceId: 'src-1', sourceKind: 'lever', externalId: key, jobKey: key, idempotencyKey: `idem-${key}`, contentKey: null, title: 'Engineer', company: 'Acme', location: null, remote: null, url: `https://jobs.example/${key}`, canonicalUrl: null, applyUrl: null, descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [] },
      ]);
    };
    const terminate = async (workflowIds: string[]) => {
      // Leave nothing on the shared dev server's queue for another suite's worker to pick up.
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        for (const id of workflowIds) await new Client({ connection }).workflow.getHandle(id).terminate('test over');
      } finally {
        await connection.close();
      }
    };

    it('starts a foreground check (202 {workflowId}), charges it once however often it is asked while running, and answers 429 with retryAfterSeconds once the foreground share is spent', async () => {
      const [first, second] = [`j_av_${randomUUID().slice(0, 8)}`, `j_av_${randomUUID().slice(0, 8)}`];
      expect((await http().post(`/v1/jobs/${first}/availability-check`).expect(503)).body.code).toBe('worker_not_ready');
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      await http().post('/v1/jobs/j_nope/availability-check').expect(404);
      await seedJob(first);
      await seedJob(second);
      const started = await http().post(`/v1/jobs/${first}/availability-check`).expect(202);
      expect(started.body).toEqual({ workflowId: `posting-check-${first}` });
      // No worker polls this test's queue, so the check is still running: asking again is the same check.
      expect((await http().post(`/v1/jobs/${first}/availability-check`).expect(202)).body).toEqual(started.body);
      expect((await http().get('/v1/availability').expect(200)).body.budget).toMatchObject({ usedForeground: 1, usedSweep: 0 });
      try {
        const checks = new PostingCheckRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
        for (let i = 0; i < 99; i++) expect(await checks.chargeForeground()).toMatchObject({ acquired: true });
        const spent = await http().post(`/v1/jobs/${second}/availability-check`).expect(429);
        expect(spent.body).toMatchObject({ statusCode: 429, retryAfterSeconds: expect.any(Number) });
        expect(spent.body.retryAfterSeconds).toBeGreaterThan(3000); // the oldest charge leaves the hour's window in ~60 min
        expect(spent.body.retryAfterSeconds).toBeLessThanOrEqual(3600);
      } finally {
        await terminate([started.body.workflowId]);
      }
    });

    it('GET /v1/availability reports the sweeps and the hour\'s budget; the sweep switch is a live setting', async () => {
      expect((await http().get('/v1/availability').expect(200)).body).toEqual({
        sweeps: { enabled: true, lastSweepAt: null, nextSweepAt: null },
        budget: { hourLimit: 100, sweepShare: 80, foregroundShare: 20, usedSweep: 0, usedForeground: 0, windowResetsAt: null },
      });
      await http().patch('/v1/settings').send({ availability_sweeps_enabled: false }).expect(200);
      expect((await http().get('/v1/availability').expect(200)).body.sweeps.enabled).toBe(false);
      const bad = await http().patch('/v1/settings').send({ availability_recheck_hours: 0 }).expect(400);
      expect(bad.body.errors[0]).toMatchObject({ field: 'availability_recheck_hours', value: 0 });
    });

    it('lists jobs with their availability (null before any check) and filters on it', async () => {
      await seedJob('j_av_list');
      expect((await http().get('/v1/jobs/j_av_list').expect(200)).body.availability).toBeNull();
      expect((await http().get('/v1/jobs?availability=unchecked').expect(200)).body.items.map((j: { jobKey: string }) => j.jobKey)).toEqual(['j_av_list']);
      expect((await http().get('/v1/jobs?availability=open').expect(200)).body).toMatchObject({ items: [], total: 0 });
      const bad = await http().get('/v1/jobs?availability=maybe').expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['availability']);
    });
  });

  describe('approval, answers and apply', () => {
    const uow = () => new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] });
    const resume = { basics: { name: 'Ada Lovelace', email: 'ada@example.com' }, work: [{ employer: 'Acme', title: 'Engineer' }] };
    /** A job through the real preparation writes; `letter: null` stops before the cover letter. */
    const seedPrepared = async (opts: { letter?: string | null } = {}): Promise<string> => {
      const key = `j_ap_${randomUUID().slice(0, 8)}`;
      const jobs = new JobRepository(uow());
      const prep = new PreparationRepository(uow());
      await seedEnrichedJob(jobs, { jobKey: key, title: 'Engineer', company: 'Acme', description: 'Build things.' });
      await prep.recordScore(key, { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
      await prep.recordTailored(key, resume);
      if (opts.letter !== null) await passLetter(key, opts.letter ?? 'Dear Acme, I build things.');
      return key;
    };
    const passLetter = async (key: string, text: string) => {
      const prep = new PreparationRepository(uow());
      // A new draft for an already prepared job: the review pair accepts it again.
      await uow().run(({ manager }) => manager.query(`UPDATE jobs SET stage = 'pending_cover' WHERE job_key = ?`, [key]));
      await prep.recordCoverDraft(key, { text });
      await prep.recordCoverDecision(key, { accepted: true }, false);
    };
    const checked = async (key: string, state: 'open' | 'closed', at = Date.now()) => {
      const checks = new PostingCheckRepository(uow());
      const claim = await checks.claimJob(key, 'e2e', 60_000, at);
      if (typeof claim === 'string') throw new Error(`claim ${claim}`);
      await checks.record(claim, { state, reason: null, method: 'http', evidence: [] }, at);
    };
    const withClient = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        return await fn(new Client({ connection }));
      } finally {
        await connection.close();
      }
    };
    const startedInput = (workflowId: string) =>
      withClient(async (client) => {
        const history = await client.workflow.getHandle(workflowId).fetchHistory();
        return defaultPayloadConverter.fromPayload<ApplyInput>(history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0] ?? {});
      });
    // No worker polls this suite's queue: leave nothing on the shared dev server for another suite's worker.
    const terminate = (workflowId: string) => withClient((client) => client.workflow.getHandle(workflowId).terminate('test over'));
    const errorsOf = (body: { errors: Array<{ field: string }> }) => body.errors.map((e) => e.field);

    it('approves the exact artifacts, names what is missing, is voided by changed answers or a changed letter, and is revoked', async () => {
      await http().post('/v1/jobs/j_nope/approval').expect(404);
      const bare = await seedPrepared({ letter: null });
      const missing = await http().post(`/v1/jobs/${bare}/approval`).expect(409);
      expect(missing.body).toMatchObject({ statusCode: 409, code: 'artifacts_missing', missing: ['cover_letter'] });
      expect(missing.body.message).toMatch(/cover letter that passed its review/);

      const key = await seedPrepared();
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body).toMatchObject({ approval: null, application: null });
      const approved = (await http().post(`/v1/jobs/${key}/approval`).expect(200)).body;
      expect(approved).toEqual({ approvedAt: expect.any(String), resumeSha256: expect.stringMatching(/^[0-9a-f]{64}$/), coverLetterSha256: expect.stringMatching(/^[0-9a-f]{64}$/), answersSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body.approval).toEqual(approved);
      expect((await http().get(`/v1/jobs?q=Engineer`).expect(200)).body.items.find((j: { jobKey: string }) => j.jobKey === key).approval).toEqual(approved);

      // Saving answers changes an approved artifact: the approval no longer holds until approved again.
      const saved = await http().put(`/v1/jobs/${key}/answers`).send({ answers: { 'How did you hear about us?': 'A friend', q_years: '5' } }).expect(200);
      expect(saved.body).toEqual({ answers: { 'How did you hear about us?': 'A friend', q_years: '5' }, approval: null });
      const again = (await http().post(`/v1/jobs/${key}/approval`).expect(200)).body;
      expect(again.answersSha256).not.toBe(approved.answersSha256);
      expect(again.resumeSha256).toBe(approved.resumeSha256);
      // A changed letter voids it too.
      await passLetter(key, 'Dear Acme, a different letter.');
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body.approval).toBeNull();
      await http().post(`/v1/jobs/${key}/approval`).expect(200);
      await http().delete(`/v1/jobs/${key}/approval`).expect(204);
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body.approval).toBeNull();
      await http().delete('/v1/jobs/j_nope/approval').expect(404);
    });

    it('validates answers, naming each bad entry, and writes nothing on a 400', async () => {
      const key = await seedPrepared();
      await http().put(`/v1/jobs/${key}/answers`).send({ answers: { a: 'kept' } }).expect(200);
      const bad = await http().put(`/v1/jobs/${key}/answers`).send({ answers: { q_ok: 'yes', q_num: 5, ' ': 'blank key' } }).expect(400);
      expect(errorsOf(bad.body).sort()).toEqual(['answers. ', 'answers.q_num']);
      expect(errorsOf((await http().put(`/v1/jobs/${key}/answers`).send({ answers: 'yes' }).expect(400)).body)).toEqual(['answers']);
      expect(errorsOf((await http().put(`/v1/jobs/${key}/answers`).send({ answers: {}, extra: 1 }).expect(400)).body)).toEqual(['extra']);
      const tooLong = await http().put(`/v1/jobs/${key}/answers`).send({ answers: { q: 'x'.repeat(10_001) } }).expect(400);
      expect(errorsOf(tooLong.body)).toEqual(['answers.q']);
      await http().put('/v1/jobs/j_nope/answers').send({ answers: {} }).expect(404);
      // The earlier answers are what an approval now hashes.
      const approval = (await http().post(`/v1/jobs/${key}/approval`).expect(200)).body;
      await http().put(`/v1/jobs/${key}/answers`).send({ answers: { a: 'kept' } }).expect(200);
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body.approval).toEqual(approval);
    });

    it('refuses apply without a worker (503), for an unknown job (404), and names each refusal (409 code)', async () => {
      const key = await seedPrepared();
      expect((await http().post(`/v1/jobs/${key}/apply`).send({}).expect(503)).body.code).toBe('worker_not_ready');
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      await http().post('/v1/jobs/j_nope/apply').send({}).expect(404);
      expect(errorsOf((await http().post(`/v1/jobs/${key}/apply`).send({ dryRun: 'yes' }).expect(400)).body)).toEqual(['dryRun']);
      const unapproved = await http().post(`/v1/jobs/${key}/apply`).send({}).expect(409);
      expect(unapproved.body).toMatchObject({ statusCode: 409, code: 'not_approved', blockers: ['not_approved'] });
      expect(unapproved.body.message).toMatch(/not been approved/);

      // A submit intent recorded by an attempt that never confirmed: the job may have been submitted.
      await http().post(`/v1/jobs/${key}/approval`).expect(200);
      await checked(key, 'open');
      const apps = new ApplicationRepository(uow());
      await apps.claim('local', key, 'run-1', { workflowId: `apply-local-${key}`, dryRun: false });
      await apps.recordIntent('local', key, 'run-1');
      await apps.settle('local', key, { reason: 'worker lost' });
      const ambiguous = await http().post(`/v1/jobs/${key}/apply`).send({}).expect(409);
      expect(ambiguous.body).toMatchObject({ code: 'submit_needs_verification', blockers: ['submit_needs_verification'] });
      expect((await http().get(`/v1/jobs/${key}`).expect(200)).body.application).toMatchObject({ state: 'needs_verification', workflowId: `apply-local-${key}`, reason: 'worker lost', submittedAt: null });

      // The daily cap is read live; a dry run submits nothing and is not capped.
      const other = await seedPrepared();
      await http().post(`/v1/jobs/${other}/approval`).expect(200);
      await checked(other, 'open');
      await http().patch('/v1/settings').send({ apply_daily_cap: 1 }).expect(200);
      expect((await http().post(`/v1/jobs/${other}/apply`).send({}).expect(409)).body).toMatchObject({ code: 'daily_cap_reached' });
      const dry = await http().post(`/v1/jobs/${other}/apply`).send({ dryRun: true }).expect(202);
      try {
        expect(dry.body).toEqual({ workflowId: `apply-local-${other}` });
        expect(await startedInput(dry.body.workflowId)).toEqual({ tenant: 'local', jobKey: other, dryRun: true });
      } finally {
        await terminate(dry.body.workflowId);
      }
    });

    it("takes a person's verdict on a needs_verification application (POST /v1/jobs/:jobKey/application/verification)", async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const apps = new ApplicationRepository(uow());
      const ambiguous = async (): Promise<string> => {
        const key = await seedPrepared();
        await http().post(`/v1/jobs/${key}/approval`).expect(200);
        await checked(key, 'open');
        await apps.claim('local', key, 'run-1', { workflowId: `apply-local-${key}`, dryRun: false });
        await apps.recordIntent('local', key, 'run-1');
        await apps.settle('local', key, { reason: 'worker lost' });
        return key;
      };
      const verification = (key: string) => `/v1/jobs/${key}/application/verification`;
      const clicked = await ambiguous();
      expect(errorsOf((await http().post(verification(clicked)).send({ submitted: 'yes' }).expect(400)).body)).toEqual(['submitted']);
      expect(errorsOf((await http().post(verification(clicked)).send({ submitted: false, confirmation: 'APP-1' }).expect(400)).body)).toEqual(['confirmation']);
      await http().post(verification('j_nope')).send({ submitted: true }).expect(404);
      expect((await http().post(verification(await seedPrepared())).send({ submitted: true }).expect(404)).body.message).toMatch(/no application/);

      const submitted = (await http().post(verification(clicked)).send({ submitted: true, confirmation: 'APP-1' }).expect(200)).body;
      expect(submitted).toMatchObject({ state: 'submitted', confirmation: 'APP-1', reason: 'verified by a person: submitted' });
      expect(submitted.submittedAt).toEqual(expect.any(String));
      expect((await http().get(`/v1/jobs/${clicked}`).expect(200)).body.application).toEqual(submitted);
      const again = await http().post(verification(clicked)).send({ submitted: false }).expect(409);
      expect(again.body).toMatchObject({ code: 'application_not_awaiting_verification', state: 'submitted' });

      // Not submitted: the job is no longer blocked on verification (here the daily cap is what refuses next).
      const notClicked = await ambiguous();
      expect((await http().post(verification(notClicked)).send({ submitted: false }).expect(200)).body).toMatchObject({ state: 'failed', submittedAt: null });
      await http().patch('/v1/settings').send({ apply_daily_cap: 1 }).expect(200);
      expect((await http().post(`/v1/jobs/${notClicked}/apply`).send({}).expect(409)).body).toMatchObject({ code: 'daily_cap_reached', blockers: ['daily_cap_reached'] });
    });

    it('starts one ApplyWorkflow apply-local-{jobKey} however often it is asked at once, and answers a submitted job with the same id without starting anything', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const key = await seedPrepared();
      await http().post(`/v1/jobs/${key}/approval`).expect(200);
      await checked(key, 'open');
      const answers = await Promise.all(Array.from({ length: 5 }, () => http().post(`/v1/jobs/${key}/apply`).send({}).expect(202)));
      const workflowId = `apply-local-${key}`;
      try {
        expect(answers.map((a) => a.body)).toEqual(Array(5).fill({ workflowId }));
        expect(await startedInput(workflowId)).toEqual({ tenant: 'local', jobKey: key, dryRun: false });
        // Nothing but the one execution: every start joined it (USE_EXISTING).
        const runIds = await withClient(async (client) => {
          const ids: string[] = [];
          for await (const w of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) ids.push(w.runId);
          return ids;
        });
        expect(runIds.length).toBeLessThanOrEqual(1);
        expect((await http().post(`/v1/jobs/${key}/apply`).send({ dryRun: true }).expect(202)).body).toEqual({ workflowId });
      } finally {
        await terminate(workflowId);
      }

      // The attempt submitted (recorded by the worker's activity): asking again starts nothing.
      const submitted = await seedPrepared();
      await http().post(`/v1/jobs/${submitted}/approval`).expect(200);
      const apps = new ApplicationRepository(uow());
      await apps.claim('local', submitted, 'run-1', { workflowId: `apply-local-${submitted}`, dryRun: false });
      await apps.recordIntent('local', submitted, 'run-1');
      await apps.recordOutcome('local', submitted, 'run-1', { state: 'submitted', confirmation: 'GH-42' });
      expect((await http().post(`/v1/jobs/${submitted}/apply`).send({}).expect(202)).body).toEqual({ workflowId: `apply-local-${submitted}` });
      const described = await withClient((client) => client.workflow.getHandle(`apply-local-${submitted}`).describe().then(() => 'started', (err) => (err instanceof WorkflowNotFoundError ? 'none' : String(err))));
      expect(described).toBe('none');
      expect((await http().get(`/v1/jobs/${submitted}`).expect(200)).body.application).toMatchObject({ state: 'submitted', confirmation: 'GH-42', submittedAt: expect.any(String) });
    });

    it('checks a stale or closed posting first: charges the foreground share once, starts with checkAvailabilityFirst, 429 when the share is spent', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const stale = await seedPrepared();
      await http().post(`/v1/jobs/${stale}/approval`).expect(200);
      await checked(stale, 'open', Date.now() - 25 * 3_600_000);
      const started = await http().post(`/v1/jobs/${stale}/apply`).send({}).expect(202);
      try {
        expect(await startedInput(started.body.workflowId)).toEqual({ tenant: 'local', jobKey: stale, dryRun: false, checkAvailabilityFirst: true });
        // Asked again while it runs: the same apply, not charged again.
        expect((await http().post(`/v1/jobs/${stale}/apply`).send({}).expect(202)).body).toEqual(started.body);
        expect((await http().get('/v1/availability').expect(200)).body.budget).toMatchObject({ usedForeground: 1 });
      } finally {
        await terminate(started.body.workflowId);
      }

      const closed = await seedPrepared();
      await http().post(`/v1/jobs/${closed}/approval`).expect(200);
      await checked(closed, 'closed');
      const checks = new PostingCheckRepository(uow());
      // Foreground checks may use the whole hour's 100 (sweeps stop at 80): one was charged above.
      for (let i = 0; i < 99; i++) expect(await checks.chargeForeground()).toMatchObject({ acquired: true });
      const spent = await http().post(`/v1/jobs/${closed}/apply`).send({});
      if (spent.status === 202) await terminate(spent.body.workflowId);
      expect(spent.status).toBe(429);
      expect(spent.body).toMatchObject({ statusCode: 429, retryAfterSeconds: expect.any(Number) });
      await withClient((client) => expect(client.workflow.getHandle(`apply-local-${closed}`).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError));
    });

    it('serves an attempt\'s recorded screenshots from its own directory only', async () => {
      const key = await seedPrepared();
      const dir = path.join(ctx.config.appDir, 'apply', 'local', key, 'run-1-1-abcd');
      fs.mkdirSync(dir, { recursive: true });
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      fs.writeFileSync(path.join(dir, 'filled.png'), png);
      const outside = path.join(ctx.dir, 'secret.png');
      fs.writeFileSync(outside, 'not yours');
      fs.symlinkSync(outside, path.join(dir, 'link.png'));
      const apps = new ApplicationRepository(uow());
      await apps.claim('local', key, 'run-1', { workflowId: `apply-local-${key}`, dryRun: true });
      await apps.recordScreenshots('local', key, 'run-1', [
        { name: 'filled.png', path: path.join(dir, 'filled.png') },
        { name: 'outside.png', path: outside },
        { name: 'link.png', path: path.join(dir, 'link.png') },
      ]);
      await apps.recordOutcome('local', key, 'run-1', { state: 'dry_run_done' });

      const view = (await http().get(`/v1/jobs/${key}`).expect(200)).body.application;
      expect(view).toMatchObject({ state: 'dry_run_done', dryRun: true, screenshots: [`/v1/jobs/${key}/screenshots/filled.png`, `/v1/jobs/${key}/screenshots/outside.png`, `/v1/jobs/${key}/screenshots/link.png`] });
      const res = await http().get(view.screenshots[0]).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(res.body as Buffer, png)).toBe(0);
      // Recorded, but outside the job's apply directory (directly or through a link): not served.
      await http().get(view.screenshots[1]).expect(404);
      await http().get(view.screenshots[2]).expect(404);
      for (const name of ['other.png', '..%2F..%2Fconfig.json', '.hidden.png', 'filled.png%00.txt']) await http().get(`/v1/jobs/${key}/screenshots/${name}`).expect(404);
      await http().get(`/v1/jobs/j_nope/screenshots/filled.png`).expect(404);
    });
  });

  describe('worker-backed actions', () => {
    it('answer 503 with the reason until a healthy heartbeat exists', async () => {
      const res = await http().post('/v1/pipeline/smoke').send({ activities: 1, holdMs: 0 }).expect(503);
      expect(res.body).toMatchObject({ code: 'worker_not_ready', worker: { status: 'missing' } });
      expect(res.body.message).toMatch(/worker is missing/);

      await ctx.heartbeats.upsert(heartbeat(ctx.config, { recordedAt: Date.now() - 10 * 60_000 }));
      const stale = await http().post('/v1/pipeline/smoke').send({ activities: 1, holdMs: 0 }).expect(503);
      expect(stale.body.worker.status).toBe('stale');
    });

    it('validate their body', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const res = await http().post('/v1/pipeline/smoke').send({ activities: 0 }).expect(400);
      expect(res.body.errors[0]).toMatchObject({ field: 'activities', value: 0 });
    });
  });

  describe('GET/PUT /v1/profile', () => {
    const profile = {
      contact: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', location: 'London', links: ['https://example.com/ada'] },
      summary: 'Platform engineer who ships reliable distributed systems.',
      skills: ['TypeScript', 'PostgreSQL', 'Kubernetes'],
      experience: [
        { employer: 'Acme', title: 'Senior Engineer', start: '2021-03', end: null, location: 'Remote', bullets: ['Cut p99 latency by 40%.', 'Mentored 4 engineers.'] },
        { employer: 'Initech', title: 'Engineer', start: '2018-01', end: '2021-02', bullets: ['Built the billing pipeline in TypeScript.'] },
      ],
      education: [{ school: 'University of London', degree: 'BSc', field: 'Mathematics', start: '2014', end: '2017' }],
      preferences: { titles: ['Staff Engineer', 'Platform Engineer'], locations: ['London', 'Remote'], remote: true, minimumSalary: 120000, salaryCurrency: 'GBP' },
    };
    const fields = (body: { errors: Array<{ field: string }> }) => body.errors.map((e) => e.field);

    it('is the empty profile at revision 0 on a fresh database', async () => {
      const res = await http().get('/v1/profile').expect(200);
      expect(res.body).toMatchObject({
        revision: 0,
        contact: { name: '', email: '' }, summary: '', skills: [], experience: [], education: [], preferences: { titles: [], locations: [] },
      });
    });

    it('saves a valid profile as revision 1, starts its Score → Tailor → Cover batch, and bumps the revision on every change', async () => {
      // The test app talks to the reachable dev server (JOBCTRL_TEST_TEMPORAL_ADDRESS): Temporal accepts the batch.
      const res = await http().put('/v1/profile').send(profile).expect(200);
      expect(res.body).toMatchObject({ revision: 1, ...profile, updatedAt: expect.any(String) });
      const { revision: _r, updatedAt: _u, batch: _b, ...echoed } = res.body;
      expect(echoed).toEqual(profile);
      const { runId, workflowId } = res.body.batch as { runId: string; workflowId: string };
      expect(runId).toMatch(/^[0-9a-f-]{36}$/);
      expect(workflowId).toBe(`pipeline-${runId}`);
      const run = await http().get(`/v1/pipeline/runs/${runId}`).expect(200);
      expect(run.body).toMatchObject({ runId, workflowId, stages: ['score', 'tailor', 'cover'], state: 'pending' });

      const saved = await http().get('/v1/profile').expect(200);
      expect(saved.body).toMatchObject({ revision: 1, ...profile });
      expect(saved.body.batch).toBeUndefined();

      const changed = { ...profile, skills: [...profile.skills, 'Terraform'] };
      const second = await http().put('/v1/profile').send(changed).expect(200);
      expect(second.body.revision).toBe(2);
      expect(second.body.skills).toEqual(['TypeScript', 'PostgreSQL', 'Kubernetes', 'Terraform']);
      expect(second.body.batch.runId).not.toBe(runId);
      expect((await http().get('/v1/profile').expect(200)).body).toMatchObject({ revision: 2, ...changed });
      // What GET returns can be sent back as it is (revision and updatedAt are ignored); the same
      // content is the same revision, and starts no batch.
      const roundTrip = (await http().get('/v1/profile').expect(200)).body;
      const same = (await http().put('/v1/profile').send(roundTrip).expect(200)).body;
      expect(same).toMatchObject({ revision: 2, ...changed, batch: null, updatedAt: roundTrip.updatedAt });
      // Key order, surrounding whitespace and null-vs-absent optional fields do not make new content.
      const rewritten = { preferences: changed.preferences, summary: `  ${changed.summary} `, contact: changed.contact, skills: changed.skills, education: changed.education,
        experience: changed.experience.map((e) => ('end' in e && e.end === null ? { ...e, end: undefined } : e)) };
      expect((await http().put('/v1/profile').send(rewritten).expect(200)).body).toMatchObject({ revision: 2, batch: null });
      const edited = (await http().put('/v1/profile').send({ ...changed, summary: 'A new summary.' }).expect(200)).body;
      expect(edited.revision).toBe(3);
      expect(edited.batch.runId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('keeps the saved profile when Temporal is unreachable (no batch)', async () => {
      await ctx.app.close();
      ctx = await startApi({}, { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      const res = await http().put('/v1/profile').send(profile).expect(200);
      expect(res.body).toMatchObject({ revision: 1, ...profile, batch: null });
      expect((await http().get('/v1/profile').expect(200)).body).toMatchObject({ revision: 1, ...profile });
    });

    it('rejects an invalid profile naming every field by its dotted path, and writes nothing', async () => {
      await http().put('/v1/profile').send(profile).expect(200);
      const { email: _email, ...contactWithoutEmail } = profile.contact;
      const bad = {
        ...profile,
        contact: { ...contactWithoutEmail, nickname: 'ada' },
        skills: 'ts',
        experience: [{ ...profile.experience[0], start: '2021/03' }],
        hobbies: ['chess'],
      };
      const res = await http().put('/v1/profile').send(bad).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('experience.0.start') });
      // One error per broken rule (skills breaks both isArray and arrayMaxSize), so fields may repeat.
      expect([...new Set(fields(res.body))].sort()).toEqual(['contact.email', 'contact.nickname', 'experience.0.start', 'hobbies', 'skills']);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'experience.0.start', value: '2021/03', rule: 'must be YYYY or YYYY-MM' },
          expect.objectContaining({ field: 'skills', value: 'ts' }),
          expect.objectContaining({ field: 'contact.email', rule: 'must be an email address' }),
        ]),
      );

      const badEmail = await http().put('/v1/profile').send({ ...profile, contact: { ...profile.contact, email: 'ada-at-example' } }).expect(400);
      expect(badEmail.body.errors).toEqual([{ field: 'contact.email', value: 'ada-at-example', rule: 'must be an email address' }]);

      const badEnd = await http().put('/v1/profile').send({ ...profile, education: [{ ...profile.education[0], end: '2017-13' }] }).expect(400);
      expect(fields(badEnd.body)).toEqual(['education.0.end']);

      expect((await http().get('/v1/profile').expect(200)).body).toMatchObject({ revision: 1, ...profile });
    });
  });

  describe('GET /v1/spend', () => {
    const usage = (lane: LlmUsage['lane'], costUsd: number): LlmUsage => ({
      provider: 'openai',
      model: 'm',
      lane,
      effort: 'low',
      inputTokens: 1000,
      outputTokens: 200,
      costUsd,
      outcome: 'ok',
    });

    it('reports nothing spent on a fresh database, against the configured ceiling', async () => {
      const res = await http().get('/v1/spend').expect(200);
      expect(res.body).toMatchObject({
        day: spendDay(),
        spentUsd: 0,
        ceilingUsd: ctx.config.settings.daily_spend_ceiling_usd,
        remainingUsd: ctx.config.settings.daily_spend_ceiling_usd,
        ceilingReached: false,
        byLane: { score: 0, tailor: 0, cover: 0, review: 0, compensation: 0 },
        calls: 0,
        provider: 'extractive',
        model: null,
      });
      expect(res.body.ceilingUsd).toBe(5);
      expect(Date.parse(res.body.resetsAt)).toBeGreaterThan(Date.now());
    });

    it("sums today's ledger by lane and reads a lowered ceiling live from the settings", async () => {
      const ledger = new SpendLedgerRepository(new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] }));
      await ledger.record(usage('score', 0.25), { jobKey: 'j_1' });
      await ledger.record(usage('score', 0.125), { jobKey: 'j_2' });
      await ledger.record(usage('review', 0.5));
      // Yesterday's spend is not today's.
      await ledger.record(usage('tailor', 4), {}, Date.now() - 36 * 3_600_000);

      const res = await http().get('/v1/spend').expect(200);
      expect(res.body).toMatchObject({
        spentUsd: 0.875,
        ceilingUsd: 5,
        remainingUsd: 4.125,
        ceilingReached: false,
        byLane: { score: 0.375, tailor: 0, cover: 0, review: 0.5, compensation: 0 },
        calls: 3,
      });

      await http().patch('/v1/settings').send({ llm: { provider: 'openai', model: 'm' }, daily_spend_ceiling_usd: 0.5 }).expect(200);
      const after = await http().get('/v1/spend').expect(200);
      expect(after.body).toMatchObject({ spentUsd: 0.875, ceilingUsd: 0.5, remainingUsd: 0, ceilingReached: true, provider: 'openai', model: 'm', calls: 3 });
    });

    it("includes a crashed worker's in-flight call (heartbeat stale) as an unknown outcome at its estimate; a live worker's in-flight call is not charged", async () => {
      const uow = new UnitOfWorkFactory({ databasePath: ctx.config.databasePath, entities: [] });
      const dead = heartbeat(ctx.config, { recordedAt: Date.now() - ctx.config.heartbeat.staleMs - 1_000 });
      const live = heartbeat(ctx.config);
      await ctx.heartbeats.upsert(dead);
      await ctx.heartbeats.upsert(live);
      const before = (await http().get('/v1/spend').expect(200)).body;
      const call = { lane: 'cover' as const, provider: 'openai' as const, model: 'm', jobKey: 'j_9' };
      await new SpendLedgerRepository(uow, { owner: dead.workerId }).reserve(0.25, 100, Date.now(), call);
      const held = await new SpendLedgerRepository(uow, { owner: live.workerId }).reserve(0.5, 100, Date.now(), call);
      try {
        const res = await http().get('/v1/spend').expect(200);
        expect(res.body).toMatchObject({ spentUsd: before.spentUsd + 0.25, calls: before.calls + 1, unknownOutcomeCalls: 1, unknownOutcomeUsd: 0.25 });
        expect(res.body.byLane.cover).toBeCloseTo(before.byLane.cover + 0.25, 9);
      } finally {
        if (held.kind === 'admitted') await new SpendLedgerRepository(uow).release(held.reservationId);
        await ctx.heartbeats.remove(dead.workerId);
        await ctx.heartbeats.remove(live.workerId);
      }
    });
  });

  describe('preparation runs and job stages', () => {
    it('accepts a preparation-only run once the worker is ready, and refuses sourceIds without discover', async () => {
      await ctx.heartbeats.upsert(heartbeat(ctx.config));
      const started = await http().post('/v1/pipeline/runs').send({ stages: ['score'] }).expect(202);
      expect(started.body.workflowId).toBe(`pipeline-${started.body.runId}`);
      expect((await http().get(`/v1/pipeline/runs/${started.body.runId}`).expect(200)).body).toMatchObject({ stages: ['score'], state: 'pending' });

      const sourceId = '00000000-0000-4000-8000-000000000000';
      const withSources = await http().post('/v1/pipeline/runs').send({ stages: ['score'], sourceIds: [sourceId] }).expect(400);
      expect(withSources.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: [{ field: 'sourceIds', value: [sourceId] }] });

      const bogus = await http().post('/v1/pipeline/runs').send({ stages: ['bogus'] }).expect(400);
      expect(bogus.body.errors.map((e: { field: string }) => e.field)).toEqual(['stages']);
    });

    it('filters jobs by a preparation stage and rejects an unknown one', async () => {
      expect((await http().get('/v1/jobs?stage=prepared').expect(200)).body).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
      await http().get('/v1/jobs?stage=pending_cover').expect(200);
      const res = await http().get('/v1/jobs?stage=bogus').expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'stage', value: 'bogus' })]);
    });
  });
});
