// JobRepository.adoptEmployerName and the re-observation path, over a real migrated SQLite file.
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
