// `npm run faults [-- --only <substring>[,<substring>…]] [--jobs-per-board 5]`: issue #15's fault
// suite. One real stack (`npm start` on a throwaway config: Temporal dev server with its history on
// disk, the compiled worker and API), the board simulator and the LLM simulator as an OpenAI-
// compatible model server (so preparations make model calls); every case runs a full run through
// the API against a simulator of its own, injects its fault (fault-cases.ts), waits until the run and
// its jobs settle, and prints one row:
//
//   case | jobs expected | jobs final | lost | duplicate preparations | clear error | recovery s
//
// then one JSON line with every row (and loadavg: the machine may be shared, so recovery times are noisy).
// A case that breaks the stack gets a fresh start before the next one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { startLlmSimulator, type SimulatedLlmRequest } from '@jobctrl/shared/llm/testing';
import { startBoardSimulator, type BoardSimulator } from '@jobctrl/tools/fixtures';
import { waitFor } from '@jobctrl/tools/processes';
import { createPipelineResponder } from '../../apps/worker/src/test-support/llm-responder';
import { faultCases, type CaseEnv, type FaultCase } from './fault-cases';
import { deferredJob, duplicatePreparations, jobsOfRun, prepExecutions, runningPreps, stuckJobs, TERMINAL_RUN_STATES, unclearFailures, type RunView } from './fault-counts';
import { FaultStack, type RestartedBy } from './fault-stack';

interface Row {
  case: string;
  jobs_expected: number;
  jobs_final: number;
  lost: number;
  duplicate_preparations: number;
  clear_error: boolean;
  recovery_s: number | null;
  run_state: string;
  restarted_by: RestartedBy | null;
  failed_prep_executions: number;
  /** Jobs waiting, with their reason, for a scheduled capture retry (counted in jobs final, not lost). */
  deferred: number;
  notes: string[];
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** A small tmpfs for the app database (the full-disk case fills it); null when mount is refused. */
function mountDbTmpfs(dir: string): string | null {
  const at = path.join(dir, 'dbfs');
  fs.mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    return null;
  }
}

async function runCase(stack: FaultStack, c: FaultCase, index: number, env0: Omit<CaseEnv, 'board' | 'runId' | 'sourceIds' | 'injected' | 'restartedBy' | 'note'>, jobsPerBoard: number): Promise<Row> {
  const notes: string[] = [];
  let injectedAt: number | null = null;
  let restartedBy: RestartedBy | null = null;
  const families = [
    { kind: 'greenhouse' as const, token: `acme${index}` },
    { kind: 'lever' as const, token: `globex${index}` },
  ];
  const board: BoardSimulator = await startBoardSimulator({ seed: 100 + index, jobsPerBoard, families, knobs: c.knobs });
  const sourceIds: string[] = [];
  const row: Row = { case: c.name, jobs_expected: 0, jobs_final: 0, lost: 0, duplicate_preparations: 0, clear_error: false, recovery_s: null, run_state: 'not started', restarted_by: null, failed_prep_executions: 0, deferred: 0, notes };
  try {
    const manifest = board.manifest();
    for (const b of manifest.boards) {
      const [kind, token] = b.key.split(':');
      const config = kind === 'lever' ? { site: token, base_url: board.url, company_name: b.company } : { board_token: token, base_url: board.url };
      const created = await stack.post<{ id: string }>('/v1/sources', { kind, name: `${token}`, config });
      sourceIds.push(created.id);
    }
    const unreachable = new Set((c.unreachableBoards ?? []).map((k) => (k === 'first' ? manifest.boards[0].key : k)));
    const expected = manifest.jobs.filter((j) => j.repostOf === null && !unreachable.has(j.board));
    row.jobs_expected = expected.length;
    const env: CaseEnv = {
      ...env0,
      board,
      runId: '',
      sourceIds,
      injected: () => void (injectedAt ??= Date.now()),
      restartedBy: (by) => void (restartedBy = by),
      note: (t) => void notes.push(t),
    };
    await c.before?.(env);
    const started = await stack.post<{ runId: string }>('/v1/pipeline/runs', { stages: ['discover', 'score', 'tailor', 'cover'], sourceIds });
    env.runId = started.runId;
    await c.inject(env);
    row.restarted_by = restartedBy;

    // Settled: the run is terminal, no job waits in a pending stage while its preparation runs.
    const t = await env.stack.temporal();
    try {
      const settled = await waitFor(
        async () => {
          const run = await stack.json<RunView>(`/v1/pipeline/runs/${env.runId}`);
          if (!TERMINAL_RUN_STATES.has(run.state)) return { progress: [run.state, run.progress, run.preparation] };
          const jobs = await jobsOfRun(stack, env.runId);
          const keys = new Set(jobs.map((j) => j.idempotencyKey));
          const running = runningPreps(await prepExecutions(t.client), keys);
          return running === 0 ? { done: { run, at: Date.now() } } : { progress: [run.state, running, jobs.map((j) => j.stage)] };
        },
        { what: `case "${c.name}" to settle`, idleTimeoutMs: 120_000, intervalMs: 500 },
      );
      env0.setLlmLatency(() => 0);
      if (injectedAt !== null) row.recovery_s = Math.round((settled.at - injectedAt) / 100) / 10;
      await c.after?.(env);
      const run = await stack.json<RunView>(`/v1/pipeline/runs/${env.runId}`);
      row.run_state = run.state;
      const jobs = await jobsOfRun(stack, env.runId);
      const details = await Promise.all(jobs.map((j) => stack.json<Record<string, unknown>>(`/v1/jobs/${encodeURIComponent(j.jobKey)}`)));
      const stuck = stuckJobs(details);
      const deferred = details.filter(deferredJob);
      row.deferred = deferred.length;
      for (const d of deferred) notes.push(`deferred: ${String(d['jobKey'])} waits for its capture retry at ${String(d['enrichmentNextAttemptAt'])} (${String(d['enrichmentError'])})`);
      const byUrl = new Set(jobs.map((j) => String(j['url'] ?? '')));
      const missing = expected.filter((j) => !byUrl.has(j.url));
      row.jobs_final = jobs.length - stuck.length;
      row.lost = missing.length + stuck.length;
      if (missing.length) notes.push(`missing: ${missing.map((j) => j.url).join(' ')}`);
      if (stuck.length) notes.push(`stuck: ${stuck.map((j) => `${String(j['jobKey'])}@${String(j['stage'])}`).join(' ')}`);
      const execs = await prepExecutions(t.client);
      const dup = duplicatePreparations(execs, new Set(jobs.map((j) => j.idempotencyKey)));
      row.duplicate_preparations = dup.duplicates;
      row.failed_prep_executions = dup.failedRetried;
      if (dup.ids.length) notes.push(`duplicate prep: ${dup.ids.join(' ')}`);
      const unclear = unclearFailures(run, details);
      row.clear_error = unclear.length === 0;
      notes.push(...unclear);
      if (run.state !== 'completed' && run.error) notes.push(`run error: ${run.error}`);
    } finally {
      await t.close();
    }
  } catch (err) {
    notes.push(`case error: ${err instanceof Error ? err.message.split('\n').slice(0, 3).join(' ') : String(err)}`);
  } finally {
    env0.setLlmLatency(() => 0);
    // Off for the cases after this one: a run over all sources must not reach a simulator that is gone.
    for (const id of sourceIds) await stack.post(`/v1/sources/${id}`, { enabled: false }, 'PATCH').catch((err: Error) => notes.push(`could not disable source ${id}: ${err.message}`));
    await board.stop();
  }
  return row;
}

