import { ArbeitnowAdapter, matchesSearch } from './arbeitnow.adapter';
import { MalformedResponseError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new ArbeitnowAdapter();
const sim = useBoardSimulator({ seed: 18, jobsPerBoard: 27, families: [{ kind: 'arbeitnow' }], knobs: { pageSize: 10 } });

afterEach(() => sim().setKnobs({ boards: { 'arbeitnow:arbeitnow': null } }));

describe('ArbeitnowAdapter', () => {
  it('matches every search word somewhere', () => {
    expect(matchesSearch('senior go', ['Senior Backend Engineer', 'Go, Kafka'])).toBe(true);
    expect(matchesSearch('senior rust', ['Senior Backend Engineer', 'Go, Kafka'])).toBe(false);
    expect(matchesSearch(null, [])).toBe(true);
  });

  it('follows pages until links.next is null and returns every job, normalized', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'arbeitnow:arbeitnow');
    expect(http.requests).toEqual([1, 2, 3].map((n) => `${sim().url}/api/job-board-api?page=${n}`));
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'arbeitnow', title: job.title, company: job.company, url: job.url, remote: job.remote }));
      expect(p.postedAt).toBe(new Date(Math.floor(Date.parse(job.postedAt) / 1000) * 1000).toISOString());
      // German and English job types both map to the schema.org vocabulary.
      expect(p.employmentType).toMatch(/^(FULL_TIME|PART_TIME|CONTRACTOR|INTERN|TEMPORARY)$/);
    });
  });

  it('filters by search on its side (Arbeitnow has no search parameter)', async () => {
    const postings = await collect(adapter.discover(adapter.validateConfig({ base_url: sim().url, search: 'engineer' }), { http: new FetchHttpClient() }));
    const expected = boardJobs(sim(), 'arbeitnow:arbeitnow').filter((j) => /engineer/i.test(`${j.title} ${j.company}`) || /engineer/i.test(j.skills.join(' ')));
    expect(postings.length).toBeGreaterThanOrEqual(expected.length);
    expect(postings.length).toBeLessThan(27);
    expect(postings.every((p) => /engineer/i.test(`${p.title} ${p.company} ${p.tags.join(' ')} ${p.descriptionText}`))).toBe(true);
  });

  it('stops between pages when aborted', async () => {
    const http = new FetchHttpClient();
    const controller = new AbortController();
    let count = 0;
    const run = async () => {
      for await (const _p of adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http, signal: controller.signal })) {
        count++;
        if (count === 12) controller.abort(); // on page 2
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(http.requests).toHaveLength(2);
    expect(count).toBe(20);
  });

  it('fails with MalformedResponseError when a later page is malformed, after yielding earlier pages', async () => {
    const http = new FetchHttpClient();
    const seen: string[] = [];
    const run = async () => {
      for await (const p of adapter.discover(adapter.validateConfig({ base_url: sim().url }), { http })) {
        seen.push(p.externalId);
        if (seen.length === 10) sim().setKnobs({ boards: { 'arbeitnow:arbeitnow': { malformedJson: true } } });
      }
    };
    await expect(run()).rejects.toBeInstanceOf(MalformedResponseError);
    expect(seen).toHaveLength(10);
  });
});
