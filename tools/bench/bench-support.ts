// What every bench of this folder shares: stderr logging, the stack of things to stop, one in-memory
// Temporal dev server with a worker and a client connection, and the command wrapper (signals,
// cleanup, the JSON result as the last stdout line, exit codes).
import * as fs from 'node:fs';
import * as os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, makeTelemetryFilterString, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { ensureTemporalCli, startDevServer, type DevServer } from '@jobctrl/tools/temporal';

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)}s`;

/** The machine's CPU counters (/proc/stat, every core): busy and total jiffies; undefined off Linux. */
export interface MachineCpuSample {
  busy: number;
  total: number;
  at: number;
}

export function machineCpu(): MachineCpuSample | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    // cpu user nice system idle iowait irq softirq steal …; idle and iowait are the not-busy columns.
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busy, total: busy + idle + iowait, at: Date.now() };
  } catch {
    return undefined;
  }
}

/**
 * How busy every core of the machine was between two samples — the bench and everything it started
 * (worker, dev server, Chromium, simulator) and anything else running: `utilisation` 1 is every core
 * busy the whole time (a CPU-bound interval), `cpu_s` the CPU time spent.
 */
export function machineCpuBetween(a: MachineCpuSample | undefined, b: MachineCpuSample | undefined): { utilisation: number; cpu_s: number } | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  const utilisation = (b.busy - a.busy) / (b.total - a.total);
  return { utilisation: Math.round(utilisation * 1000) / 1000, cpu_s: Math.round(((utilisation * os.cpus().length * (b.at - a.at)) / 1000) * 10) / 10 };
}

/** CPU time (user + system, its waited-for children included) of another process, from /proc; undefined where there is none. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
    return ((utime + stime + cutime + cstime) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** An error's message with its causes, for one stderr line. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause ? `${err.message} (${describe(cause)})` : err.message;
}

// ---------------------------------------------------------------------------------------------------
// Everything a bench starts registers how to stop it; stopAll() runs those in reverse order, once,
// on success, on error and on SIGINT/SIGTERM.
// ---------------------------------------------------------------------------------------------------

const stack: Array<{ name: string; stop: () => Promise<unknown> }> = [];
let stopping: Promise<void> | undefined;
/** Set by SIGINT/SIGTERM: measurement loops give up and every stop gets a shorter deadline. */
let interrupted = false;

export function isInterrupted(): boolean {
  return interrupted;
}

export function onStop(name: string, stop: () => Promise<unknown>): void {
  stack.push({ name, stop });
}

export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    while (stack.length > 0) {
      const { name, stop } = stack.pop() as (typeof stack)[number];
      // On a signal the dev server is already stopping (dev-server.js), so a worker cannot drain anyway.
      const limitMs = interrupted ? 5_000 : 20_000;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([stop(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${limitMs / 1000} s`)), limitMs)))]);
      } catch (err) {
        log(`stopping ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  })();
  return stopping;
}

/** Stops one started thing now (a phase's worker, a repetition's simulator) instead of at the end. */
export async function stopNamed(name: string): Promise<void> {
  const at = stack.map((e) => e.name).lastIndexOf(name);
  if (at < 0) return;
  const [entry] = stack.splice(at, 1);
  await entry.stop();
}

// ---------------------------------------------------------------------------------------------------

const PROGRESS_EVERY_MS = 2000;

/**
 * Waits for a started workflow's result (bench:prepare's and bench:rescore's JobPipelineWorkflow): a
 * `+elapsed <status>` progress line every 2 s, and it gives up — with the status in the error — past
 * `timeoutS` after `t0`, on SIGINT/SIGTERM, or once the worker stopped on its own (`throwIfStopped`).
 * `at` is when the result arrived, not the next poll, so the bench's wall time does not include the
 * 50 ms polling step.
 */
export async function awaitWorkflowResult<R>(
  handle: { workflowId: string; result(): Promise<R> },
  o: { t0: number; timeoutS: number; throwIfStopped(): void; status(elapsedMs: number): Promise<string> },
): Promise<{ at: number; result: R }> {
  let done: { at: number; result?: R; error?: unknown } | undefined;
  handle.result().then(
    (result) => (done = { at: Date.now(), result }),
    (error: unknown) => (done = { at: Date.now(), error }),
  );
  const deadline = o.t0 + o.timeoutS * 1000;
  let lastProgress = o.t0;
  while (!done) {
    if (isInterrupted()) throw new Error('interrupted');
    o.throwIfStopped();
    const now = Date.now();
    if (now > deadline) throw new Error(`not finished after ${o.timeoutS}s: ${await o.status(now - o.t0)}`);
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      log(`+${secs(now - o.t0)} ${await o.status(now - o.t0)}`);
    }
    await sleep(50);
  }
  const finished = done as { at: number; result?: R; error?: unknown };
  if (finished.error !== undefined) throw new Error(`${handle.workflowId} failed: ${describe(finished.error)}`);
  return { at: finished.at, result: finished.result as R };
}

/** A running worker of a bench (runWorker). */
export interface WorkerRun {
  /** Fails a wait loop once the worker stopped on its own: a bench must not wait out its deadline for a worker that is gone. */
  throwIfStopped(label?: string): void;
}

/**
 * Runs a built worker (createJobctrlWorker's) until everything is stopped, or stopNamed(name): shut
 * down, drained, then its own resources closed (`close`: worker threads, the browser where it has one).
 */
export function runWorker(name: string, jw: { worker: Pick<Worker, 'run' | 'getState' | 'shutdown'>; close(): Promise<void> }): WorkerRun {
  const running = jw.worker.run();
  let stopped: unknown;
  running.then(
    () => (stopped ??= new Error('the worker stopped')),
    (err: unknown) => (stopped ??= err),
  );
  onStop(name, async () => {
    if (jw.worker.getState() === 'RUNNING') jw.worker.shutdown();
    await running.catch((err: unknown) => log(`${name} stopped with an error: ${String(err)}`));
    await jw.close();
  });
  return {
    throwIfStopped(label) {
      if (stopped) throw new Error(`${label ? `${label}: ` : ''}the worker stopped during the run: ${describe(stopped)}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------

export interface BenchTemporal {
  server: DevServer;
  /** For workers. */
  connection: NativeConnection;
  client: Client;
}

/**
 * Installs the Temporal runtime with core logs at WARN on stderr (stdout stays for the result),
 * starts an in-memory dev server (tools/temporal/dev-server.js, installing the CLI if needed) and
 * opens a worker and a client connection to it; all registered with onStop.
 */
export async function startTemporal(): Promise<BenchTemporal> {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    shutdownSignals: [],
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } },
  });
  const cli = await ensureTemporalCli();
  const server = await startDevServer({ cliPath: cli });
  onStop('Temporal dev server', () => server.stop());
  log(`Temporal dev server ${server.version} at ${server.address} (log ${server.logFile})`);

  const connection = await NativeConnection.connect({ address: server.address });
  onStop('worker connection', () => connection.close());
  const clientConnection = await Connection.connect({ address: server.address });
  onStop('client connection', () => clientConnection.close());
  return { server, connection, client: new Client({ connection: clientConnection, namespace: 'default' }) };
}

/**
 * The command around a bench: runs it, stops everything it started (also on error and
 * SIGINT/SIGTERM), prints the JSON result as the last stdout line. Exit status: 0 done, 1 failed
 * (the reason on stderr, no JSON), 130/143 on SIGINT/SIGTERM.
 */
export function runCommand(bench: () => Promise<Record<string, unknown>>): void {
  // `on`, not `once`: tools/temporal/dev-server.js leaves the process to other SIGINT/SIGTERM listeners
  // only while one is registered; it would otherwise re-raise the signal before this cleanup is done.
  // A second signal exits at once (the dev server still gets its SIGTERM from dev-server.js on exit).
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (interrupted) process.exit(code);
    interrupted = true;
    log(`${signal}: stopping everything the bench started (again to exit at once)`);
    void stopAll().finally(() => process.exit(code));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  bench().then(
    async (result) => {
      await stopAll();
      process.stdout.write(`${JSON.stringify(result)}\n`);
      exitSoon(0);
    },
    async (err: unknown) => {
      if (interrupted) return; // the signal handler stops everything and exits
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      await stopAll();
      exitSoon(1);
    },
  );
}

/** Lets stdout drain, then exits even if a native handle would keep the loop alive. */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

