// npm run bench [-- --full] [--only a,b] [--out FILE]: runs every bench of this folder one after the
// other (never two at once: they would measure each other), writes bench-results.json (every bench's
// JSON result, the machine, the commit, each target's verdict) and prints the README's table on
// stderr. The last stdout line is one JSON object: {out, failed, figures}. Exit 1 when a bench failed.
import { execSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseOrExit, UsageError } from './bench-args';
import { BenchRun, figures, lastJsonLine, Machine, markdownTable, SUITE, SuiteSize } from './bench-suite.runner';

const USAGE = `Usage: npm run bench -- [--full] [--only NAMES] [--out FILE]

Runs every bench one after the other and writes their results with the machine and the commit.

  --full        the sizes the issue #14 targets are stated at (slower: ~20 min on 2 cores)
  --only NAMES  comma-separated subset of: ${SUITE.map((s) => s.name).join(', ')}
  --out FILE    where to write the results                      default bench-results.json
  -h, --help    this text`;

const root = resolve(__dirname, '../..');

function parse(argv: string[]): { size: SuiteSize; only: string[]; out: string } | 'help' {
  const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { full: { type: 'boolean', default: false }, only: { type: 'string' }, out: { type: 'string', default: 'bench-results.json' }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) return 'help';
  const only = values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : SUITE.map((s) => s.name);
  const unknown = only.filter((n) => !SUITE.some((s) => s.name === n));
  if (unknown.length > 0) throw new UsageError(`--only: unknown bench ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${SUITE.map((s) => s.name).join(', ')})`);
  return { size: values.full ? 'full' : 'small', only, out: resolve(root, values.out ?? 'bench-results.json') };
}

/** Runs one bench as the user would (`npm run -s …`); its stderr passes through, stdout is kept. */
function runOne(script: string, args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; wallMs: number }> {
  const t0 = Date.now();
  return new Promise((resolveRun, reject) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ code, signal, stdout, wallMs: Date.now() - t0 }));
  });
}

function machine(): Machine {
  const list = cpus();
  return { cpus: list.length, cpuModel: list[0]?.model.trim() ?? 'unknown', memGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}/${process.arch}`, loadavgStart: loadavg() };
}

function commit(): string {
  try {
    const sha = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', { cwd: root, encoding: 'utf8' }).trim().length > 0;
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

/** 1-min load average a bench may start at: below one busy core, the previous bench's load has gone. */
const QUIET_LOAD = 1;
/** Longest wait for it (the 1-min average decays by e every minute: 8 → 1 takes ≈ 2 min). */
const SETTLE_MAX_MS = 150_000;

/**
 * Waits until the machine is quiet before a bench: the one before (Chromium renders, a dev server
 * shutting down) leaves a load that decays over minutes, and a bench started into it measures its
 * predecessor (session 5's prepare ran at load 8 after discover). Gives up after SETTLE_MAX_MS; the
 * load it started at is recorded beside its result either way.
 */
async function settle(): Promise<{ load: number; waitedMs: number }> {
  const t0 = Date.now();
  while (loadavg()[0] > QUIET_LOAD && Date.now() - t0 < SETTLE_MAX_MS) await new Promise((r) => setTimeout(r, 5_000));
  return { load: loadavg()[0], waitedMs: Date.now() - t0 };
}

async function main(): Promise<void> {
  const opts = parseOrExit(() => parse(process.argv.slice(2)), USAGE);
  const host = machine();
  const runs: BenchRun[] = [];
  for (const entry of SUITE.filter((s) => opts.only.includes(s.name))) {
    const args = entry.args[opts.size];
    const command = `npm run -s ${entry.script}${args.length ? ` -- ${args.join(' ')}` : ''}`;
    const settled = await settle();
    process.stderr.write(`\n[bench] ${entry.name}: ${command} (load ${settled.load.toFixed(2)} after ${(settled.waitedMs / 1000).toFixed(0)} s of settling)\n`);
    const run = await runOne(entry.script, args);
    let result: Record<string, unknown> | null = null;
    let error: string | undefined;
    if (run.code !== 0) error = `exited ${run.signal ?? run.code}`;
    else {
      try {
        result = lastJsonLine(run.stdout);
      } catch (err) {
        error = (err as Error).message;
      }
    }
    runs.push({ name: entry.name, command, exitCode: run.code, wallMs: run.wallMs, loadBefore: settled.load, settledMs: settled.waitedMs, result, ...(error ? { error } : {}) });
    process.stderr.write(`[bench] ${entry.name}: ${error ?? 'done'} in ${(run.wallMs / 1000).toFixed(1)} s\n`);
  }
  const figs = figures(runs);
  const meta = { date: new Date().toISOString(), commit: commit(), size: opts.size };
  writeFileSync(opts.out, `${JSON.stringify({ ...meta, machine: { ...host, freeMemGiB: Math.round(freemem() / 2 ** 30), loadavgEnd: loadavg() }, figures: figs, runs }, null, 2)}\n`);
  process.stderr.write(`\n${markdownTable(figs, host, { ...meta, date: meta.date.slice(0, 10) })}\n\n[bench] results in ${opts.out}\n`);
  const failed = runs.filter((r) => r.error).map((r) => r.name);
  process.stdout.write(`${JSON.stringify({ out: opts.out, failed, figures: figs.map(({ bench, field, measured, verdict }) => ({ bench, field, measured, verdict })) })}\n`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
