// Test helpers for suites that start processes or wait on runs (`@jobctrl/tools/processes`):
//
// - spawnGroup(): a child in its own process group, stopped with everything it started (SIGTERM to the
//   group, a grace, then SIGKILL to the group and its whole tree) whatever happens — in afterEach for
//   processes a test started, in afterAll for those of beforeAll, and by the reaper (process-group.js)
//   when the jest process dies first (Ctrl-C, killed worker). A failing or timed-out test leaves
//   nothing running (no worker, API, dev server, Chromium).
// - waitFor(): a deadline that follows progress instead of a fixed time (see ../wait-for.js).
//
// The implementation is plain CommonJS next to this folder because `npm start` and the Temporal dev
// server module use it too, before ts-node exists.
import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';

type TreeEntry = { pid: number; pgid: number };
interface ProcessGroupModule {
  processTree(pid: number): TreeEntry[];
  pidAlive(pid: number): boolean;
  groupAlive(pgid: number): boolean;
  stopGroup(pid: number, options?: { graceMs?: number; onForce?: (left: number[]) => void; known?: TreeEntry[] }): Promise<{ forced: boolean }>;
  signalTree(pid: number, signal: NodeJS.Signals, known?: TreeEntry[]): void;
  reapWithMe(pid: number, graceMs?: number): void;
  forget(pid: number): void;
  releaseReaper(): void;
}

/** Finished with `done`, or not yet with a `progress` signature (a change restarts the idle clock). */
export type WaitStep<T> = { done: T } | { progress: unknown };
export interface WaitOptions {
  /** For the error message ("the discovery run"). */
  what?: string;
  /** Fail after this long without a change of the progress signature. */
  idleTimeoutMs: number;
  /** Absolute cap, however much it moves. Default 10 × idleTimeoutMs. */
  maxMs?: number;
  /** Between probes. Default 250. */
  intervalMs?: number;
  /** Stops the wait (rejects). Default: when the test that waits is over. */
  signal?: AbortSignal;
}
/** The `done` value of a probe's steps (typed on the steps, so `{ progress }` literals add no `undefined`). */
type DoneOf<S> = S extends { done: infer T } ? T : never;
interface WaitForModule {
  waitFor<S extends WaitStep<unknown>>(probe: () => S | Promise<S>, options: WaitOptions): Promise<DoneOf<S>>;
}

// require, not import: the implementation is untyped CommonJS (no allowJs); the interfaces above type it.
const groups: ProcessGroupModule = require('../process-group.js');
const waiting: WaitForModule = require('../wait-for.js');

/** Aborted when the running test is over (afterEach), then replaced for the next one. */
let testOver = new AbortController();

/**
 * Polls `probe` until it returns `{ done }`; fails after `idleTimeoutMs` without a change of the
 * `{ progress }` it reports (or at `maxMs`). A probe that throws counts as no progress. A wait still
 * running when its test is over (the test hit jest's timeout) stops, so jest can exit.
 */
export function waitFor<S extends WaitStep<unknown>>(probe: () => S | Promise<S>, options: WaitOptions): Promise<DoneOf<S>> {
  return waiting.waitFor(probe, { signal: testOver.signal, ...options });
}
export const { processTree, pidAlive, groupAlive } = groups;

export interface GroupProcess {
  child: ChildProcess;
  pid: number;
  /** stdout + stderr so far (when piped, the default). */
  output(): string;
  /** Resolves with the exit code (or null when killed by a signal) once the process itself exited. */
  exited: Promise<number | null>;
  /**
   * SIGTERM to the group, `graceMs` for the group and its tree to exit, then SIGKILL to what is left.
   * Resolves once nothing of it runs. Idempotent.
   */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnGroupOptions extends Omit<SpawnOptions, 'detached'> {
  /** Grace between SIGTERM and SIGKILL for the automatic stop. Default 15 s. */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 15_000;
/** Processes started by the running test (stopped after it) and by the suite (stopped after all). */
const live = { test: new Set<GroupProcess>(), suite: new Set<GroupProcess>() };

/**
 * Spawns `command` in its own process group (detached), with stdout/stderr piped into output()
 * unless `stdio` says otherwise. Stopped automatically after the test that started it (or after the
 * file, when started in beforeAll) and when the jest process exits or is interrupted.
 */
export function spawnGroup(command: string, args: string[], options: SpawnGroupOptions = {}): GroupProcess {
  const { graceMs = DEFAULT_GRACE_MS, ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions, detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stopping: Promise<void> | undefined;
  const scope = currentTestName() ? live.test : live.suite;
  const handle: GroupProcess = {
    child,
    pid,
    output: () => out,
    exited,
    stop(grace = graceMs) {
      stopping ??= groups.stopGroup(pid, { graceMs: grace }).then(() => {
        scope.delete(handle);
        groups.forget(pid);
      });
      return stopping;
    },
  };
  // Should jest die before a hook stopped it (Ctrl-C, a killed worker), the reaper stops it. In-process
  // exit/signal hooks cannot do that here: inside jest, `process` is a copy whose listeners never fire.
  groups.reapWithMe(pid, graceMs);
  scope.add(handle);
  return handle;
}

function currentTestName(): string | undefined {
  try {
    return expect.getState().currentTestName;
  } catch {
    return undefined; // outside jest
  }
}

async function stopAll(set: Set<GroupProcess>): Promise<void> {
  await Promise.all([...set].map((p) => p.stop()));
}

// Registered once per test file (jest gives every file its own module registry). jest runs these
// hooks also after a test failed or hit its timeout; their own timeout leaves room for the grace.
const HOOK_TIMEOUT_MS = 120_000;
if (typeof afterEach === 'function') {
  afterEach(() => {
    testOver.abort(new Error('the test is over'));
    testOver = new AbortController();
    return stopAll(live.test);
  }, HOOK_TIMEOUT_MS);
}
if (typeof afterAll === 'function') {
  afterAll(async () => {
    await stopAll(live.suite);
    groups.releaseReaper();
  }, HOOK_TIMEOUT_MS);
}

/** Have a process group this file did not start with spawnGroup (e.g. a Temporal dev server) stopped if jest dies first. */
export function reapIfJestDies(pid: number, graceMs = DEFAULT_GRACE_MS): void {
  groups.reapWithMe(pid, graceMs);
}
