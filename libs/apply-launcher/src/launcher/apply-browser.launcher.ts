import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { AddressGuard, CHROMIUM_SWITCHES, GuardedProxy, type GuardedProxyOptions } from '@jobctrl/shared/http';
import {
  BIRTH_INTENT_FILE,
  CLEANUP_FAILED_FILE,
  CUSTODY_ENV,
  LIFETIME_FILE,
  RELEASE_FILE,
  assertSafePart,
  jobCustodyDir,
  writeDurableOnce,
  writeDurableReplace,
  type BirthIntent,
  type CleanupFailedRecord,
  type LifetimeRecord,
  type ReleaseRecord,
} from './custody.files';
import { readDevToolsActivePort, verifyDevToolsEndpoint, EndpointVerificationError, type DevToolsEndpoint } from './devtools-endpoint';
import { bootId, readProcStat, type OwnedSelector } from './proc.inventory';
import { stopOwnedProcesses, type CleanupResult, type CleanupTimings } from './session.cleanup';

export interface LaunchApplyBrowserOptions {
  /** app_dir: attempts live under {appDir}/apply/{tenant}/{jobKey}/. */
  appDir: string;
  tenant: string;
  jobKey: string;
  /** The canonical owner run (the ApplyClaimAcquired RunId). */
  runId: string;
  /** Attempt number within the run (Temporal's activity attempt). */
  attempt: number;
  /** Who launches, for people reading the birth intent (e.g. the worker identity). */
  owner: string;
  /** browser_executable_path. */
  executablePath: string;
  /** Cancels the launch, or later stops the browser (the launcher then cleans up on its own). */
  signal?: AbortSignal;
  /** Spawn to connected. Default 30 s. */
  launchTimeoutMs?: number;
  cleanup?: CleanupTimings;
  /**
   * The worker's address rule (allowed_private_hosts). The browser is launched behind a GuardedProxy
   * that applies it to every connection (redirect hops of a form post included) and pins the
   * addresses it checked. Default: no private host allowed.
   */
  addressGuard?: AddressGuard;
  /** Hears of each connection the proxy refused (host, port, rule; never a path or body). */
  onRefused?: GuardedProxyOptions['onRefused'];
}

export interface ApplyBrowser {
  browser: Browser;
  /** Chromium's default context (its fresh profile): pages, downloads and uploads of this attempt. */
  context: BrowserContext;
  attemptDir: string;
  /** The attempt's own files (screenshots, the rendered resume PDF). Retained after the attempt. */
  workDir: string;
  profileDir: string;
  endpoint: DevToolsEndpoint;
  pid: number;
  sessionId: number;
  /** This launcher's own stop signal: aborted once it is stopping (closed, cancelled, or the browser died). */
  signal: AbortSignal;
  /**
   * Ends this attempt's processes (SIGTERM, then SIGKILL, newcomers included), proves the exit and
   * records release (verified) or cleanup failure (not: custody stays, the job is blocked). Joins
   * the cleanup monitor before it returns. Idempotent: every call returns the same result.
   */
  close(): Promise<CleanupResult>;
}

export type ApplyLaunchFailure = 'cancelled' | 'spawn_failed' | 'browser_exited' | 'launch_timeout' | 'endpoint_unverified' | 'connect_failed';

/** The launch did not produce a browser; its processes were already cleaned up (see `cleanup`). */
export class ApplyLaunchError extends Error {
  constructor(
    readonly code: ApplyLaunchFailure,
    message: string,
    readonly attemptDir: string,
    readonly cleanup: CleanupResult,
  ) {
    super(
      cleanup.verified ? message : `${message}; cleanup unverified (${cleanup.reason}): custody of this job is retained`,
    );
    this.name = 'ApplyLaunchError';
  }
}

export interface UnverifiedCleanup {
  tenant: string;
  jobKey: string;
  runId: string;
  attempt: number;
  attemptDir: string;
  reason: string;
}

const unverifiedCleanups: UnverifiedCleanup[] = [];

/**
 * The cleanups this process (worker) could not prove, oldest first. The job's files already block
 * that job; the spec also fences the worker's next claim ("a scoped cleanup failure fences that
 * worker's next claim"): the claim asks this before taking a job.
 */
export function unverifiedCleanupsOfThisProcess(): UnverifiedCleanup[] {
  return [...unverifiedCleanups];
}

const POLL_MS = 50;

