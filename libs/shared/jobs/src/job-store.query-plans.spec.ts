// The job store's repeated reads must cost what they find, not what is stored (issue #14: linear cost
// at 5,000 jobs). Each test runs the repository method against a real migrated SQLite file holding
// many finished jobs, captures the SQL it issued, and asks SQLite for that statement's plan: it must
// read through an index that holds only what the reader looks for — no SCAN of jobs, no read of every
// member of a run.
import { UnitOfWorkFactory, type UnitOfWork } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { openJobStore } from './testing';
import { DiscoveryRunRepository } from './discovery-run.repository';
import type { ObservedPosting } from './job.model';
import { JobRepository } from './job.repository';
import { PreparationRepository } from './preparation.repository';
import { RemainingWorkRepository } from './remaining-work.repository';

const dbs = tempDbDir('query-plans');
afterAll(() => dbs.cleanup());

/** Remembers every SELECT the repositories over it issue, with its parameters. */
class CapturingUnitOfWork extends UnitOfWorkFactory {
  selects: Array<{ sql: string; params: unknown[] }> = [];
  override run<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    return super.run((uow) => {
      const query = uow.manager.query.bind(uow.manager);
      uow.manager.query = async (sql: string, params?: unknown[]) => {
        if (/^\s*SELECT/i.test(sql)) this.selects.push({ sql, params: params ?? [] });
        return query(sql, params);
      };
      return fn(uow);
    });
  }
}

function posting(i: number): ObservedPosting {
  return {
    jobKey: `j_${i}`, idempotencyKey: `v1-j_${i}`, contentKey: `c_${i}`, canonicalUrl: null, sourceId: 's1', sourceKind: 'lever', externalId: `${i}`,
    title: `Engineer ${i}`, company: 'Acme', location: null, remote: true, url: `https://jobs.test/${i}`, applyUrl: null,
    descriptionHtml: null, descriptionText: 'text', postedAt: null, salaryText: null, employmentType: null, tags: [],
  };
}

/**
 * A store with `done` jobs of run r1 already enriched and scored against profile revision 1, plus
 * `open` fresh pending ones: what a long run looks like near its end.
 */
async function storeWith(
  done: number,
  open: number,
): Promise<{ capturing: CapturingUnitOfWork; jobs: JobRepository; prep: PreparationRepository; remaining: RemainingWorkRepository; databasePath: string }> {
  const databasePath = dbs.file('store');
  const { jobs, prep } = await openJobStore(databasePath);
  const all = Array.from({ length: done + open }, (_, i) => posting(i));
  for (let i = 0; i < all.length; i += 100) await jobs.recordObservations('r1', 'lever', all.slice(i, i + 100));
  for (let i = 0; i < done; i++) {
    await jobs.recordEnrichment(`j_${i}`, { status: i % 10 === 0 ? 'robots_blocked' : 'enriched' });
    await prep.recordScore(`j_${i}`, { score: 10, detail: {}, profileRevision: 1, threshold: 50 });
  }
  const capturing = new CapturingUnitOfWork({ databasePath, entities: [] });
  return { capturing, jobs: new JobRepository(capturing), prep: new PreparationRepository(capturing), remaining: new RemainingWorkRepository(capturing), databasePath };
}

/** SQLite's plan for each captured SELECT, one line per plan step. */
async function plans(capturing: CapturingUnitOfWork): Promise<string[][]> {
  const selects = capturing.selects.splice(0);
  const out: string[][] = [];
  for (const s of selects) {
    const rows: Array<{ detail: string }> = await capturing.run(({ manager }) => manager.query(`EXPLAIN QUERY PLAN ${s.sql}`, s.params));
    out.push(rows.map((r) => r.detail));
  }
  capturing.selects.length = 0; // the EXPLAINs themselves
  return out;
}

const fullScans = (plan: string[]) => plan.filter((step) => /^SCAN (j|jobs|r|discovery_run_jobs)\b/.test(step));

