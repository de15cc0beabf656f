// JobRepository.adoptEmployerName and the re-observation path (employer names, compensation statements), over a real migrated SQLite file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ObservedPosting } from './job.model';
import { JobRepository } from './job.repository';

let dir: string;
let jobs: JobRepository;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-employer-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  jobs = new JobRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function posting(o: Partial<ObservedPosting> = {}): ObservedPosting {
  return {
    jobKey: 'j_a', idempotencyKey: 'v1-j_a', contentKey: 'c_a', canonicalUrl: 'https://x.test/jobs/1', sourceId: 'src-1', sourceKind: 'lever',
    externalId: '1', title: 'Engineer', company: 'globex', location: 'Berlin', remote: false, url: 'https://x.test/jobs/1', applyUrl: null,
    descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [], ...o,
  };
}

async function stored(jobKey = 'j_a') {
  const job = await jobs.get(jobKey);
  if (!job) throw new Error(`no job ${jobKey}`);
  return job;
}

describe('JobRepository.adoptEmployerName', () => {
  it("replaces a board token with the employer's name and keeps the job's keys", async () => {
    await jobs.recordObservations('r1', 'lever', [posting()]);
    expect(await jobs.adoptEmployerName('j_a', ' Globex Partners ')).toBe(true);
    expect(await stored()).toMatchObject({ jobKey: 'j_a', idempotencyKey: 'v1-j_a', company: 'Globex Partners' });
  });

  it("never replaces a real name, and never adopts a token or a blank", async () => {
    await jobs.recordObservations('r1', 'greenhouse', [posting({ company: 'Acme Labs' }), posting({ jobKey: 'j_b', idempotencyKey: 'v1-j_b', contentKey: 'c_b', externalId: '2', url: 'https://x.test/jobs/2' })]);
    expect(await jobs.adoptEmployerName('j_a', 'Acme Holdings')).toBe(false);
    expect((await stored('j_a')).company).toBe('Acme Labs');
    expect(await jobs.adoptEmployerName('j_b', 'globex-labs')).toBe(false);
    expect(await jobs.adoptEmployerName('j_b', '  ')).toBe(false);
    expect(await jobs.adoptEmployerName('j_missing', 'Globex Partners')).toBe(false);
    expect((await stored('j_b')).company).toBe('globex');
  });

  it('a job stored under its token takes the name a later observation brings (a company_name added to the source)', async () => {
    await jobs.recordObservations('r1', 'lever', [posting()]);
    await jobs.recordObservations('r2', 'lever', [posting({ company: 'Globex Partners' })]);
    expect(await stored()).toMatchObject({ company: 'Globex Partners', idempotencyKey: 'v1-j_a' });
    // ...and a later token observation does not undo it.
    await jobs.recordObservations('r3', 'lever', [posting()]);
    expect((await stored()).company).toBe('Globex Partners');
  });
});

describe('JobRepository.recordObservations: compensation statements', () => {
  const statementsOf = (sourceId = 'src-1', externalId = '1') =>
    new UnitOfWorkFactory({ databasePath: path.join(dir, 'jobctrl.sqlite'), entities: [] }).run(async ({ manager }) => {
      const rows: Array<{ compensation_json: string | null }> = await manager.query(`SELECT compensation_json FROM job_sources WHERE source_id = ? AND external_id = ?`, [sourceId, externalId]);
      return rows[0]?.compensation_json === null ? null : JSON.parse(rows[0].compensation_json as string);
    });
  const range = { fieldPath: 'lever.salaryRange', value: { min: 100_000, max: 120_000, currency: 'USD', interval: 'per-year-salary' } };

  it('stores the statements with the exact source posting, and null when the source collects none', async () => {
    await jobs.recordObservations('r1', 'lever', [posting({ compensation: [range] })]);
    await jobs.recordObservations('r1', 'greenhouse', [posting({ sourceId: 'src-2', externalId: '9' })]);
    expect(await statementsOf()).toEqual([range]);
    expect(await statementsOf('src-2', '9')).toBeNull();
  });

  it('a re-observation replaces them, an emptied list included; one without statements keeps them', async () => {
    await jobs.recordObservations('r1', 'lever', [posting({ compensation: [range] })]);
    const text = { fieldPath: 'lever.salaryDescription', value: '$110k - $130k' };
    await jobs.recordObservations('r2', 'lever', [posting({ compensation: [text] })]);
    expect(await statementsOf()).toEqual([text]);
    await jobs.recordObservations('r3', 'lever', [posting()]);
    expect(await statementsOf()).toEqual([text]);
    // The board stopped publishing pay: "no statements", not the stale ones.
    await jobs.recordObservations('r4', 'lever', [posting({ compensation: [] })]);
    expect(await statementsOf()).toEqual([]);
  });
});
