// The job-board simulator (tools/fixtures, plain CommonJS) for adapter tests, typed by its .d.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries -- test fixture server
import type { BoardSimulator, ManifestJob, SimulatorOptions } from '../../../../../tools/fixtures/board-simulator';

// eslint-disable-next-line @nx/enforce-module-boundaries -- test fixture server
const simulator: typeof import('../../../../../tools/fixtures/board-simulator') = require('../../../../../tools/fixtures/board-simulator.js');

export type { BoardSimulator, ManifestJob, SimulatorOptions };

export function startBoardSimulator(options?: SimulatorOptions): Promise<BoardSimulator> {
  return simulator.startBoardSimulator(options);
}

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
