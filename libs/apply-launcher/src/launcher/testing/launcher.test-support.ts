import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CHROMIUM = process.env['JOBCTRL_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/** A temp root for one spec file's app dirs and fixture scripts. */
export function makeTestRoot(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
}

/**
 * Live processes that belong to anything under `root`: their command line names it (Chromium's
 * --user-data-dir, crashpad's --database) or their environment does (XDG_CONFIG_HOME, inherited by
 * every descendant, even one that left the session). Read from /proc, the proof the tests rely on:
 * the one "no browser left" scan of the launcher, form and worker apply tests. `root` may as well
 * be a tag a test put in its browser's environment (`NAME=<uuid>`). This process never counts.
 */
export function survivorsUnder(root: string): Array<{ pid: number; cmd: string }> {
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (state === 'Z' || state === 'X') continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (cmd.includes(root) || env.includes(root)) found.push({ pid: Number(entry), cmd: cmd.slice(0, 160) });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** SIGKILLs whatever survived (so a failing test leaks nothing) and returns what it found. */
export function killSurvivorsUnder(root: string): Array<{ pid: number; cmd: string }> {
  const found = survivorsUnder(root);
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  return found;
}

export function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Writes an executable script. */
export function writeScript(file: string, body: string): string {
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

export async function until<T>(probe: () => T | null | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
