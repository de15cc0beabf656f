import { JobStreamingAdapter, type JobStreamingConfig } from './jobstreaming.adapter';
import { type DiscoveredPosting, MalformedResponseError, SourceConfigError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new JobStreamingAdapter();
const sim = useBoardSimulator({
  seed: 19,
  jobsPerBoard: 30,
  families: [{ kind: 'greenhouse', token: 'acme' }, { kind: 'remotive' }, { kind: 'remoteok' }, { kind: 'arbeitnow' }, { kind: 'aggregator', token: 'jobsearch' }],
  knobs: { pageSize: 6, crossSource: 4 },
});

afterEach(() => sim().setKnobs({ boards: { 'remotive:remotive': null } }));

function configFor(units: unknown[]): JobStreamingConfig {
  return adapter.validateConfig({ base_url: sim().url, units });
}

describe('JobStreamingAdapter.validateConfig', () => {
  it('resolves each unit to a base URL: base_urls[board], else base_url, else the public host', () => {
    const config = adapter.validateConfig({
      base_url: 'http://127.0.0.1:1',
      base_urls: { aggregator: 'http://127.0.0.1:2/' },
      units: [
        { query: 'go', board: 'aggregator', location: 'Berlin' },
        { query: 'go', board: 'remotive' },
      ],
    });
    expect(config.units).toEqual([
      { board: 'aggregator', query: 'go', location: 'Berlin', base_url: 'http://127.0.0.1:2' },
      { board: 'remotive', query: 'go', location: null, base_url: 'http://127.0.0.1:1' },
    ]);
    expect(adapter.validateConfig({ units: [{ query: 'go', board: 'arbeitnow' }] }).units[0].base_url).toBe('https://www.arbeitnow.com');
  });

  it('names each bad unit field', () => {
    let error: SourceConfigError | undefined;
    try {
      adapter.validateConfig({ units: [{ query: 'go', board: 'aggregator' }, { query: '', board: 'monster' }, { query: 'x', board: 'remotive', page: 2 }] });
    } catch (err) {
      error = err as SourceConfigError;
    }
    expect(error).toBeInstanceOf(SourceConfigError);
    expect(error?.issues).toEqual([
      expect.objectContaining({ field: 'units[0].board', value: 'aggregator', rule: expect.stringContaining('needs base_url or base_urls.aggregator') }),
      expect.objectContaining({ field: 'units[1].query', value: '' }),
      expect.objectContaining({ field: 'units[1].board', value: 'monster', rule: 'must be one of remotive, remoteok, arbeitnow, aggregator' }),
      expect.objectContaining({ field: 'units[2].page', rule: expect.stringContaining('not a known field') }),
    ]);
    expect(() => adapter.validateConfig({ units: [] })).toThrow(/units is required/);
    expect(() => adapter.validateConfig({ units: [{ query: 'go', board: 'remotive' }], base_urls: { monster: 'http://x' } })).toThrow(/base_urls\.monster is not a known field/);
  });
});

describe('JobStreamingAdapter.unitKey', () => {
  it('is stable across case, spacing and base URL, and distinguishes board, query and location', () => {
    const key = adapter.unitKey({ board: 'aggregator', query: ' Senior  Engineer', location: 'Berlin' });
    expect(key).toBe('aggregator:q=senior%20engineer&l=berlin');
    expect(adapter.unitKey({ board: 'aggregator', query: 'senior engineer', location: ' BERLIN ' })).toBe(key);
    const unit = { query: 'x', board: 'aggregator' };
    const [a] = adapter.validateConfig({ base_url: 'http://a.test', units: [unit] }).units;
    const [b] = adapter.validateConfig({ base_url: 'http://b.test', units: [unit] }).units;
    expect(a.base_url).not.toBe(b.base_url);
    expect(adapter.unitKey(a)).toBe(adapter.unitKey(b));
    const keys = new Set([
      key,
      adapter.unitKey({ board: 'remotive', query: 'senior engineer', location: 'Berlin' }),
      adapter.unitKey({ board: 'aggregator', query: 'senior engineer', location: null }),
      adapter.unitKey({ board: 'aggregator', query: 'staff engineer', location: 'Berlin' }),
    ]);
    expect(keys.size).toBe(4);
  });
});

describe('JobStreamingAdapter.discover', () => {
  it('reads the HTML search board page by page, every matching card becoming a posting', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(configFor([{ query: 'engineer', board: 'aggregator' }]), { http }));
    const expected = boardJobs(sim(), 'aggregator:jobsearch').filter((j) => `${j.title} ${j.company} ${j.skills.join(' ')}`.toLowerCase().includes('engineer'));
    expect(expected.length).toBeGreaterThan(6);
    expect(http.requests).toHaveLength(Math.ceil(expected.length / 6));
    expect(postings.map((p) => p.url)).toEqual(expected.map((j) => j.url));
    postings.forEach((p, i) => {
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'jobstreaming', externalId: expect.stringMatching(/^aggregator:[0-9a-f]{16}$/), title: expected[i].title, company: expected[i].company, postedAt: expected[i].postedAt }));
      expect(p.salaryText).toBe(expected[i].salary);
      expect(p.compensation).toEqual(expected[i].salary ? [{ fieldPath: 'jobstreaming.salary', value: expected[i].salary }] : []);
    });
    // Jobs cross-listed from an ATS board carry that board's canonical URL.
    const cross = expected.filter((j) => j.board === 'greenhouse:acme');
    expect(cross.length).toBeGreaterThan(0);
    for (const job of cross) expect(postings.some((p) => p.url === job.url)).toBe(true);
  });

  it('passes the location to the search board', async () => {
    const city = boardJobs(sim(), 'aggregator:jobsearch').find((j) => !j.remote)?.location.split(',')[0] ?? 'Berlin';
    const postings = await collect(adapter.discover(configFor([{ query: 'a', location: city, board: 'aggregator' }]), { http: new FetchHttpClient() }));
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.every((p) => p.location?.includes(city))).toBe(true);
  });

  it('runs units one after another in the given order, tagging ids with the board', async () => {
    const http = new FetchHttpClient();
    const units = [
      { query: 'python', board: 'remotive' },
      { query: 'kubernetes', board: 'remoteok' },
      { query: 'engineer', location: 'Berlin', board: 'arbeitnow' },
    ];
    const postings = await collect(adapter.discover(configFor(units), { http }));
    const boards = postings.map((p) => p.externalId.split(':')[0]);
    expect(boards).toEqual([...boards].sort((a, b) => ['remotive', 'remoteok', 'arbeitnow'].indexOf(a) - ['remotive', 'remoteok', 'arbeitnow'].indexOf(b)));
    expect(new Set(boards)).toEqual(new Set(['remotive', 'remoteok', 'arbeitnow']));
    expect(http.requests.map((u) => new URL(u).pathname)).toEqual(['/api/remote-jobs', '/api', ...http.requests.slice(2).map(() => '/api/job-board-api')]);
    postings.forEach(expectNormalized);
    expect(postings.every((p) => p.sourceKind === 'jobstreaming')).toBe(true);
    // Arbeitnow cannot filter by place: the unit keeps only postings in the asked location.
    const arbeitnow = postings.filter((p) => p.externalId.startsWith('arbeitnow:'));
    expect(arbeitnow.length).toBeGreaterThan(0);
    expect(arbeitnow.every((p) => p.location === 'Berlin')).toBe(true);
  });

  it('discoverUnit resumes with one unit and yields what discover yields for it', async () => {
    const config = configFor([
      { query: 'python', board: 'remotive' },
      { query: 'engineer', board: 'aggregator' },
    ]);
    const all = await collect(adapter.discover(config, { http: new FetchHttpClient() }));
    const http = new FetchHttpClient();
    const resumed = await collect(adapter.discoverUnit(config.units[1], { http }));
    expect(http.requests.every((u) => new URL(u).pathname === '/search')).toBe(true);
    expect(resumed).toEqual(all.filter((p: DiscoveredPosting) => p.externalId.startsWith('aggregator:')));
  });

  it('stops between units when aborted', async () => {
    const http = new FetchHttpClient();
    const controller = new AbortController();
    let seen = 0;
    const run = async () => {
      for await (const _p of adapter.discover(configFor([{ query: 'python', board: 'remotive' }, { query: 'engineer', board: 'aggregator' }]), { http, signal: controller.signal })) {
        seen++;
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBeGreaterThan(0);
    expect(http.requests.map((u) => new URL(u).pathname)).toEqual(['/api/remote-jobs']);
  });

  it('fails the unit with MalformedResponseError when a board answers malformed JSON', async () => {
    sim().setKnobs({ boards: { 'remotive:remotive': { malformedJson: true } } });
    const { error } = await drain(adapter.discover(configFor([{ query: 'python', board: 'remotive' }]), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).url).toBe(`${sim().url}/api/remote-jobs?search=python`);
  });
});
