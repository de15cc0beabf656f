// Issue #15's board faults at the discovery level (the fault suite, npm run faults, runs them against
// a whole stack): a board that answers 500 a few times and then recovers, and a board that answers
// 200 with an empty list after a full one. Malformed board JSON: discovery.int.spec.ts.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, disposeBoardWorld, setupBoardWorld, type BoardWorld } from './test-support/board-world.fixture';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();
const ACME = [{ kind: 'greenhouse', token: 'acme' }, { kind: 'lever', token: 'globex' }] as const;

async function snapshot(world: BoardWorld) {
  const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
  return items.map((j) => ({ jobKey: j.jobKey, stage: j.stage, availability: j.availability?.state ?? null })).sort((a, b) => a.jobKey.localeCompare(b.jobKey));
}

describe('board faults (discovery level)', () => {
  it('a board answering 500 three times, then recovering: its family completes with all its jobs', async () => {
    const world = await setupBoardWorld(5, { families: ACME, knobs: { boards: { 'lever:globex': { fail5xx: { nextN: 3, status: 500 } } } } });
    try {
      const result = await discoverOnce(suite, world, { settle: true });
      expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });
      const urls = new Set((await world.jobs.list({ limit: 1000, offset: 0 })).items.map((j) => j.url));
      const expected = world.sim.manifest().jobs.filter((j) => j.repostOf === null);
      expect(expected.filter((j) => !urls.has(j.url))).toEqual([]);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('a board answering 200 with an empty list after a full one: the second run deletes, closes and changes nothing', async () => {
    const world = await setupBoardWorld(5, { families: ACME });
    try {
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const before = await snapshot(world);
      expect(before.length).toBeGreaterThan(5);
      world.sim.setKnobs({ emptyList: true });
      const second = await discoverOnce(suite, world, { settle: true });
      expect(second).toMatchObject({ state: 'completed', familiesFailed: [] });
      expect(await snapshot(world)).toEqual(before);
    } finally {
      await disposeBoardWorld(world);
    }
  });
});
