import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { ApplyLaunchError, launchApplyBrowser, unverifiedCleanupsOfThisProcess, type LaunchApplyBrowserOptions } from './apply-browser.launcher';
import { inspectCustody, recoverCustody } from './custody';
import { BIRTH_INTENT_FILE, CLEANUP_FAILED_FILE, LIFETIME_FILE, RELEASE_FILE, type LifetimeRecord, type ReleaseRecord } from './custody.files';
import { CHROMIUM, killSurvivorsUnder, makeTestRoot, pidAlive, survivorsUnder, until, writeScript } from './testing/launcher.test-support';

// Real Chromium, real /proc. Every test ends with no process of its own left (checked from /proc),
// and afterAll checks the whole file's root once more (killing anything found, so nothing leaks).
const root = makeTestRoot('apply-launcher');
const appDir = path.join(root, 'app');
const scripts = path.join(root, 'scripts');
fs.mkdirSync(scripts);

const launchOptions = (jobKey: string, extra: Partial<LaunchApplyBrowserOptions> = {}): LaunchApplyBrowserOptions => ({
  appDir,
  tenant: 'local',
  jobKey,
  runId: 'run-1',
  attempt: 1,
  owner: 'launcher-spec',
  executablePath: CHROMIUM,
  cleanup: { graceMs: 1_500 },
  ...extra,
});

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

afterEach(() => {
  expect(survivorsUnder(root)).toEqual([]);
});

afterAll(() => {
  expect(killSurvivorsUnder(root)).toEqual([]);
});

