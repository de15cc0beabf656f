// Kept apart from bench-args.ts so that parsing flags (and its spec) does not load the Temporal libs.
import { workerCapacity } from '@jobctrl/shared/temporal';
import { parseOrExit } from './bench-args';

/**
 * A bench's entry file, whole: its flags (parseOrExit), then libuv's thread pool sized from the
 * worker's slots as apps/worker/src/main.ts does — before its first use, which is why the runner is
 * loaded (`load`, a lazy require) only after that — then the bench command.
 */
export function runBenchEntry<T extends { slots: number }>(o: { usage: string; parse(argv: string[]): T | 'help'; load(): (options: T) => void }): void {
  const options = parseOrExit(() => o.parse(process.argv.slice(2)), o.usage);
  if (!process.env['UV_THREADPOOL_SIZE']) process.env['UV_THREADPOOL_SIZE'] = String(workerCapacity(options.slots).uvThreadpoolSize);
  o.load()(options);
}
