// Helpers of the suites that run `npm start` as a user does (stack.e2e, supervision.e2e).
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { GroupProcess, spawnGroup, waitFor } from '@jobctrl/tools/processes';

export const root = path.resolve(__dirname, '..', '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Sizes of the stack's log files: they grow while it starts up, even before the API answers. */
export function logSizes(dir: string): number[] {
  const logDir = path.join(dir, 'data', 'logs');
  return fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => fs.statSync(path.join(logDir, f)).size) : [];
}

/** Environment of a user's shell: no test-run Temporal address, no external Temporal. */
export function userEnv(configPath: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, JOBCTRL_CONFIG: configPath };
  delete env['TEMPORAL_ADDRESS'];
  delete env['TEMPORAL_NAMESPACE'];
  delete env['UV_THREADPOOL_SIZE'];
  return env;
}

/**
 * `npm start` on `configPath` (app dir `<dir>/data`), resolved once it printed its ready line. The
 * wait follows progress (output, log growth); a start that gave up fails at once with its output.
 */
export async function startStack(dir: string, configPath: string, env: NodeJS.ProcessEnv = {}): Promise<GroupProcess> {
  const stack = spawnGroup(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env: { ...userEnv(configPath), ...env } });
  const output = () => stack.output();
  await Promise.race([
    waitFor(() => (output().includes('[jobctrl] ready') ? { done: true } : { progress: [output().length, logSizes(dir)] }), {
      what: 'the "ready" line of npm start',
      idleTimeoutMs: 120_000,
    }),
    stack.exited.then((code) => Promise.reject(new Error(`npm start exited (${code}) before it was ready`))),
  ]).catch(async (err: Error) => {
    await stack.stop();
    throw new Error(`${err.message}\n--- npm start output ---\n${output()}`);
  });
  return stack;
}
