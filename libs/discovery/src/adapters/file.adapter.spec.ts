import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileSourceAdapter } from './file.adapter';
import { type HttpClient, MalformedResponseError, SourceConfigError } from './source-adapter.model';
import { collect } from './testing/board-simulator.testing';
import { drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new FileSourceAdapter();
const TESTING = path.join(__dirname, 'testing');
/** The file source never touches the network. */
const http: HttpClient = {
  getJson: async () => {
    throw new Error('no network for files');
  },
  getText: async () => {
    throw new Error('no network for files');
  },
};

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'jobctrl-file-source-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('FileSourceAdapter.validateConfig', () => {
  it('infers the format from the extension, or requires it', () => {
    expect(adapter.validateConfig({ path: 'exports/jobs.CSV' })).toEqual({ path: 'exports/jobs.CSV', format: 'csv' });
    expect(adapter.validateConfig({ path: 'jobs.txt', format: 'json' })).toEqual({ path: 'jobs.txt', format: 'json' });
    expect(() => adapter.validateConfig({ path: 'jobs.txt' })).toThrow(/format is required when the path does not end in \.json or \.csv/);
    try {
      adapter.validateConfig({ path: '', format: 'xml' });
    } catch (err) {
      expect(err).toBeInstanceOf(SourceConfigError);
      expect((err as SourceConfigError).issues).toEqual([
        { field: 'path', value: '', rule: 'must be a non-empty file path' },
        { field: 'format', value: 'xml', rule: 'must be one of json, csv' },
      ]);
    }
    expect.assertions(5);
  });
});

