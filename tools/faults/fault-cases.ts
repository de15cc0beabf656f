// The fault cases of issue #15. Each case gets its own board simulator (its own seed and board
// tokens, so its jobs are its own even on a stack shared with the other cases), starts a full run
// (discover → score → tailor → cover) through the API, injects its fault at the moment it names, and
// brings back what it broke. The runner (faults.ts) then waits for the run and its jobs to settle and
// counts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as sqlite3 from 'sqlite3';
import type { BoardSimulator, Knobs } from '@jobctrl/tools/fixtures';
import type { LlmSimulator, LlmSimulatorStep, SimulatedLlmRequest } from '@jobctrl/shared/llm/testing';
import { waitFor } from '@jobctrl/tools/processes';
import type { FaultStack, Part, RestartedBy } from './fault-stack';

export interface CaseEnv {
  stack: FaultStack;
  board: BoardSimulator;
  llm: LlmSimulator;
  /** Extra model latency per request while this case runs (the runner resets it). */
  setLlmLatency(fn: (req: SimulatedLlmRequest) => number): void;
  runId: string;
  /** The case's own sources (its simulator's boards): a second run of the case names them. */
  sourceIds: string[];
  /** Marks the fault injection: recovery time counts from here. */
  injected(): void;
  restartedBy(by: RestartedBy): void;
  note(text: string): void;
  /** The tmpfs the app database lives on, when the suite could mount one. */
  dbMount: string | null;
}