describe('job store query plans', () => {
  it("the live enrichment consumer's poll walks the jobs' enrichment index and probes the run's membership by key", async () => {
    const { capturing, jobs } = await storeWith(150, 30);
    const picked = await jobs.selectForEnrichment('r1', { includeRecoverable: true, exclude: new Set(['j_0']), limit: 16 });
    // The pending ones, in the order first seen; then a robots-blocked one (re-admitted) is allowed too.
    expect(picked).toHaveLength(16);
    expect(picked.every((c) => c.status === 'pending' || c.status === 'robots_blocked')).toBe(true);

    const [plan] = await plans(capturing);
    expect(fullScans(plan)).toEqual([]);
    expect(plan.some((step) => step.includes('USING INDEX jobs_enrichment_seen (enrichment_status=?)'))).toBe(true);
    // Membership is only ever probed by (run_id, job_key), never read for the whole run.
    const membership = plan.filter((step) => /^SEARCH r\b/.test(step));
    expect(membership.length).toBeGreaterThan(0);
    expect(membership.every((step) => step.includes('(run_id=? AND job_key=?)'))).toBe(true);
    // The pending walk is in index order: no sort of every pending job before the limit.
    const pendingBranch = plan.slice(0, plan.findIndex((step) => step.includes('UNION ALL')));
    expect(pendingBranch.some((step) => step.includes('TEMP B-TREE'))).toBe(false);
  });

  it('the idle recovery and a profile update find stale and pending jobs through indexes, not by reading every job', async () => {
    const { capturing, prep } = await storeWith(150, 0);
    expect(await prep.selectStuck({ revision: 1, idleSinceMs: Date.now() + 1000, limit: 1 })).toEqual([]);
    expect(await prep.selectStuck({ revision: 2, idleSinceMs: Date.now() + 1000, limit: 1 })).toHaveLength(1);
    for (const plan of await plans(capturing)) {
      expect(fullScans(plan)).toEqual([]);
      expect(plan.some((step) => step.includes('USING INDEX jobs_score_revision'))).toBe(true);
    }
  });

  it('jobs paused at the spend ceiling are found through their own index', async () => {
    const { capturing, prep } = await storeWith(100, 0);
    await prep.setPrepStatus('j_7', 'spend_ceiling_reached');
    capturing.selects.length = 0;
    expect(await prep.selectPaused()).toEqual([{ jobKey: 'j_7', idempotencyKey: 'v1-j_7' }]);
    const [plan] = await plans(capturing);
    expect(fullScans(plan)).toEqual([]);
    expect(plan.some((step) => step.includes('USING INDEX jobs_prep_status'))).toBe(true);
  });

  it("a preparation fan-out near the end of a run reads the waiting jobs, not every member of the run", async () => {
    const { capturing, jobs } = await storeWith(150, 5);
    for (let i = 150; i < 155; i++) await jobs.recordEnrichment(`j_${i}`, { status: 'enriched' });
    capturing.selects.length = 0;
    expect((await jobs.selectPendingPreparation({ runId: 'r1', includePendingTailor: false })).map((j) => j.jobKey)).toEqual(['j_150', 'j_151', 'j_152', 'j_153', 'j_154']);
    const [plan] = await plans(capturing);
    expect(fullScans(plan)).toEqual([]);
    expect(plan.some((step) => step.includes('USING INDEX jobs_stage (stage=?)'))).toBe(true);
    expect(plan.filter((step) => /^SEARCH r\b/.test(step)).every((step) => step.includes('(run_id=? AND job_key=?)'))).toBe(true);
  });

  it("the operations ETA reads the running discovery runs through their own index, not every run ever recorded", async () => {
    const { capturing, remaining, databasePath } = await storeWith(0, 0);
    const runs = new DiscoveryRunRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
    for (let i = 0; i < 30; i++) {
      await runs.create(`run_${i}`, { families: [{ family: 'lever' }] }, 2);
      if (i < 29) await runs.finish(`run_${i}`, 'completed');
    }
    expect(await remaining.unfinishedDiscoveryFamilies()).toBe(1);
    const [plan] = await plans(capturing);
    expect(plan.some((step) => step.includes('INDEX discovery_runs_running'))).toBe(true);
    expect(plan.some((step) => /^SCAN r$/.test(step))).toBe(false);
  });
});