describe('FileSourceAdapter.discover', () => {
  it('imports JobSpy CSV: quoted commas, doubled quotes, line breaks in fields, salary columns', async () => {
    const postings = await collect(adapter.discover(adapter.validateConfig({ path: path.join(TESTING, 'jobspy-export.fixture.csv') }), { http, fileSourceDirs: [TESTING, tmp] }));
    postings.forEach(expectNormalized);
    expect(postings.map((p) => p.externalId)).toEqual(['in-8f2c1a9b3d4e5f60', 'li-4012345678', 'gd-1009988776', 'nk-250214001234']);
    const [indeed, linkedin, glassdoor, naukri] = postings;
    expect(indeed).toEqual({
      sourceKind: 'file',
      externalId: 'in-8f2c1a9b3d4e5f60',
      title: 'Senior Backend Engineer',
      company: 'Acme, Inc.',
      location: 'Austin, TX, US',
      remote: false,
      url: 'https://www.indeed.com/viewjob?jk=8f2c1a9b3d4e5f60',
      applyUrl: 'https://careers.example.com/jobs/123',
      descriptionHtml: null,
      descriptionText: '**About the role**\n\nWe build APIs, queues and "boring" infrastructure.\n\n- 5+ years with Go\n- PostgreSQL',
      postedAt: '2025-02-20T00:00:00.000Z',
      salaryText: 'USD 120,000 - 150,000 per year',
      employmentType: 'FULL_TIME',
      tags: [],
      // The columns as published, for the compensation lib to read (the salary text is only a view).
      compensation: [{ fieldPath: 'jobspy.amounts', value: { min_amount: 120000, max_amount: 150000, currency: 'USD', interval: 'yearly' } }],
    });
    expect(linkedin).toEqual(expect.objectContaining({ remote: true, applyUrl: null, postedAt: null, salaryText: null, descriptionText: null, employmentType: 'FULL_TIME' }));
    // An HTML description (JobSpy's description_format="html") is kept as HTML and converted to text.
    expect(glassdoor).toEqual(
      expect.objectContaining({ descriptionHtml: expect.stringContaining('<b>mobile</b>'), descriptionText: 'Test our mobile apps.\n\n- Appium\n- CI', salaryText: 'USD 45 - 60 per hour', employmentType: 'CONTRACTOR' }),
    );
    expect(naukri).toEqual(expect.objectContaining({ remote: null, salaryText: 'INR 150,000 - 250,000 per month', employmentType: null, tags: ['Python', 'SQL', 'Airflow'] }));
    expect(linkedin.compensation).toEqual([]);
    expect(glassdoor.compensation).toEqual([{ fieldPath: 'jobspy.amounts', value: { min_amount: 45, max_amount: 60, currency: 'USD', interval: 'hourly' } }]);
  });

  it('imports JobSpy JSON records (epoch-millisecond dates, typed values)', async () => {
    const postings = await collect(adapter.discover(adapter.validateConfig({ path: path.join(TESTING, 'jobspy-export.fixture.json') }), { http, fileSourceDirs: [TESTING, tmp] }));
    postings.forEach(expectNormalized);
    expect(postings.map((p) => [p.externalId, p.postedAt, p.remote, p.salaryText, p.employmentType, p.applyUrl])).toEqual([
      ['in-77aa00bb11cc22dd', '2025-02-18T00:00:00.000Z', false, 'USD 90,000 - 110,000 per year', 'PART_TIME', null],
      ['li-3999000111', null, true, null, null, 'https://jobs.example.org/apply/3999000111'],
    ]);
  });

  it("imports pandas' column-oriented JSON (DataFrame.to_json default)", async () => {
    const file = path.join(tmp, 'columns.json');
    await writeFile(
      file,
      JSON.stringify({
        id: { '0': 'in-1', '1': 'in-2' },
        job_url: { '0': 'https://x.test/1', '1': 'https://x.test/2' },
        title: { '0': 'Dev A', '1': 'Dev B' },
        company: { '0': 'A', '1': 'B' },
        is_remote: { '0': true, '1': null },
      }),
    );
    const postings = await collect(adapter.discover(adapter.validateConfig({ path: file }), { http, fileSourceDirs: [TESTING, tmp] }));
    expect(postings.map((p) => [p.externalId, p.title, p.company, p.remote])).toEqual([
      ['in-1', 'Dev A', 'A', true],
      ['in-2', 'Dev B', 'B', null],
    ]);
  });

  it('imports our own posting JSON', async () => {
    const postings = await collect(adapter.discover(adapter.validateConfig({ path: path.join(TESTING, 'postings.fixture.json') }), { http, fileSourceDirs: [TESTING, tmp] }));
    postings.forEach(expectNormalized);
    expect(postings[0]).toEqual({
      sourceKind: 'file',
      externalId: 'manual-1',
      title: 'Platform Engineer',
      company: 'Northwind Systems',
      location: 'Hamburg, Germany',
      remote: false,
      url: 'https://careers.northwind.example/jobs/platform-engineer',
      applyUrl: 'https://careers.northwind.example/jobs/platform-engineer/apply',
      descriptionHtml: '<p>Run our <strong>Kubernetes</strong> platform.</p><ul><li>Terraform</li><li>Go</li></ul>',
      descriptionText: 'Run our Kubernetes platform.\n\n- Terraform\n- Go',
      postedAt: '2025-02-01T09:30:00.000Z',
      salaryText: '€70,000 - €85,000 per year',
      employmentType: 'FULL_TIME',
      tags: ['Kubernetes', 'Terraform'],
      compensation: [{ fieldPath: 'file.salaryText', value: '€70,000 - €85,000 per year' }],
    });
    // Without an externalId the URL identifies the posting.
    expect(postings[1]).toEqual(expect.objectContaining({ externalId: 'https://contoso.example/jobs/42', remote: true, descriptionText: 'Write docs for our REST APIs.', location: null }));
    expect(postings[2]).toEqual(expect.objectContaining({ postedAt: '2025-02-01T00:00:00.000Z', tags: ['AppSec', 'Threat Modeling'] }));
  });

  it('reports broken files as MalformedResponseError naming the file and the problem', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['unterminated.csv', 'id,job_url,title\n1,"https://x.test/1,Dev\n', /CSV line 2: unterminated quoted field/],
      ['extra.csv', 'id,job_url,title\n1,https://x.test/1,Dev,surplus\n', /record 1 has 4 fields but the header has 3/],
      ['missing-title.csv', 'id,job_url,title\n1,https://x.test/1,\n', /record 1: title is missing or empty/],
      ['wrong-columns.csv', 'name,link\nDev,https://x.test\n', /neither job_url \(JobSpy\) nor url/],
      ['bad.json', '[{"title": "Dev", ', /not valid JSON/],
      ['object.json', '{"jobs": []}', /expected a JSON array/],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(tmp, name);
      await writeFile(file, content);
      const { error } = await drain(adapter.discover(adapter.validateConfig({ path: file }), { http, fileSourceDirs: [TESTING, tmp] }));
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect((error as MalformedResponseError).url).toBe(`file://${file}`);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await drain(adapter.discover(adapter.validateConfig({ path: path.join(TESTING, 'postings.fixture.json') }), { http, signal: controller.signal, fileSourceDirs: [TESTING, tmp] }));
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
