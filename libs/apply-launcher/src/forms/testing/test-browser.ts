import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * A headless Chromium for the form specs, tagged through its environment (every process of its tree
 * inherits it) so a spec can prove from /proc that none of them outlived it — other suites' browsers
 * on the same machine carry other tags or none.
 */
export async function launchTestBrowser(): Promise<{ browser: Browser; tag: string }> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (Debian's package, never a downloaded browser)`);
  }
  const tag = randomUUID();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    env: { ...process.env, JOBCTRL_FORMS_BROWSER: tag },
  });
  return { browser, tag };
}

/** Pids of live processes whose environment carries the tag. */
export function processesTagged(tag: string): number[] {
  const needle = `JOBCTRL_FORMS_BROWSER=${tag}`;
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // a zombie runs nothing
      if (fs.readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle)) found.push(Number(entry));
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return found;
}
