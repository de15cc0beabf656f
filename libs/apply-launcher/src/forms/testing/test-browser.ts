import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../../launcher/testing/launcher.test-support';
import { CHROMIUM_SWITCHES } from '@jobctrl/shared/http';

const TAG_VAR = 'JOBCTRL_FORMS_BROWSER';

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
    args: [...CHROMIUM_SWITCHES],
    env: { ...process.env, [TAG_VAR]: tag },
  });
  return { browser, tag };
}

/** What a browser launched by launchTestBrowser carries in its environment, for survivorsUnder. */
export function browserTagMarker(tag: string): string {
  return `${TAG_VAR}=${tag}`;
}
