import { RemotiveAdapter } from './remotive.adapter';
import { MalformedResponseError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new RemotiveAdapter();
const sim = useBoardSimulator({ seed: 16, jobsPerBoard: 30, families: [{ kind: 'remotive' }] });

afterEach(() => sim().setKnobs({ boards: { 'remotive:remotive': null } }));

describe('RemotiveAdapter', () => {
  it('validates: search is optional, blank means none', () => {
    expect(adapter.validateConfig({})).toEqual({ base_url: 'https://remotive.com', search: null });
    expect(adapter.validateConfig({ search: '  ' }).search).toBeNull();
    expect(() => adapter.validateConfig({ search: ['a'] })).toThrow(/search must be a string/);
  });

  it('returns every job, all remote, with normalized fields', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'remotive:remotive');
    expect(http.requests).toEqual([`${sim().url}/api/remote-jobs`]);
    expect(postings.map((p) => p.url)).toEqual(truth.map((j) => j.url));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'remotive', externalId: job.nativeId, title: job.title, company: job.company, location: job.location, remote: true }));
      // publication_date has no zone; it is read as UTC, to the second.
      expect(p.postedAt).toBe(`${job.postedAt.slice(0, 19)}.000Z`);
      expect(p.salaryText === null).toBe(job.salary === null);
      expect(p.compensation).toEqual(p.salaryText === null ? [] : [{ fieldPath: 'remotive.salary', value: p.salaryText }]);
    });
  });

  it("passes search to Remotive's filter", async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url, search: 'python' }), { http }));
    expect(http.requests).toEqual([`${sim().url}/api/remote-jobs?search=python`]);
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.length).toBeLessThan(30);
    expect(postings.every((p) => p.tags.some((t) => t.toLowerCase() === 'python') || /python/i.test(p.title))).toBe(true);
  });

  it('fails with MalformedResponseError on malformed JSON', async () => {
    sim().setKnobs({ boards: { 'remotive:remotive': { malformedJson: true } } });
    const { error } = await drain(adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
  });
});
