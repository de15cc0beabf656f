// An apply owner for custody.spec.ts: a separate process that launches a browser, prints where,
// and then waits to be killed (kill -9: the owner crashes with its browser up and custody held).
import { launchApplyBrowser, type LaunchApplyBrowserOptions } from '../apply-browser.launcher';

const options = JSON.parse(process.argv[2] ?? '{}') as LaunchApplyBrowserOptions;
launchApplyBrowser(options).then(
  (browser) => {
    process.stdout.write(`${JSON.stringify({ attemptDir: browser.attemptDir, pid: browser.pid })}\n`);
    setInterval(() => undefined, 60_000);
  },
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
