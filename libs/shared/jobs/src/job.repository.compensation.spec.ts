// GET /v1/jobs' salary filter and sort (issue #10 item 5) at the store: JobRepository.list over jobs
// with published compensation rows, on a real migrated SQLite file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ObservedPosting } from './job.model';
import { JobRepository } from './job.repository';

let dir: string;
let uow: UnitOfWorkFactory;
let jobs: JobRepository;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-salary-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  jobs = new JobRepository(uow);
  const posting = (key: string): ObservedPosting => ({
    jobKey: key, idempotencyKey: `v1-${key}`, contentKey: `c-${key}`, canonicalUrl: null, sourceId: 'src-1', sourceKind: 'lever',
    externalId: key, title: `Engineer ${key}`, company: 'Acme', location: null, remote: null, url: `https://x.test/${key}`, applyUrl: null,
    descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [],
  });
  // Stored one after another, so "newest" is a known order: j_none newest, j_usd_low oldest.
  let t = 1_000;
  for (const key of ['j_usd_low', 'j_usd_high', 'j_usd_floor', 'j_eur', 'j_unread', 'j_none']) await jobs.recordObservations('r1', 'lever', [posting(key)], (t += 1_000));
  const publish = (key: string, summary: { currency: string; min_yearly: number | null; max_yearly: number | null } | null) =>
    uow.run(({ manager }) =>
      manager.query(
        `INSERT INTO job_compensation (job_key, refresh_id, kind, currency, interval, min, max, min_yearly, max_yearly, confidence, method, summary_json, rows_json, published_at)
         VALUES (?, 'r', ?, ?, 'year', ?, ?, ?, ?, 0.9, 'parser', ?, ?, 0)`,
        [key, summary ? 'base' : null, summary?.currency ?? null, summary?.min_yearly ?? null, summary?.max_yearly ?? null, summary?.min_yearly ?? null, summary?.max_yearly ?? null, summary ? JSON.stringify({ kind: 'base', ...summary }) : null, JSON.stringify([{ fieldPath: 'salary_text', text: 'x' }])],
      ),
    );
  await publish('j_usd_low', { currency: 'USD', min_yearly: 60_000, max_yearly: 80_000 });
  await publish('j_usd_high', { currency: 'USD', min_yearly: 150_000, max_yearly: 190_000 });
  await publish('j_usd_floor', { currency: 'USD', min_yearly: 120_000, max_yearly: null });
  await publish('j_eur', { currency: 'EUR', min_yearly: 200_000, max_yearly: 250_000 });
  await publish('j_unread', null);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const keys = async (filter: Parameters<JobRepository['list']>[0]) => (await jobs.list(filter)).items.map((j) => j.jobKey);
const page = { limit: 50, offset: 0 };

describe('JobRepository.list by salary', () => {
  it('keeps jobs whose annualised figure (top of range, else floor) reaches minSalary in the asked currency', async () => {
    expect((await keys({ ...page, minSalary: 100_000, currency: 'USD' })).sort()).toEqual(['j_usd_floor', 'j_usd_high']);
    expect(await keys({ ...page, minSalary: 100_000, currency: 'EUR' })).toEqual(['j_eur']);
    // USD unless told: a EUR figure is not compared with dollars.
    expect((await keys({ ...page, minSalary: 0 })).sort()).toEqual(['j_usd_floor', 'j_usd_high', 'j_usd_low']);
    expect((await jobs.list({ ...page, minSalary: 100_000 })).total).toBe(2);
  });

  it('includes jobs without a figure (never published, or published without one) only when asked', async () => {
    expect((await keys({ ...page, minSalary: 100_000, currency: 'USD', includeUnknownSalary: true })).sort()).toEqual(['j_none', 'j_unread', 'j_usd_floor', 'j_usd_high']);
  });

  it('sorts by salary, highest first and unknown last; newest stays the default', async () => {
    expect(await keys({ ...page, sort: 'salary' })).toEqual(['j_eur', 'j_usd_high', 'j_usd_floor', 'j_usd_low', 'j_none', 'j_unread']);
    expect(await keys({ ...page, sort: 'salary', currency: 'USD' })).toEqual(['j_usd_high', 'j_usd_floor', 'j_usd_low']);
    expect(await keys(page)).toEqual(['j_none', 'j_unread', 'j_eur', 'j_usd_floor', 'j_usd_high', 'j_usd_low']);
  });

  it("carries each job's published compensation, null before any", async () => {
    expect((await jobs.get('j_usd_high'))?.compensation).toEqual({ summary: { kind: 'base', currency: 'USD', min_yearly: 150_000, max_yearly: 190_000 }, rows: [{ fieldPath: 'salary_text', text: 'x' }] });
    expect((await jobs.get('j_none'))?.compensation).toBeNull();
  });
});
