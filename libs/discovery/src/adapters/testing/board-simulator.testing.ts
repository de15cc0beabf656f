// The job-board simulator (tools/fixtures) for adapter tests.
import { startBoardSimulator, type BoardSimulator, type ManifestJob, type SimulatorOptions } from '@jobctrl/tools/fixtures';

export { startBoardSimulator };
export type { BoardSimulator, ManifestJob, SimulatorOptions };

/** Starts one simulator for a describe block and stops it afterwards. */
export function useBoardSimulator(options?: SimulatorOptions): () => BoardSimulator {
  let sim: BoardSimulator | undefined;
  beforeAll(async () => {
    sim = await startBoardSimulator(options);
  });
  afterAll(async () => {
    await sim?.stop();
  });
  return () => {
    if (!sim) throw new Error('board simulator not started');
    return sim;
  };
}

/** Collects an async iterable (postings) into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
