// Issue #27: one discover run over REAL board API responses (../shared/data/real_boards, read at run
// time, never copied here), replayed on loopback, through the worker app's own worker on a real
// Temporal dev server and a real SQLite file: discovery -> enrichment -> compensation + score.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { discoverWorkflowId, type DiscoverWorkflowResult } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRunRepository, JobRepository, type JobRecord } from '@jobctrl/shared/jobs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { boardExpectations, missingLocations, postingTruth, readManifest, realBoardSourceConfig, REPLAY_KINDS, startRealBoardReplay, type RealBoardReplay } from '@jobctrl/tools/fixtures';
import { createJobctrlWorker } from './create-worker';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { SIMULATOR_HOST_POLICY, simulatorSourcePolicy } from './test-support/simulator-host-policy';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

// A missing folder fails here, naming where it was looked for: never a vacuous pass.
const manifest = readManifest();
const expected = boardExpectations();
const boards = manifest.boards.filter((b) => REPLAY_KINDS.includes(b.kind));

describe('a discover run over real board responses', () => {
  let replay: RealBoardReplay;
  let dir: string;
  let uow: UnitOfWorkFactory;
  const sourceOf = new Map<string, string>();

  beforeAll(async () => {
    replay = await startRealBoardReplay();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-real-boards-'));
    const databasePath = path.join(dir, 'jobctrl.sqlite');
    await runMigrations({ databasePath });
    uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
    await new ProfileRepository(uow).put(sampleProfile());
    const sources = new SourceService(new SourceRepository(uow), simulatorSourcePolicy(dir));
    for (const board of boards) {
      const config = realBoardSourceConfig(board, replay.url);
      // One family per board: the boards crawl two at a time, as a user's sources would.
      const created = await sources.create({ kind: board.kind as Parameters<SourceService['create']>[0]['kind'], name: board.id, family: board.id, config });
      sourceOf.set(board.id, created.id);
    }
    await uow.run(({ manager }) => manager.query('UPDATE discovery_runtime_settings SET max_parallel_families = 2'));
  });

  afterAll(async () => {
    await replay?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores every posting of the 14 boards once, named after its employer, with every location, a score and its published pay, no refresh asked', async () => {
    const taskQueue = `test-${randomUUID()}`;
    const jobs = new JobRepository(uow);
    const jw = await createJobctrlWorker({
      connection: suite.connection,
      namespace: 'default',
      taskQueue,
      capacity: workerCapacity(4),
      uow,
      workflowBundle: suite.bundle,
      // The worker's own host policy (its 16 MiB API cap included), no spacing: the replay is the only host.
      pipeline: { internalConcurrency: 4, hostPolicy: SIMULATOR_HOST_POLICY, enrichmentPollMs: 100 },
    });
    const runId = randomUUID();
    let result: DiscoverWorkflowResult;
    try {
      result = await jw.worker.runUntil(async () => {
        const started = Date.now();
        const done: DiscoverWorkflowResult = await suite.client.workflow.execute('discoverWorkflow', { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        process.stdout.write(`discover run: ${Date.now() - started} ms\n`);
        // Each job's own preparation (compensation, then score) outlives the run: wait for them.
        const pending = async () => {
          const [row]: Array<{ n: number }> = await uow.run(({ manager }) =>
            // A score-only preparation ends at scored or pending_tailor (the tailoring a later run does).
            manager.query(`SELECT COUNT(*) AS n FROM jobs WHERE stage IN ('pending_enrichment', 'pending_score')`),
          );
          return row.n;
        };
        const deadline = Date.now() + 150_000;
        while ((await pending()) > 0) {
          if (Date.now() > deadline) {
            const stuck = await uow.run(({ manager }) =>
              manager.query(`SELECT stage, enrichment_status, enrichment_error, COUNT(*) AS n FROM jobs WHERE stage IN ('pending_enrichment', 'pending_score') GROUP BY 1, 2, 3`),
            );
            throw new Error(`jobs still pending after 150 s: ${JSON.stringify(stuck)}`);
          }
          await new Promise((r) => setTimeout(r, 250));
        }
        return done;
      });
    } finally {
      await jw.close();
    }
    // No board lost: 14 of 14 families completed; RemoteOK's blank entry is recorded, not fatal.
    expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });
    expect(result.familiesCompleted).toHaveLength(boards.length);
    const run = await new DiscoveryRunRepository(uow).get(runId);
    expect(run?.entriesSkipped).toEqual([expect.objectContaining({ family: 'remoteok/all', reason: 'blank position and company' })]);

    const outcome: Record<string, unknown> = {};
    for (const board of boards) {
      const want = expected[board.id];
      const truth = new Map(postingTruth(board).map((t) => [t.id, t]));
      const rows: Array<{ job_key: string; external_id: string }> = await uow.run(({ manager }) =>
        manager.query(`SELECT job_key, external_id FROM job_sources WHERE source_id = ?`, [sourceOf.get(board.id)]),
      );
      const byKey = new Map<string, JobRecord>();
      for (const key of new Set(rows.map((r) => r.job_key))) byKey.set(key, (await jobs.get(key)) as JobRecord);
      const problems: string[] = [];
      let payRead = 0;
      let payStated = 0;
      for (const { job_key, external_id } of rows) {
        const job = byKey.get(job_key) as JobRecord;
        const t = truth.get(external_id);
        if (!t) {
          problems.push(`${external_id}: not in the recording`);
          continue;
        }
        // The job may be a repost's (one job for both): its title and employer are still this posting's.
        if (job.title !== t.title) problems.push(`${external_id}: title ${job.title} != ${t.title}`);
        if (job.company !== t.company) problems.push(`${external_id}: company ${job.company} != ${t.company}`);
        if (job.sources[0]?.externalId === external_id) {
          const missing = missingLocations(job.locations, t.locations);
          if (missing.length) problems.push(`${external_id}: locations ${JSON.stringify(job.locations)} miss ${JSON.stringify(missing)}`);
        }
        if (job.score === null) problems.push(`${external_id}: no score (${job.stage})`);
        if (t.pay.length && job.sources[0]?.externalId === external_id) {
          payStated += 1;
          const s = job.compensation?.summary as { min: number | null; max: number | null; currency: string | null; interval: string | null } | null | undefined;
          const read = s ? { min: s.min, max: s.max, currency: s.currency, interval: s.interval } : null;
          if (t.pay.some((p) => JSON.stringify(p) === JSON.stringify(read))) payRead += 1;
          else problems.push(`${external_id}: pay ${JSON.stringify(read)} not one of ${JSON.stringify(t.pay)}`);
        }
      }
      outcome[board.id] = { postings: rows.length, jobs: byKey.size, payRead, problems: problems.slice(0, 5) };
      expect({ board: board.id, postings: rows.length, distinct: new Set(rows.map((r) => r.external_id)).size, jobs: byKey.size, payRead, problems: problems.slice(0, 5) }).toEqual({
        board: board.id,
        postings: want.postings,
        distinct: want.postings,
        jobs: want.distinctJobs,
        payRead: payStated,
        problems: [],
      });
      if (board.company) for (const job of byKey.values()) expect(job.company).not.toMatch(/^[a-z0-9-]+$/);
    }
    // The per-board results, for the record.
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  }, 240_000);
});

