// Issue #9 item 14: jobs from boards addressed by a token end up named after their employer.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { jobKey } from '@jobctrl/discovery';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, disposeBoardWorld, setupBoardWorld } from './test-support/board-world.fixture';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

describe('employer names of token-addressed boards', () => {
  it("a discover run names Greenhouse jobs after the board (its jobs carry no company_name) and Lever jobs after their page's JSON-LD employer", async () => {
    const world = await setupBoardWorld(8, { families: [{ kind: 'greenhouse', token: 'acme', jobCompanyName: false }, { kind: 'lever', token: 'globex' }] });
    try {
      // No browser: JavaScript-only pages fail enrichment and keep what the source said.
      const result = await discoverOnce(suite, world);
      expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });

      const manifest = world.sim.manifest();
      const employer = (key: string) => manifest.boards.find((b) => b.key === key)?.company;
      const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
      const acme = items.filter((j) => j.sources.some((s) => s.sourceKind === 'greenhouse'));
      const globex = items.filter((j) => j.sources.some((s) => s.sourceKind === 'lever'));
      expect(acme.length).toBeGreaterThan(0);
      expect(globex.length).toBeGreaterThan(0);

      // Greenhouse: the board endpoint's name, for every job, before any page was read.
      expect(employer('greenhouse:acme')).toMatch(/^Acme /);
      for (const job of acme) expect(job.company).toBe(employer('greenhouse:acme'));
      expect(world.sim.stats().requests['/v1/boards/acme']).toBeGreaterThan(0);

      // Lever names no company: the JSON-LD employer of each readable JSON-LD page; the site stays
      // only where no page named one (semantic, JavaScript-only and robots-blocked pages).
      const truth = new Map(manifest.jobs.map((j) => [j.url, j]));
      const named = globex.filter((j) => truth.get(j.url)?.detailKind === 'jsonld' && !truth.get(j.url)?.private);
      expect(named.length).toBeGreaterThan(0);
      for (const job of named) expect(job.company).toBe(employer('lever:globex'));
      for (const job of globex.filter((j) => !named.includes(j))) expect(job.company).toBe('globex');
      // The name changed, the identity did not: every job is stored under its URL's key alone.
      for (const job of items) expect(job.jobKey).toBe(jobKey({ url: job.url, company: 'any', title: job.title }));
    } finally {
      await disposeBoardWorld(world);
    }
  });
});
