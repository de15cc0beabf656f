import { tempDbDir } from '@jobctrl/shared/db/testing';
import { openJobStore, seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { AvailabilityVerdict, PostingTarget } from './availability.model';
import { CHECK_WORK_BUDGET_MS, JOB_LEASE_MS } from './posting-check.limits';
import { PostingCheckRepository, type SweepSelection } from './posting-check.repository';
import { PostingCheckRunner, type InspectPosting } from './posting-check.runner';

/**
 * The spec's "Saved Posting Check Bounds" that live in the claim/record cycle, on a real SQLite
 * file. The ladder itself is replaced by `inspect` here (its own specs and the worker's
 * integration test run it against the board simulator): these tests are about who may check
 * which job, how often, and which verdicts may land.
 */
const dbs = tempDbDir('posting-checks');
afterAll(() => dbs.cleanup());

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const selection: SweepSelection = { scoreThreshold: 60, recheckMs: 24 * HOUR };
const open: AvailabilityVerdict = { state: 'open', reason: null, method: 'http', evidence: [{ kind: 'apply_control', detail: 'apply button', url: null, status: 200 }] };
const unknown: AvailabilityVerdict = { state: 'unknown', reason: 'timeout', method: 'http', evidence: [{ kind: 'timeout', detail: 'no answer in 20 s', url: null, status: null }] };

interface World {
  uow: UnitOfWorkFactory;
  repo: PostingCheckRepository;
  clock: { now: number };
  seen: PostingTarget[];
  /** What the runner asked the board-API resolver. */
  apiAsked: Array<{ kind: string; config: unknown }>;
}

// Discovery's postingApiOf owns the board rules (tested in libs/discovery, wired by the worker app and
// exercised by its availability int test); this domain may not import it, so a stand-in answers for
// the one board these tests configure.
const ACME = { kind: 'greenhouse', config: { board_token: 'acme', base_url: 'http://127.0.0.1:9/' }, api: { baseUrl: 'http://127.0.0.1:9', board: 'acme' } };

async function world(jobs: Array<{ key: string; stage?: string; score?: number }>): Promise<World> {
  const store = await openJobStore(dbs.file('w'));
  for (const j of jobs) {
    await seedEnrichedJob(store.jobs, { jobKey: j.key, title: `Engineer ${j.key}`, company: 'Acme', description: 'Build things.' });
    await store.uow.run(({ manager }) => manager.query(`UPDATE jobs SET stage = ?, score = ? WHERE job_key = ?`, [j.stage ?? 'scored', j.score ?? 80, j.key]));
  }
  return { uow: store.uow, repo: new PostingCheckRepository(store.uow), clock: { now: T0 }, seen: [], apiAsked: [] };
}

function runner(w: World, inspect: InspectPosting = async () => open): PostingCheckRunner {
  return new PostingCheckRunner({
    repository: w.repo,
    postingApi: (kind, config) => {
      w.apiAsked.push({ kind, config });
      return kind === ACME.kind && JSON.stringify(config) === JSON.stringify(ACME.config) ? ACME.api : null;
    },
    now: () => w.clock.now,
    inspect: async (target, signal) => {
      w.seen.push(target);
      return inspect(target, signal);
    },
  });
}

async function sweep(w: World, r = runner(w), signal = new AbortController().signal) {
  const admission = await w.repo.admitSweep(w.clock.now);
  if (!admission.admitted) throw new Error(`sweep refused: ${admission.reason}`);
  return r.sweep({ sweepId: admission.sweepId, admittedAt: w.clock.now, owner: 'sweeper', selection: () => selection }, signal);
}

const keys = (n: number, prefix = 'job') => Array.from({ length: n }, (_, i) => ({ key: `${prefix}-${String(i).padStart(3, '0')}` }));

describe('which jobs a sweep checks', () => {
  it('checks saved jobs only (prepared, or scored at or above the threshold), never checked ones first, and not a closed one again', async () => {
    const w = await world([
      { key: 'prepared', stage: 'prepared', score: 90 },
      { key: 'scored-high', stage: 'scored', score: 60 },
      { key: 'scored-low', stage: 'scored', score: 59 },
      { key: 'mid-prep', stage: 'pending_tailor', score: 90 },
      { key: 'closed-one', stage: 'prepared', score: 90 },
    ]);
    await runner(w).checkJob('closed-one', 'fg', new AbortController().signal);
    await w.uow.run(({ manager }) => manager.query(`UPDATE job_availability SET state = 'closed', checked_at = ? WHERE job_key = 'closed-one'`, [T0 - 100 * HOUR]));
    w.seen.length = 0;
    const result = await sweep(w);
    expect(w.seen.map((t) => t.jobKey).sort()).toEqual(['prepared', 'scored-high']);
    expect(result).toMatchObject({ claimed: 2, recorded: 2, stoppedBy: 'no_due_jobs' });
  });

  it('checks a job again only once its last check is availability_recheck_hours old', async () => {
    const w = await world([{ key: 'a' }]);
    await sweep(w);
    w.clock.now += 23 * HOUR;
    expect(await sweep(w)).toMatchObject({ claimed: 0, stoppedBy: 'no_due_jobs' });
    w.clock.now += 1 * HOUR;
    expect(await sweep(w)).toMatchObject({ claimed: 1, recorded: 1 });
  });

  it('backs off repeated unknown results: the interval doubles with each one (evidence backoff)', async () => {
    const w = await world([{ key: 'a' }]);
    const r = runner(w, async () => unknown);
    await sweep(w, r); // streak 1: due again after 24 h
    w.clock.now += 24 * HOUR;
    expect(await sweep(w, r)).toMatchObject({ claimed: 1 }); // streak 2: due after 48 h
    w.clock.now += 47 * HOUR;
    expect(await sweep(w, r)).toMatchObject({ claimed: 0 });
    w.clock.now += 1 * HOUR;
    expect(await sweep(w, r)).toMatchObject({ claimed: 1 });
    expect((await w.repo.availabilityOf('a'))?.uncertainStreak).toBe(3);
    // A certain answer resets it.
    w.clock.now += 96 * HOUR;
    await sweep(w, runner(w));
    expect((await w.repo.availabilityOf('a'))?.uncertainStreak).toBe(0);
  });
});

describe('A workspace admits at most one sweep per minute, 25 jobs per sweep and 100 posting acquisitions per hour; sweeps may use 80, preserving 20 for foreground work', () => {
  it('admits one sweep a minute', async () => {
    const w = await world([]);
    expect(await w.repo.admitSweep(T0)).toMatchObject({ admitted: true });
    expect(await w.repo.admitSweep(T0 + 59_999)).toMatchObject({ admitted: false, reason: 'sweep_interval' });
    expect(await w.repo.admitSweep(T0 + 60_000)).toMatchObject({ admitted: true });
  });

  it('claims at most 25 jobs in one sweep, however many are due', async () => {
    const w = await world(keys(30));
    const result = await sweep(w);
    expect(result).toMatchObject({ claimed: 25, recorded: 25, stoppedBy: 'sweep_job_limit' });
    expect((await w.repo.budget(w.clock.now)).state.charges).toHaveLength(25);
  });

  it('stops sweeps at 80 acquisitions in the hour, leaving 20 for foreground checks; 100 in all', async () => {
    const w = await world(keys(40));
    for (let i = 0; i < 70; i++) expect(await w.repo.chargeForeground(w.clock.now)).toMatchObject({ acquired: true });
    const result = await sweep(w);
    expect(result).toMatchObject({ claimed: 10, stoppedBy: 'sweep_share_exhausted' });
    // The reserved 20 are still there for the user.
    for (let i = 0; i < 20; i++) expect(await w.repo.chargeForeground(w.clock.now)).toMatchObject({ acquired: true });
    expect(await w.repo.chargeForeground(w.clock.now)).toMatchObject({ acquired: false, reason: 'hourly_limit_exhausted' });
    // The window slides: an hour after the first charges, capacity returns.
    w.clock.now += HOUR + 1;
    expect(await w.repo.chargeForeground(w.clock.now)).toMatchObject({ acquired: true });
  });

  it('reads capacity before claiming each job: a sweep whose share is spent leases nothing', async () => {
    const w = await world(keys(3));
    for (let i = 0; i < 80; i++) await w.repo.chargeForeground(w.clock.now);
    const result = await sweep(w).catch((e: Error) => e);
    // Admission itself already refuses a sweep that could not claim anything.
    expect(result).toBeInstanceOf(Error);
    expect(String(result)).toMatch(/sweep_share_exhausted/);
    for (const { key } of keys(3)) expect(await w.repo.leaseOf(key, w.clock.now)).toBeNull();
    expect(w.seen).toHaveLength(0);
  });

  it('charges an acquisition once, however many requests its check makes', async () => {
    const w = await world(keys(3));
    let requests = 0;
    await sweep(
      w,
      runner(w, async () => {
        requests += 12; // a check that used every request it is allowed
        return open;
      }),
    );
    expect(requests).toBe(36);
    expect((await w.repo.budget(w.clock.now)).state.charges).toHaveLength(3);
  });
});

describe('A 20-minute work budget stops admission below the 30-minute activity limit; cancellation stops acquisition before another job can be checked', () => {
  it('claims no job once the sweep is 20 minutes old, counted from its admission (a retried activity gets no fresh budget)', async () => {
    const w = await world(keys(7));
    const admission = await w.repo.admitSweep(T0);
    if (!admission.admitted) throw new Error('not admitted');
    const r = runner(w, async () => {
      w.clock.now += 4 * 60_000; // each check takes 4 minutes
      return open;
    });
    const result = await r.sweep({ sweepId: admission.sweepId, admittedAt: T0, owner: 'sweeper', selection: () => selection }, new AbortController().signal);
    // Checks started at 0, 4, 8, 12 and 16 minutes; at 20 minutes the budget is spent.
    expect(result).toMatchObject({ claimed: 5, recorded: 5, stoppedBy: 'work_budget' });
    expect(CHECK_WORK_BUDGET_MS).toBe(20 * 60_000);
  });

  it('a cancel mid-check releases the job, records nothing about the employer, and claims no other job', async () => {
    const w = await world(keys(3));
    const controller = new AbortController();
    const r = runner(w, async (_target, signal) => {
      controller.abort(new Error('cancelled by the user'));
      expect(signal.aborted).toBe(true);
      return { ...unknown, reason: 'request_aborted' };
    });
    const result = await sweep(w, r, controller.signal);
    expect(result).toMatchObject({ claimed: 1, recorded: 0, refused: 1, stoppedBy: 'cancelled' });
    const [first] = w.seen;
    expect(await w.repo.availabilityOf(first.jobKey)).toBeNull(); // no evidence, no backoff
    expect(await w.repo.leaseOf(first.jobKey, w.clock.now)).toBeNull(); // ownership back at once
  });
});

describe('a sweep is background work: it gives its slot back when other activities wait for one', () => {
  it('stops claiming as soon as others wait (the job in hand is finished first); the rest stay due for the next sweep', async () => {
    const w = await world(keys(4));
    const admission = await w.repo.admitSweep(T0);
    if (!admission.admitted) throw new Error('not admitted');
    const asked: number[] = [];
    // Nobody waits before the first two claims; then a discovery step queues behind the sweep.
    const othersWaiting = async () => {
      asked.push(w.seen.length);
      return w.seen.length >= 2;
    };
    const result = await runner(w).sweep({ sweepId: admission.sweepId, admittedAt: T0, owner: 'sweeper', selection: () => selection, othersWaiting }, new AbortController().signal);
    expect(result).toMatchObject({ claimed: 2, recorded: 2, stoppedBy: 'yielded' });
    expect(asked).toEqual([0, 1, 2]); // asked before each claim, never in the middle of a check
    // The two left are claimed by the next sweep (a minute later: one sweep per minute).
    w.clock.now += 60_000;
    expect(await sweep(w)).toMatchObject({ claimed: 2, recorded: 2, stoppedBy: 'no_due_jobs' });
    expect(new Set(w.seen.map((t) => t.jobKey)).size).toBe(4);
  });
});

describe('All waits and network work happen outside SQLite writer transactions; local refusals release job ownership without recording employer evidence or increasing evidence backoff', () => {
  it('holds no writer reservation while the posting is fetched: another connection writes at once', async () => {
    const w = await world(keys(2));
    // A second factory is a second connection, as another worker process would have: with a busy
    // timeout of 0 its immediate transaction fails at once if the check held the writer.
    const other = new UnitOfWorkFactory({ databasePath: w.uow.databasePath, entities: [], busyTimeoutMs: 0 });
    let writesDuringFetch = 0;
    await sweep(
      w,
      runner(w, async (target) => {
        await other.run(({ transaction }) => transaction((m) => m.query(`UPDATE jobs SET updated_at = updated_at WHERE job_key = ?`, [target.jobKey]), 'immediate'));
        writesDuringFetch += 1;
        return open;
      }),
    );
    expect(writesDuringFetch).toBe(2);
  });

  it('a refusal of our own making (marked local) gives the job back with no evidence and no backoff', async () => {
    const w = await world([{ key: 'a' }]);
    await runner(w, async () => unknown).checkJob('a', 'first', new AbortController().signal);
    expect((await w.repo.availabilityOf('a'))?.uncertainStreak).toBe(1);
    const refusal = Object.assign(new Error('host reservation refused'), { code: 'host_reservation_refused', local: true });
    const result = await runner(w, async () => {
      throw refusal;
    }).checkJob('a', 'second', new AbortController().signal);
    expect(result).toEqual({ jobKey: 'a', outcome: 'refused', state: null, reason: 'host_reservation_refused' });
    const after = await w.repo.availabilityOf('a');
    expect(after).toMatchObject({ state: 'unknown', uncertainStreak: 1, version: 1 });
    expect(await w.repo.leaseOf('a', w.clock.now)).toBeNull();
  });

  it('our own failure (not the posting\'s) releases the job and fails the attempt, recording nothing', async () => {
    const w = await world([{ key: 'a' }]);
    const broken = runner(w, async () => {
      throw new Error('disk I/O error');
    });
    await expect(broken.checkJob('a', 'first', new AbortController().signal)).rejects.toThrow('disk I/O error');
    expect(await w.repo.availabilityOf('a')).toBeNull();
    expect(await w.repo.leaseOf('a', w.clock.now)).toBeNull();
  });
});

describe('Availability owns per-job five-minute leases; independent jobs do not contend for a workspace-wide lease', () => {
  it('two checks of different jobs hold their leases at once; a second check of the same job is busy', async () => {
    const w = await world([{ key: 'a' }, { key: 'b' }]);
    const a = await w.repo.claimJob('a', 'one', JOB_LEASE_MS, T0);
    const b = await w.repo.claimJob('b', 'two', JOB_LEASE_MS, T0);
    expect(typeof a).toBe('object');
    expect(typeof b).toBe('object');
    expect(await w.repo.claimJob('a', 'three', JOB_LEASE_MS, T0 + 1000)).toBe('busy');
    expect(JOB_LEASE_MS).toBe(5 * 60_000);
    // Five minutes later the holder is presumed dead and the job is anyone's.
    expect(typeof (await w.repo.claimJob('a', 'three', JOB_LEASE_MS, T0 + JOB_LEASE_MS))).toBe('object');
  });

  it('a live check renews its lease, so a slow check keeps its job', async () => {
    const w = await world([{ key: 'a' }]);
    const claim = await w.repo.claimJob('a', 'slow', JOB_LEASE_MS, T0);
    if (typeof claim !== 'object') throw new Error('not claimed');
    expect(await w.repo.renewLease(claim, JOB_LEASE_MS, T0 + 4 * 60_000)).toBe(true);
    expect(await w.repo.claimJob('a', 'other', JOB_LEASE_MS, T0 + 6 * 60_000)).toBe('busy');
    expect(await w.repo.record(claim, open, T0 + 7 * 60_000)).toEqual({ accepted: true, state: 'open' });
  });
});

describe('Completion is fenced against crash recovery, supersession and canonical URL changes; a concurrent availability or content change rejects the stale result and preserves the newer state', () => {
  async function claimed(w: World, owner = 'first') {
    const claim = await w.repo.claimJob('a', owner, JOB_LEASE_MS, T0);
    if (typeof claim !== 'object') throw new Error('not claimed');
    return claim;
  }

  it('crash recovery: a verdict arriving after its lease expired and another check took the job is rejected', async () => {
    const w = await world([{ key: 'a' }]);
    const stale = await claimed(w);
    const recovered = await w.repo.claimJob('a', 'recovery', JOB_LEASE_MS, T0 + JOB_LEASE_MS + 1);
    if (typeof recovered !== 'object') throw new Error('not claimed');
    expect(await w.repo.record(stale, { ...open, state: 'closed', reason: 'closed_text' }, T0 + JOB_LEASE_MS + 2)).toEqual({ accepted: false, reason: 'lease_lost' });
    expect(await w.repo.record(recovered, open, T0 + JOB_LEASE_MS + 3)).toEqual({ accepted: true, state: 'open' });
    expect((await w.repo.availabilityOf('a'))?.state).toBe('open');
  });

  it('an expired lease nobody took yet is lost too (recovery may be about to take it)', async () => {
    const w = await world([{ key: 'a' }]);
    const stale = await claimed(w);
    expect(await w.repo.record(stale, open, T0 + JOB_LEASE_MS)).toEqual({ accepted: false, reason: 'lease_lost' });
  });

  it('supersession: another verdict landed since the claim (a takeover that finished first) — the newer state stands', async () => {
    const w = await world([{ key: 'a' }]);
    const slow = await claimed(w);
    // The slow check's lease expires; a recovery check claims, finishes, records `closed`.
    const fast = await w.repo.claimJob('a', 'fast', JOB_LEASE_MS, T0 + JOB_LEASE_MS);
    if (typeof fast !== 'object') throw new Error('not claimed');
    await w.repo.record(fast, { ...open, state: 'closed', reason: 'http_status' }, T0 + JOB_LEASE_MS + 1);
    // The slow one re-claims (as a retry would) but still carries its first snapshot.
    await w.uow.run(({ manager }) => manager.query(`INSERT INTO posting_check_leases (job_key, owner, kind, acquired_at, expires_at, snapshot_url, snapshot_stage_version, snapshot_availability_version) VALUES ('a', 'first', 'foreground', ?, ?, ?, 0, 0)`, [T0, T0 + 2 * JOB_LEASE_MS, slow.snapshot.url]));
    expect(await w.repo.record(slow, open, T0 + JOB_LEASE_MS + 2)).toEqual({ accepted: false, reason: 'superseded' });
    expect((await w.repo.availabilityOf('a'))?.state).toBe('closed');
    expect(await w.repo.leaseOf('a', T0 + JOB_LEASE_MS + 3)).toBeNull();
  });

  it('a canonical URL change under the check rejects the verdict about the old URL', async () => {
    const w = await world([{ key: 'a' }]);
    const claim = await claimed(w);
    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET canonical_url = 'https://jobs.test/moved' WHERE job_key = 'a'`));
    expect(await w.repo.record(claim, open, T0 + 1000)).toEqual({ accepted: false, reason: 'url_changed' });
    expect(await w.repo.availabilityOf('a')).toBeNull();
  });

  it('a content change under the check (the stage version moved) rejects it and leaves the job as the newer write left it', async () => {
    const w = await world([{ key: 'a' }]);
    const claim = await claimed(w);
    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET stage_version = stage_version + 1, stage = 'pending_tailor' WHERE job_key = 'a'`));
    expect(await w.repo.record(claim, { ...open, state: 'closed', reason: 'closed_text' }, T0 + 1000)).toEqual({ accepted: false, reason: 'content_changed' });
    expect(await w.repo.availabilityOf('a')).toBeNull();
  });

  it('the runner reports a rejected verdict as rejected, not recorded', async () => {
    const w = await world([{ key: 'a' }]);
    const r = runner(w, async () => {
      await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET canonical_url = 'https://jobs.test/elsewhere' WHERE job_key = 'a'`));
      return open;
    });
    expect(await r.checkJob('a', 'fg', new AbortController().signal)).toMatchObject({ outcome: 'rejected', reason: 'url_changed', state: null });
  });
});

describe('the target a check reads', () => {
  it('names the board API of an ATS source (its config board and base_url) and the canonical page', async () => {
    const w = await world([{ key: 'a' }]);
    await w.uow.run(({ manager }) =>
      manager.query(`INSERT INTO sources (id, kind, name, family, enabled, config, created_at, updated_at) VALUES ('s1', 'greenhouse', 'Acme', 'greenhouse:acme', 1, ?, 0, 0)`, [
        JSON.stringify({ board_token: 'acme', base_url: 'http://127.0.0.1:9/' }),
      ]),
    );
    await runner(w).checkJob('a', 'fg', new AbortController().signal);
    expect(w.seen[0]).toEqual({ jobKey: 'a', url: 'https://jobs.test/a', api: { kind: 'greenhouse', baseUrl: 'http://127.0.0.1:9', board: 'acme', externalId: 'a' } });
    // The source's stored config, as stored, goes to discovery's rules with its kind.
    expect(w.apiAsked).toEqual([{ kind: ACME.kind, config: ACME.config }]);
  });

  it('has no API when its source\'s stored config is not JSON (the resolver is not asked; the page still is checked)', async () => {
    const w = await world([{ key: 'a' }]);
    await w.uow.run(({ manager }) =>
      manager.query(`INSERT INTO sources (id, kind, name, family, enabled, config, created_at, updated_at) VALUES ('s1', 'greenhouse', 'Acme', 'greenhouse:acme', 1, ?, 0, 0)`, ['{not json']),
    );
    await runner(w).checkJob('a', 'fg', new AbortController().signal);
    expect(w.seen[0]).toMatchObject({ jobKey: 'a', api: null });
    expect(w.apiAsked).toEqual([]);
  });
});