describe('launchApplyBrowser', () => {
  it('spawns Chromium in its own session on a verified 127.0.0.1 endpoint, holds custody until close() proves the exit, and retains the attempt directory', async () => {
    const browser = await launchApplyBrowser(launchOptions('job-a'));
    let closed = false;
    try {
      expect(browser.endpoint.wsUrl).toBe(`ws://127.0.0.1:${browser.endpoint.port}/devtools/browser/${browser.endpoint.uuid}`);
      expect(browser.sessionId).toBe(browser.pid);
      expect(path.dirname(browser.attemptDir)).toBe(path.join(appDir, 'apply', 'local', 'job-a'));
      expect(path.basename(browser.attemptDir)).toMatch(/^run-1-1-[0-9a-f]{12}$/);
      expect(fs.readFileSync(path.join(browser.profileDir, 'DevToolsActivePort'), 'utf8')).toContain(browser.endpoint.uuid);

      const lifetime = readJson<LifetimeRecord>(path.join(browser.attemptDir, LIFETIME_FILE));
      expect(lifetime).toMatchObject({ tenant: 'local', jobKey: 'job-a', runId: 'run-1', attempt: 1, pid: browser.pid, sessionId: browser.pid, endpoint: browser.endpoint });
      expect(readJson<{ nonce: string }>(path.join(browser.attemptDir, BIRTH_INTENT_FILE)).nonce).toBe(lifetime.nonce);

      const page = await browser.context.newPage();
      await page.setContent('<h1>apply</h1>');
      expect(await page.textContent('h1')).toBe('apply');

      expect(inspectCustody(appDir, 'local', 'job-a')).toMatchObject({ state: 'held', runId: 'run-1', attempt: 1, ownerAlive: true, attemptDir: browser.attemptDir });
      expect(inspectCustody(appDir, 'local', 'job-other')).toEqual({ state: 'free' });

      const result = await browser.close();
      closed = true;
      expect(result.verified).toBe(true);
      expect(await browser.close()).toBe(result); // idempotent
      expect(browser.signal.aborted).toBe(true);
      expect(pidAlive(browser.pid)).toBe(false);
      expect(readJson<ReleaseRecord>(path.join(browser.attemptDir, RELEASE_FILE))).toMatchObject({ how: 'closed', trackedCleanup: true, fullTreeVerified: true });
      expect(inspectCustody(appDir, 'local', 'job-a')).toEqual({ state: 'free' });

      // The next attempt gets a new directory; the old one is kept as it was.
      const next = await launchApplyBrowser(launchOptions('job-a', { attempt: 2 }));
      expect(next.attemptDir).not.toBe(browser.attemptDir);
      expect(next.endpoint.uuid).not.toBe(browser.endpoint.uuid);
      expect(fs.existsSync(path.join(browser.attemptDir, RELEASE_FILE))).toBe(true);
      expect((await next.close()).verified).toBe(true);
    } finally {
      if (!closed) await browser.close();
    }
  });

  it('launches distinct jobs concurrently, and closing one leaves the other running', async () => {
    const [a, b] = await Promise.all([launchApplyBrowser(launchOptions('job-b1')), launchApplyBrowser(launchOptions('job-b2'))]);
    try {
      expect(a.endpoint.port).not.toBe(b.endpoint.port);
      expect((await a.close()).verified).toBe(true);
      expect(pidAlive(a.pid)).toBe(false);
      expect(pidAlive(b.pid)).toBe(true);
      expect(b.signal.aborted).toBe(false);
      expect(inspectCustody(appDir, 'local', 'job-b2')).toMatchObject({ state: 'held' });
      const page = await b.context.newPage();
      await page.setContent('<p>still here</p>');
      expect(await page.textContent('p')).toBe('still here');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(inspectCustody(appDir, 'local', 'job-b2')).toEqual({ state: 'free' });
  });

  it('refuses a DevToolsActivePort naming a port the spawned process does not hold, even when it answers with the same UUID', async () => {
    const uuid = '0b0e0a5e-1111-4222-8333-444455556666';
    const decoy = http.createServer((req, res) => {
      const port = (decoy.address() as AddressInfo).port;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/${uuid}` }));
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    const port = (decoy.address() as AddressInfo).port;
    // Not a browser: writes the decoy's endpoint into the profile it was given, then waits.
    const fake = writeScript(
      path.join(scripts, 'decoy-port.sh'),
      `#!/bin/sh\nfor a; do case "$a" in --user-data-dir=*) P="\${a#--user-data-dir=}";; esac; done\nprintf '%s\\n/devtools/browser/%s' ${port} ${uuid} > "$P/DevToolsActivePort"\nexec sleep 300\n`,
    );
    try {
      const failure = await launchApplyBrowser(launchOptions('job-decoy-port', { executablePath: fake })).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ApplyLaunchError);
      expect(failure).toMatchObject({ code: 'endpoint_unverified', cleanup: { verified: true } });
      expect((failure as Error).message).toContain(`port ${port}`);
      expect(inspectCustody(appDir, 'local', 'job-decoy-port')).toEqual({ state: 'free' });
    } finally {
      decoy.closeAllConnections();
      decoy.close();
    }
  });

  it("refuses a DevToolsActivePort whose UUID is not the one the spawned browser reports on that port", async () => {
    // Runs the real browser on a profile next door, and plants a file with another UUID in ours.
    const planter = writeScript(
      path.join(scripts, 'planted-uuid.sh'),
      [
        '#!/bin/bash',
        'args=()',
        'for a in "$@"; do case "$a" in --user-data-dir=*) P="${a#--user-data-dir=}"; args+=("--user-data-dir=$P-real");; *) args+=("$a");; esac; done',
        'mkdir -p "$P-real"',
        '( while [ ! -s "$P-real/DevToolsActivePort" ]; do sleep 0.05; done',
        '  printf \'%s\\n/devtools/browser/00000000-0000-4000-8000-000000000000\' "$(head -n1 "$P-real/DevToolsActivePort")" > "$P/DevToolsActivePort.tmp"',
        '  mv "$P/DevToolsActivePort.tmp" "$P/DevToolsActivePort" ) &',
        `exec ${CHROMIUM} "\${args[@]}"`,
        '',
      ].join('\n'),
    );
    const failure = await launchApplyBrowser(launchOptions('job-decoy-uuid', { executablePath: planter })).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ code: 'endpoint_unverified', cleanup: { verified: true } });
    expect((failure as Error).message).toContain('00000000-0000-4000-8000-000000000000');
    expect(inspectCustody(appDir, 'local', 'job-decoy-uuid')).toEqual({ state: 'free' });
  });

  describe('cancellation', () => {
    // A helper in the browser's session that, on the first SIGTERM, starts a child that leaves the
    // session (setsid) and ignores SIGTERM: a process that did not exist at the first cleanup pass.
    // `hideEndpoint` runs the browser on a profile next door, so the launch waits for an endpoint
    // that never comes: a launch that is still in progress, with the whole browser up.
    const lateChild = (hideEndpoint: boolean) =>
      writeScript(
        path.join(scripts, `late-child-${hideEndpoint}.sh`),
        [
          '#!/bin/bash',
          // (TERM is ignored before the fork, so the late child never has a moment without it.)
          `( trap 'trap "" TERM; setsid sleep 300 & echo $! > late.pid; exit 0' TERM; touch helper.ready; sleep 300 & wait ) &`,
          'args=()',
          `for a in "$@"; do case "$a" in --user-data-dir=*) P="\${a#--user-data-dir=}"; ${hideEndpoint ? 'mkdir -p "$P-real"; args+=("--user-data-dir=$P-real")' : 'args+=("$a")'};; *) args+=("$a");; esac; done`,
          `exec ${CHROMIUM} "\${args[@]}"`,
          '',
        ].join('\n'),
      );

    it('a signal that is already aborted creates nothing', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(launchApplyBrowser(launchOptions('job-pre-cancel', { signal: controller.signal }))).rejects.toThrow();
      expect(fs.existsSync(path.join(appDir, 'apply', 'local', 'job-pre-cancel'))).toBe(false);
    });

    it('cancelling mid-launch ends the browser and a child started after the first cleanup pass, then releases custody', async () => {
      const controller = new AbortController();
      const jobDir = path.join(appDir, 'apply', 'local', 'job-cancel');
      const launching = launchApplyBrowser(launchOptions('job-cancel', { signal: controller.signal, executablePath: lateChild(true) })).then(
        () => null,
        (err: unknown) => err,
      );
      // The browser is up (on the profile next door) and the helper is ready; the launch is still
      // waiting for its endpoint: cancel now.
      const attemptDir = await until(() => {
        const name = fs.existsSync(jobDir) ? fs.readdirSync(jobDir)[0] : undefined;
        const dir = name ? path.join(jobDir, name) : null;
        return dir && fs.existsSync(path.join(dir, 'profile-real', 'DevToolsActivePort')) && fs.existsSync(path.join(dir, 'work', 'helper.ready')) ? dir : null;
      }, 'the browser and its helper');
      const lifetime = path.join(attemptDir, LIFETIME_FILE);
      controller.abort();
      const failure = await launching;
      expect(failure).toBeInstanceOf(ApplyLaunchError);
      expect(failure).toMatchObject({ code: 'cancelled', cleanup: { verified: true } });

      const late = Number(fs.readFileSync(path.join(attemptDir, 'work', 'late.pid'), 'utf8'));
      expect(late).toBeGreaterThan(0);
      expect(pidAlive(late)).toBe(false);
      expect((failure as ApplyLaunchError).cleanup.signalled).toContain(late);
      expect(pidAlive(readJson<LifetimeRecord>(lifetime).pid)).toBe(false);
      expect(inspectCustody(appDir, 'local', 'job-cancel')).toEqual({ state: 'free' });
    });

    it('cancelling a running browser through the caller signal cleans it up; close() then reports that cleanup', async () => {
      const controller = new AbortController();
      const browser = await launchApplyBrowser(launchOptions('job-cancel-running', { signal: controller.signal, executablePath: lateChild(false) }));
      await until(() => fs.existsSync(path.join(browser.workDir, 'helper.ready')), 'the helper');
      controller.abort();
      expect(browser.signal.aborted).toBe(true);
      const result = await browser.close();
      expect(result.verified).toBe(true);
      const late = Number(fs.readFileSync(path.join(browser.workDir, 'late.pid'), 'utf8'));
      expect(pidAlive(late)).toBe(false);
      expect(inspectCustody(appDir, 'local', 'job-cancel-running')).toEqual({ state: 'free' });
    });
  });

  it('a browser that dies on its own stops its launcher, which still cleans up what it left', async () => {
    const browser = await launchApplyBrowser(launchOptions('job-crash'));
    process.kill(browser.pid, 'SIGKILL');
    await until(() => browser.signal.aborted, 'the launcher to notice');
    const result = await browser.close();
    expect(result.verified).toBe(true);
    expect(inspectCustody(appDir, 'local', 'job-crash')).toEqual({ state: 'free' });
  });

  it('an executable that does not exist fails the launch with nothing left and custody free', async () => {
    const failure = await launchApplyBrowser(launchOptions('job-missing', { executablePath: path.join(root, 'no-such-browser') })).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ code: 'spawn_failed', cleanup: { verified: true } });
    expect(inspectCustody(appDir, 'local', 'job-missing')).toEqual({ state: 'free' });
  });

  it('a cleanup whose exit cannot be proven keeps custody as cleanup_failed for that job only, keeps the files, refuses recovery and fences this worker', async () => {
    const browser = await launchApplyBrowser(launchOptions('job-unproven', { cleanup: { graceMs: 1_500, verifyTimeoutMs: 1_000 } }));
    const other = await launchApplyBrowser(launchOptions('job-bystander'));
    // Unrelated churn: processes started and ended between every pair of inventories. Several
    // loops, so that a loaded machine starving one of them for 50 ms still churns.
    const churn = Array.from({ length: 4 }, () => spawn('/bin/sh', ['-c', 'while :; do /bin/true; done'], { stdio: 'ignore' }));
    let result;
    try {
      result = await browser.close();
    } finally {
      for (const c of churn) c.kill('SIGKILL');
    }
    try {
      expect(result).toMatchObject({ verified: false, survivors: [] });
      expect(pidAlive(browser.pid)).toBe(false); // ended, only not proven
      expect(readJson<{ reason: string }>(path.join(browser.attemptDir, CLEANUP_FAILED_FILE)).reason).toContain('churn');
      expect(fs.existsSync(path.join(browser.attemptDir, RELEASE_FILE))).toBe(false);
      expect(fs.existsSync(browser.profileDir)).toBe(true);
      expect(inspectCustody(appDir, 'local', 'job-unproven')).toMatchObject({ state: 'cleanup_failed', runId: 'run-1', attemptDir: browser.attemptDir });
      expect(await recoverCustody(appDir, { tenant: 'local', jobKey: 'job-unproven', runId: 'run-1' })).toMatchObject({ recovered: false, refusal: 'cleanup_failed' });
      expect(unverifiedCleanupsOfThisProcess()).toEqual([expect.objectContaining({ jobKey: 'job-unproven', attemptDir: browser.attemptDir })]);
      // Another job is untouched.
      expect(other.signal.aborted).toBe(false);
      expect(inspectCustody(appDir, 'local', 'job-bystander')).toMatchObject({ state: 'held' });
    } finally {
      expect((await other.close()).verified).toBe(true);
    }
  });
});
