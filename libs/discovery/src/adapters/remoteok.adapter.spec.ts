import { RemoteOkAdapter, remoteOkTag } from './remoteok.adapter';
import { type HttpClient, MalformedResponseError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new RemoteOkAdapter();
const sim = useBoardSimulator({ seed: 17, jobsPerBoard: 30, families: [{ kind: 'remoteok' }] });

afterEach(() => sim().setKnobs({ boards: { 'remoteok:remoteok': null } }));

describe('RemoteOkAdapter', () => {
  it('turns a search into a RemoteOK tag', () => {
    expect(remoteOkTag('Node.js Dev')).toBe('nodejs-dev');
    expect(adapter.validateConfig({ search: 'TypeScript' }).search).toBe('TypeScript');
    expect(() => adapter.validateConfig({ search: '!!!' })).toThrow(/search must contain letters or digits/);
  });

  it('skips the legal notice and returns every job, normalized, with USD pay bounds', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'remoteok:remoteok');
    expect(http.requests).toEqual([`${sim().url}/api`]);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'remoteok', title: job.title, company: job.company, url: job.url, applyUrl: `${job.url}/apply`, remote: true }));
      expect(p.postedAt).toBe(`${job.postedAt.slice(0, 19)}.000Z`);
      if (p.salaryText !== null) expect(p.salaryText).toMatch(/^USD [\d,]+ - [\d,]+ per year$/);
      // Both bounds as published, 0 included; none when RemoteOK gives neither.
      const [statement] = p.compensation ?? [];
      if (job.salaryRange?.period === 'year') expect(statement).toEqual({ fieldPath: 'remoteok.salary_min_max', value: { salary_min: expect.any(Number), salary_max: expect.any(Number) } });
      else expect(p.compensation).toEqual([]);
    });
    expect(postings.some((p) => p.salaryText !== null)).toBe(true);
  });

  it('filters by tag', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url, search: 'Kubernetes' }), { http }));
    expect(http.requests).toEqual([`${sim().url}/api?tag=kubernetes`]);
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.every((p) => p.tags.includes('kubernetes'))).toBe(true);
  });

  it('skips a job without a position (recording why), and rejects a position of the wrong type and malformed JSON', async () => {
    const entries = [{ legal: 'x' }, { id: '1', company: 'A', url: 'https://x.test/1' }, { id: '2', position: 'Dev', company: 'B', url: 'https://x.test/2' }];
    const skipped: unknown[] = [];
    const kept = await collect(adapter.discover(adapter.validateConfig({}), { http: { getJson: async () => entries as never, getText: async () => '' }, skipped: (e) => skipped.push(e) }));
    expect(kept.map((p) => p.externalId)).toEqual(['2']);
    expect(skipped).toEqual([{ where: '[1]', externalId: '1', reason: 'blank position' }]);
    const http: HttpClient = { getJson: async () => [{ legal: 'x' }, { id: '1', position: 42, company: 'A', url: 'https://x.test/1' }] as never, getText: async () => '' };
    const bad = await drain(adapter.discover(adapter.validateConfig({}), { http }));
    expect((bad.error as Error).message).toContain('[1].position must be a non-empty string');
    sim().setKnobs({ boards: { 'remoteok:remoteok': { malformedJson: true } } });
    const { error } = await drain(adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
  });
});