export interface FaultCase {
  name: string;
  /** Simulator knobs from the start (latency to make a phase long enough to hit). */
  knobs?: Knobs;
  /** Board keys whose jobs cannot be discovered in this case (a board that only ever fails). */
  unreachableBoards?: string[];
  before?(env: CaseEnv): Promise<void> | void;
  inject(env: CaseEnv): Promise<void>;
  /** After the run settled (a second run, a check of what must not have changed). */
  after?(env: CaseEnv): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function until(what: string, probe: () => boolean | Promise<boolean>, idleTimeoutMs = 120_000): Promise<unknown> {
  return waitFor(async () => ((await probe()) ? { done: true } : { progress: null }), { what, idleTimeoutMs, intervalMs: 50 });
}

const requestsTo = (board: BoardSimulator, prefix: string) =>
  Object.entries(board.stats().requests)
    .filter(([p]) => p.startsWith(prefix))
    .reduce((s, [, n]) => s + n, 0);
const listRequests = (board: BoardSimulator) => requestsTo(board, '/v1/boards/') + requestsTo(board, '/v0/postings/');

/** kill -9 of a part, then the restart (supervision's or the suite's). */
async function killAndRecover(env: CaseEnv, part: Part, degradedMs?: number): Promise<void> {
  const pid = env.stack.kill(part);
  env.injected();
  const by = await env.stack.recover(part, pid, degradedMs);
  env.restartedBy(by);
  const { ms, built } = env.stack.lastStart;
  if (by === 'suite') env.note(`npm start again: ready in ${(ms / 1000).toFixed(1)} s${built ? ', including a rebuild of sources changed meanwhile' : ''}`);
}

/** kill -9 of the worker once `phase` holds. */
function killWorkerWhen(what: string, phase: (env: CaseEnv) => boolean): (env: CaseEnv) => Promise<void> {
  return async (env) => {
    await until(what, () => phase(env));
    await killAndRecover(env, 'worker');
  };
}

/** Runs `sql` on a second connection to the app database, holding it (BEGIN IMMEDIATE) for `holdMs`. */
async function holdWriteLock(file: string, holdMs: number, during?: () => Promise<void>): Promise<void> {
  const db = new sqlite3.Database(file);
  const run = (sql: string) => new Promise<void>((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
  db.configure('busyTimeout', 30_000);
  await run('BEGIN IMMEDIATE');
  try {
    await Promise.all([sleep(holdMs), during?.()]);
  } finally {
    await run('ROLLBACK');
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

const appDb = (env: CaseEnv) => path.join(env.dbMount ?? env.stack.appDir, 'jobctrl.sqlite');
const llmCalls = (env: CaseEnv) => env.llm.requests.length;

/** A case whose fault lands once the run's model calls are under way (each answered after `latencyMs`). */
function duringPreparation(name: string, latencyMs: number, fault: (env: CaseEnv) => Promise<void>): FaultCase {
  let base = 0;
  return {
    name,
    before: (env) => {
      base = llmCalls(env);
      env.setLlmLatency(() => latencyMs);
    },
    inject: async (env) => {
      await until('model calls under way', () => llmCalls(env) >= base + 3);
      await fault(env);
    },
  };
}

/** Steps the model server answers with instead of a model answer, for the case's first calls. */
function modelFault(name: string, steps: LlmSimulatorStep[]): FaultCase {
  return {
    name,
    inject: async (env) => {
      const base = llmCalls(env);
      env.llm.enqueue(...steps);
      env.injected();
      await until('the model faults to be served', () => env.llm.pendingSteps === 0 || llmCalls(env) > base + steps.length);
    },
  };
}

/** Detail pages the crawler must survive: each mode on one job of the case's first board. */
const HOSTILE_MODES: Array<[string, Record<string, unknown>]> = [
  ['10 MB body', { mode: 'bloated', bytes: 10_000_000, contentLength: true }],
  ['1 byte/s drip', { mode: 'byte_drip', intervalMs: 1000 }],
  ['redirect loop', { mode: 'redirect_loop' }],
  ['gzip bomb', { mode: 'gzip_bomb' }],
  ['invalid UTF-8', { mode: 'invalid_utf8' }],
  ['deeply nested HTML', { mode: 'deep_nesting' }],
  ['5 MB JSON-LD', { mode: 'huge_jsonld' }],
];

export function faultCases(): FaultCase[] {
  return [
    { name: 'baseline (no fault)', inject: async (env) => env.injected() },
    {
      name: 'kill -9 worker mid-family',
      // Lever pages of 2 at 300 ms each: the family lasts seconds.
      knobs: { latencyMs: 300, pageSize: 2 },
      inject: killWorkerWhen('a family under way', (env) => listRequests(env.board) >= 2),
    },
    {
      name: 'kill -9 worker mid-live-enrichment',
      knobs: { paths: { '/jobs/': { latencyMs: 1500 } } },
      inject: killWorkerWhen('a detail page being fetched', (env) => requestsTo(env.board, '/jobs/') >= 1),
    },
    duringPreparation('kill -9 worker mid-preparation batch', 400, (env) => killAndRecover(env, 'worker')),
    (() => {
      let base = 0;
      const isReview = (r: { body?: Record<string, unknown> }) => /factual_review|quality_review/.test(JSON.stringify(r.body ?? {}));
      return {
        name: 'kill -9 worker mid-review pair',
        before: (env: CaseEnv) => {
          base = env.llm.requests.length;
          env.setLlmLatency((req) => (/review/.test(req.schemaName) ? 3000 : 0));
        },
        inject: killWorkerWhen('a review pair in flight', (env) => env.llm.requests.slice(base).some(isReview)),
      };
    })(),
    {
      name: 'kill -9 worker during a heartbeat write',
      inject: async (env) => {
        await until('discovery under way', () => listRequests(env.board) >= 1);
        // With the write lock held elsewhere the worker's next heartbeat (every 1 s) waits inside its
        // write: the kill lands in it, deterministically.
        let killed: Promise<void> = Promise.resolve();
        await holdWriteLock(appDb(env), 2500, async () => {
          await sleep(2000);
          killed = killAndRecover(env, 'worker');
        });
        await killed;
      },
    },
    duringPreparation('restart of the Temporal dev server mid-run', 300, (env) => killAndRecover(env, 'temporal', 20_000)),
    {
      name: 'kill -9 API mid-request, then a restart',
      inject: async (env) => {
        await until('discovery under way', () => listRequests(env.board) >= 1);
        // A write (the runtime settings) and a read in flight when the API dies.
        const inFlight = [
          env.stack.api('/v1/discovery/runtime', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"max_parallel_families":2}' }),
          env.stack.api('/v1/jobs?limit=100'),
        ].map((p) => p.then((r) => r.status, (e: Error) => e.message));
        await sleep(5);
        const recovered = killAndRecover(env, 'api');
        env.note(`in-flight requests ended: ${(await Promise.all(inFlight)).join(', ')}`);
        await recovered;
        const runtime = await env.stack.json<Record<string, unknown>>('/v1/discovery/runtime');
        env.note(`runtime after restart: ${JSON.stringify(runtime)}`);
        // Back to the default for the next cases (whether or not the PATCH got through).
        await env.stack.post('/v1/discovery/runtime', { max_parallel_families: 1 }, 'PATCH');
      },
    },
    duringPreparation('SQLite write lock held 10 s', 200, async (env) => {
      env.injected();
      await holdWriteLock(appDb(env), 10_000);
    }),
    duringPreparation('full disk for the app database (tmpfs)', 200, async (env) => {
      if (!env.dbMount) throw new Error('no tmpfs for the app database (mount refused): case not run');
      const filler = path.join(env.dbMount, 'filler.bin');
      // Fill the mount to the last byte: every write of the app database now fails with SQLITE_FULL.
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { stdio: 'ignore' });
      } catch {
        // dd ends with "No space left on device", which is the point
      }
      env.injected();
      await sleep(10_000);
      fs.rmSync(filler, { force: true });
    }),
    ...HOSTILE_MODES.map(
      ([label, mode]): FaultCase => ({
        name: `hostile page: ${label}`,
        before: (env) => {
          const job = env.board.manifest().jobs.filter((j) => j.repostOf === null)[0];
          env.board.setKnobs({ postings: { [job.gid]: mode } } as Knobs);
          env.note(`gid ${job.gid}`);
        },
        inject: async (env) => env.injected(),
      }),
    ),
    {
      name: 'malformed board JSON',
      before: (env) => env.board.setKnobs({ boards: { [env.board.manifest().boards[0].key]: { malformedJson: true } } }),
      unreachableBoards: ['first'],
      inject: async (env) => env.injected(),
    },
    {
      name: 'board 500, then recovering',
      before: (env) => env.board.setKnobs({ boards: { [env.board.manifest().boards[0].key]: { fail5xx: { nextN: 3, status: 500 } } } }),
      inject: async (env) => env.injected(),
    },
    {
      name: 'board 200 empty list after a full one',
      inject: async (env) => env.injected(),
      after: async (env) => {
        const before = await env.stack.json<{ total: number }>('/v1/jobs?limit=1');
        env.board.setKnobs({ emptyList: true } as Knobs);
        const run = await env.stack.post<{ runId: string }>('/v1/pipeline/runs', { stages: ['discover'], sourceIds: env.sourceIds });
        await waitFor(
          async () => {
            const view = await env.stack.json<{ state: string }>(`/v1/pipeline/runs/${run.runId}`);
            return ['completed', 'failed', 'cancelled'].includes(view.state) ? { done: view } : { progress: view };
          },
          { what: 'the run over empty lists', idleTimeoutMs: 120_000 },
        );
        const after = await env.stack.json<{ total: number }>('/v1/jobs?limit=1');
        const closed = await env.stack.json<{ total: number }>('/v1/jobs?limit=1&availability=closed').catch(() => ({ total: -1 }));
        env.note(`jobs before ${before.total}, after the empty run ${after.total}, closed ${closed.total}`);
        if (after.total < before.total || closed.total > 0) throw new Error(`the empty list removed or closed jobs: ${before.total} → ${after.total}, closed ${closed.total}`);
      },
    },
    modelFault('model 429 with Retry-After', Array.from({ length: 3 }, () => ({ status: 429, retryAfter: '1' }))),
    modelFault('model 500', Array.from({ length: 3 }, () => ({ status: 500 }))),
    modelFault('model malformed JSON', Array.from({ length: 3 }, () => ({ malformedBody: true as const }))),
    modelFault('model cut-off answer', Array.from({ length: 3 }, () => ({ cutOff: true as const }))),
    modelFault('model timing out', Array.from({ length: 2 }, () => ({ hangMs: 8_000 }))),
  ];
}