function table(rows: Row[]): string {
  const head = ['case', 'jobs expected', 'jobs final', 'lost', 'duplicate preparations', 'clear error', 'recovery s'];
  const cells = rows.map((r) => [r.case, String(r.jobs_expected), String(r.jobs_final), String(r.lost), String(r.duplicate_preparations), r.clear_error ? 'yes' : 'NO', r.recovery_s === null ? '-' : r.recovery_s.toFixed(1)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
  const only = arg('only')?.split(',').map((s) => s.trim().toLowerCase());
  const jobsPerBoard = Number(arg('jobs-per-board') ?? 5);
  const cases = faultCases().filter((c) => !only || only.some((o) => c.name.toLowerCase().includes(o)));
  const started = Date.now();
  let latency: (req: SimulatedLlmRequest) => number = () => 0;
  const llm = await startLlmSimulator({ respond: createPipelineResponder(), latencyMs: (req) => latency(req) });
  const stack = new FaultStack();
  const dbMount = mountDbTmpfs(stack.dir);
  await stack.init({
    config: {
      llm: { provider: 'openai', model: 'fault-sim', base_url: llm.url, timeout_seconds: 5 },
      ...(dbMount ? { database_path: path.join(dbMount, 'jobctrl.sqlite') } : {}),
    },
  });
  const rows: Row[] = [];
  try {
    console.error(`[faults] stack in ${stack.dir} (app database on ${dbMount ? 'a 64 MB tmpfs' : 'the app dir: mount refused'}), ${cases.length} cases`);
    await stack.start();
    await stack.post('/v1/profile', sampleProfile(), 'PUT');
    for (const [i, c] of cases.entries()) {
      if (!stack.running() || (await stack.health().catch(() => null))?.worker.status !== 'ready') {
        console.error('[faults] the stack is not whole: starting it again');
        await stack.stop();
        await stack.start();
      }
      const t0 = Date.now();
      console.error(`[faults] ${c.name}…`);
      const row = await runCase(stack, c, i, { stack, llm, setLlmLatency: (fn) => void (latency = fn), dbMount }, jobsPerBoard);
      rows.push(row);
      console.error(`[faults] ${c.name}: ${((Date.now() - t0) / 1000).toFixed(1)} s ${JSON.stringify(row)}`);
    }
  } finally {
    await stack.stop();
    await llm.close();
    if (dbMount) {
      try {
        execFileSync('umount', [dbMount], { stdio: 'ignore' });
      } catch {
        // busy: left for the next boot; the dir is temporary
      }
    }
    if (!process.argv.includes('--keep')) stack.remove();
    else console.error(`[faults] kept ${stack.dir}`);
  }
  console.log(table(rows));
  console.log(
    JSON.stringify({
      rows,
      all_ok: rows.every((r) => r.lost === 0 && r.duplicate_preparations === 0 && r.clear_error),
      total_s: Math.round((Date.now() - started) / 1000),
      loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
      cpus: os.cpus().length,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