class LaunchStop extends Error {
  constructor(
    readonly code: ApplyLaunchFailure,
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `work` at most `ms` (leaving no timer behind). */
async function boundedWait(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function whenAborted(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * One apply attempt's Chromium, in custody from before it exists until its exit is proven.
 *
 * Order matters, and every step is durable before the next: a fresh exclusive attempt directory
 * (never reused), the birth intent (fsync'd) BEFORE the spawn, Chromium spawned into a session of
 * its own with `--remote-debugging-port=0` and the attempt's profile, the lifetime file right after
 * the spawn (pid, session, start time), then the actual endpoint read from the profile's
 * DevToolsActivePort and verified against the spawned process and its WebSocket UUID, and only then
 * Playwright over `ws://127.0.0.1:<port>/devtools/browser/<uuid>`.
 *
 * A cleanup monitor is started with the spawn: once this launcher's stop signal fires — close(),
 * the caller's signal, a failed launch step, or Chromium exiting on its own — it ends the owned
 * processes and records the outcome. A failed or cancelled launch awaits it before it throws, so
 * nothing of the attempt is left running behind an error. Launchers share nothing: distinct jobs
 * (and attempts) launch concurrently, and each cleans up only its own processes.
 */
export async function launchApplyBrowser(options: LaunchApplyBrowserOptions): Promise<ApplyBrowser> {
  const { tenant, jobKey, runId, attempt } = options;
  assertSafePart('runId', runId);
  if (!Number.isInteger(attempt) || attempt < 0) throw new Error(`attempt must be a non-negative integer, not ${attempt}`);
  options.signal?.throwIfAborted();

  const jobDir = jobCustodyDir(options.appDir, tenant, jobKey);
  // 0700 (#39): an attempt holds the user's filled-in application, screenshots and browser profile.
  fs.mkdirSync(jobDir, { recursive: true, mode: 0o700 });
  const attemptDir = path.join(jobDir, `${runId}-${attempt}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(attemptDir, { mode: 0o700 }); // exclusive: an existing directory is never taken over
  const profileDir = path.join(attemptDir, 'profile');
  const workDir = path.join(attemptDir, 'work');
  // Chromium's crashpad handler keeps its database under XDG_CONFIG_HOME; inside the attempt it
  // shares nothing with other attempts.
  const configDir = path.join(attemptDir, 'config');
  for (const dir of [profileDir, workDir, configDir]) fs.mkdirSync(dir, { mode: 0o700 });

  const own = readProcStat(process.pid);
  const birth: BirthIntent = {
    tenant,
    jobKey,
    runId,
    attempt,
    nonce: randomBytes(16).toString('hex'),
    owner: options.owner,
    ownerPid: process.pid,
    ownerStartTime: own?.startTime ?? 0,
    bootId: bootId(),
    hostname: os.hostname(),
    createdAt: new Date().toISOString(),
  };
  writeDurableOnce(path.join(attemptDir, BIRTH_INTENT_FILE), birth);

  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(new LaunchStop('cancelled', 'the apply was cancelled'));
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (options.signal?.aborted) onCallerAbort();

  const stopping = whenAborted(stop.signal);
  // Started before the spawn so the browser's first request already meets it; in-process (not a
  // child: the /proc proof below never sees it) and closed by the cleanup monitor.
  const proxy = await GuardedProxy.start({ guard: options.addressGuard ?? new AddressGuard(), onRefused: options.onRefused }).catch((err: unknown) => {
    stop.abort(new LaunchStop('spawn_failed', `could not start the browser's guarded proxy: ${(err as Error).message}`));
    return null;
  });
  const envMarker = `${CUSTODY_ENV}=${birth.nonce}`;
  // Cancelled between the birth intent and here: nothing is spawned (the monitor still proves it).
  const spawnBrowser = (): ChildProcess | null => {
    if (stop.signal.aborted || !proxy) return null;
    try {
      return spawn(options.executablePath, ['--headless', '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, ...CHROMIUM_SWITCHES, ...proxy.chromiumArgs(), 'about:blank'], {
        // detached: setsid() before exec, so the browser and everything it starts form one session.
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: workDir,
        env: { ...process.env, XDG_CONFIG_HOME: configDir, [CUSTODY_ENV]: birth.nonce },
      });
    } catch (err) {
      stop.abort(new LaunchStop('spawn_failed', `could not start ${options.executablePath}: ${(err as Error).message}`));
      return null;
    }
  };
  const child = spawnBrowser();
  let stderr = '';
  child?.stderr?.setEncoding('utf8');
  child?.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  child?.on('error', (err) => stop.abort(new LaunchStop('spawn_failed', `could not start ${options.executablePath}: ${err.message}`)));
  const exited = new Promise<void>((resolve) => {
    if (!child) resolve();
    else if (!child.pid) child.once('error', () => resolve()); // never started: its 'error' says why
    else child.once('exit', () => resolve());
  });

  // Registration: the spawned process as /proc shows it now. A process that is already gone leaves
  // only the marker to find what it may have started.
  const pid = child?.pid ?? 0;
  const stat = pid ? readProcStat(pid) : null;
  const selector: OwnedSelector = { sessionId: stat?.sid ?? 0, leaderStartTime: stat?.startTime ?? 0, envMarker };
  const lifetime: LifetimeRecord = {
    tenant,
    jobKey,
    runId,
    attempt,
    nonce: birth.nonce,
    pid,
    sessionId: selector.sessionId,
    startTime: selector.leaderStartTime,
    bootId: birth.bootId,
    endpoint: null,
    writtenAt: new Date().toISOString(),
  };
  try {
    writeDurableOnce(path.join(attemptDir, LIFETIME_FILE), lifetime);
  } catch (err) {
    // Without it nobody could recover this attempt after a crash: end it now, while we still know it.
    stop.abort(new LaunchStop('spawn_failed', `could not record the browser's lifetime metadata: ${(err as Error).message}`));
  }
  if (stat && stat.sid !== pid) stop.abort(new LaunchStop('spawn_failed', `the browser (pid ${pid}) is not the leader of its own session (session ${stat.sid})`));

  // A holder, not a `let`: the monitor reads it when it runs, after the connection may have been made.
  const connection: { browser: Browser | null } = { browser: null };
  const monitor = (async (): Promise<CleanupResult> => {
    await Promise.race([stopping, exited]);
    if (!stop.signal.aborted) stop.abort(new LaunchStop('browser_exited', `the browser exited${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`));
    // Let Playwright let go first (bounded: a hung connection must not delay the kill).
    if (connection.browser) await boundedWait(connection.browser.close().catch(() => undefined), 2_000);
    const result = await stopOwnedProcesses(selector, options.cleanup);
    await proxy?.close();
    if (result.verified) {
      writeDurableOnce(path.join(attemptDir, RELEASE_FILE), {
        nonce: birth.nonce,
        releasedAt: new Date().toISOString(),
        how: 'closed',
        trackedCleanup: true,
        fullTreeVerified: true,
      } satisfies ReleaseRecord);
    } else {
      unverifiedCleanups.push({ tenant, jobKey, runId, attempt, attemptDir, reason: result.reason });
      writeDurableOnce(path.join(attemptDir, CLEANUP_FAILED_FILE), {
        nonce: birth.nonce,
        failedAt: new Date().toISOString(),
        reason: result.reason,
        survivors: result.survivors,
      } satisfies CleanupFailedRecord);
    }
    options.signal?.removeEventListener('abort', onCallerAbort);
    return result;
  })();
  // Always joined by close() or by the failed launch below; this only keeps an unobserved
  // rejection (a write error) from crashing the process before then.
  monitor.catch(() => undefined);

  const stopped = (): LaunchStop => {
    const reason: unknown = stop.signal.reason;
    return reason instanceof LaunchStop ? reason : new LaunchStop('cancelled', String(reason));
  };
  try {
    const deadline = performance.now() + (options.launchTimeoutMs ?? 30_000);
    let found = readDevToolsActivePort(profileDir);
    while (!found) {
      if (stop.signal.aborted) throw stopped();
      if (performance.now() > deadline) throw new LaunchStop('launch_timeout', `the browser published no DevToolsActivePort within ${options.launchTimeoutMs ?? 30_000} ms`);
      await Promise.race([sleep(POLL_MS), stopping]);
      found = readDevToolsActivePort(profileDir);
    }
    let endpoint: DevToolsEndpoint;
    try {
      endpoint = await verifyDevToolsEndpoint(pid, found);
    } catch (err) {
      if (err instanceof EndpointVerificationError) throw new LaunchStop('endpoint_unverified', err.message);
      throw err;
    }
    if (stop.signal.aborted) throw stopped();
    writeDurableReplace(path.join(attemptDir, LIFETIME_FILE), { ...lifetime, endpoint, writtenAt: new Date().toISOString() } satisfies LifetimeRecord);
    const connecting = chromium.connectOverCDP(endpoint.wsUrl, { timeout: Math.max(1_000, deadline - performance.now()) });
    const connected = await Promise.race([connecting, stopping.then(() => null)]);
    if (!connected) {
      void connecting.then((late) => late.close().catch(() => undefined)).catch(() => undefined);
      throw stopped();
    }
    connection.browser = connected;
    const context = connected.contexts()[0];
    if (!context) throw new LaunchStop('connect_failed', 'the browser has no default context');
    let result: Promise<CleanupResult> | null = null;
    return {
      browser: connected,
      context,
      attemptDir,
      workDir,
      profileDir,
      endpoint,
      pid,
      sessionId: selector.sessionId,
      signal: stop.signal,
      close: () => {
        result ??= (async () => {
          if (!stop.signal.aborted) stop.abort(new LaunchStop('cancelled', 'closed'));
          return monitor;
        })();
        return result;
      },
    };
  } catch (err) {
    const failure = err instanceof LaunchStop ? err : new LaunchStop(stop.signal.aborted ? stopped().code : 'connect_failed', (err as Error).message);
    if (!stop.signal.aborted) stop.abort(failure);
    const cleanup = await monitor;
    throw new ApplyLaunchError(failure.code, failure.message, attemptDir, cleanup);
  }
}
