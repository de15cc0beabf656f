import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { discoverWorkflowId, type DiscoverWorkflowResult } from '@jobctrl/pipeline/contracts';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { type JobRecord, JobRepository, PREPARATION_PENDING_STAGES, PreparationRepository } from '@jobctrl/shared/jobs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { createJobctrlWorker } from './create-worker';
import { PreparationRecovery } from '@jobctrl/runs/worker';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { SIMULATOR_HOST_POLICY, simulatorSourcePolicy } from './test-support/simulator-host-policy';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

// A real client's JobSpy CSV export: quoted multi-line descriptions, Unicode, hourly and monthly pay.
const JOBSPY_CSV = path.join(__dirname, '..', '..', '..', 'libs', 'discovery', 'src', 'adapters', 'testing', 'jobspy-export.fixture.csv');

/** The boards' detail host, on loopback: its robots.txt answers 500, i.e. unreachable (RFC 9309). */
async function hostWithUnreachableRobots(): Promise<{ origin: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.statusCode = req.url === '/robots.txt' ? 500 : 200;
    res.end('<html><body>a detail page</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('Enrichment retries outside the run', () => {
  it('a JobSpy CSV whose detail host’s robots.txt is unreachable: every job ends scored from its source, marked source_only; nothing stays pending', async () => {
    const host = await hostWithUnreachableRobots();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-enrich-retry-'));
    const databasePath = path.join(dir, 'jobctrl.sqlite');
    await runMigrations({ databasePath });
    const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
    await new ProfileRepository(uow).put(sampleProfile());
    // The export's job pages all live on the (unreachable-robots) loopback host.
    const csv = fs.readFileSync(JOBSPY_CSV, 'utf8').replace(/https:\/\/www\.([a-z]+)\.com\//g, `${host.origin}/$1/`);
    const csvPath = path.join(dir, 'jobspy.csv');
    fs.writeFileSync(csvPath, csv);
    await new SourceService(new SourceRepository(uow), simulatorSourcePolicy(dir)).create({ kind: 'file', name: 'jobspy export', config: { path: csvPath, format: 'csv' } });
    const taskQueue = `test-${randomUUID()}`;
    // Nothing reaches the tailoring threshold: a job's preparation ends at scored.
    const live = { dailySpendCeilingUsd: 5, tailorScoreThreshold: 101, recoveryIdleMs: 3600_000 };
    const jw = await createJobctrlWorker({
      connection: suite.connection,
      namespace: 'default',
      taskQueue,
      capacity: workerCapacity(4),
      uow,
      workflowBundle: suite.bundle,
      pipeline: {
        internalConcurrency: 2,
        hostPolicy: { ...SIMULATOR_HOST_POLICY, maxInFlightPerHost: 2 },
        fileSourceDirs: [dir],
        enrichmentPollMs: 100,
        preparation: { llm: { provider: 'extractive', prices: {}, timeoutMs: 10_000 }, live: () => live },
      },
    });
    const jobs = new JobRepository(uow);
    const all = async (): Promise<JobRecord[]> => (await jobs.list({ limit: 100, offset: 0 })).items;
    try {
      await jw.worker.runUntil(async () => {
        const runId = randomUUID();
        const result: DiscoverWorkflowResult = await suite.client.workflow.execute('discoverWorkflow', { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });
        // The run ended with every job's detail capture failed once and a retry scheduled.
        const afterRun = await all();
        expect(afterRun).toHaveLength(4);
        for (const job of afterRun) {
          expect(job).toMatchObject({ stage: 'pending_enrichment', enrichmentStatus: 'failed_retryable', enrichmentAttempts: 1 });
          expect(job.enrichmentNextAttemptAt).not.toBeNull();
        }

        // The worker's periodic tick, outside any run; each call stands for a later moment (the
        // backoff is minutes long), so the bounded attempts are spent without waiting for them.
        const recovery = new PreparationRecovery({
          client: suite.client,
          taskQueue,
          gauge: jw.gauge,
          prep: new PreparationRepository(uow),
          settings: () => ({ recoveryIdleMs: live.recoveryIdleMs, internalConcurrency: 2 }),
          profileRevision: async () => (await new ProfileRepository(uow).get()).revision,
          enrichment: jw.enrichment,
          log: () => undefined,
        });
        let now = Date.now();
        for (let tick = 0; tick < 6 && (await all()).some((j) => j.stage === 'pending_enrichment'); tick++) {
          now += 60 * 60_000;
          await recovery.tick(now);
        }
        recovery.stop();

        // Each job was handed to its preparation and scored from what the export gave.
        const deadline = Date.now() + 60_000;
        let final = await all();
        while (final.some((j) => j.score === null) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 200));
          final = await all();
        }
        const pending = new Set<string>(['pending_enrichment', ...PREPARATION_PENDING_STAGES]);
        expect(final.filter((j) => pending.has(j.stage))).toEqual([]);
        for (const job of final) {
          expect(job).toMatchObject({ stage: 'scored', enrichmentStatus: 'source_only', enrichmentAttempts: 4, enrichmentNextAttemptAt: null });
          expect(job.score).not.toBeNull();
          expect(job.enrichmentError).toMatch(/after 4 attempts \(last: .*robots\.txt/);
        }
        // Three rows carried a description, and the job kept it.
        expect(final.filter((j) => j.descriptionText).map((j) => j.title).sort()).toEqual(['Contract QA Engineer', 'Data Scientist', 'Senior Backend Engineer']);
        // robots.txt was asked, never a detail page.
        expect(host.paths.filter((p) => p !== '/robots.txt')).toEqual([]);
      });
    } finally {
      await jw.close();
      await host.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
