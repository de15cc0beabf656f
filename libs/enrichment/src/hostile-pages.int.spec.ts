// Issue #15's hostile pages, each at the level where enrichment meets it: the shared HTTP client
// (the host policy every detail fetch goes through) over real sockets to the board simulator, and the
// detail-page parser on what the client let through. A hostile page must end in a bounded, named error
// or a parse — never a hang, a crash of the process or memory growing with what the server sends.
import { HostPolicyHttpClient, ResponseTooLargeError, RequestTimeoutError, TooManyRedirectsError } from '@jobctrl/shared/http';
import { startBoardSimulator, type BoardSimulator, type ManifestJob, type PostingModeSetting } from '@jobctrl/tools/fixtures';
import { parseDetailPage } from './detail-page.parser';

describe('hostile detail pages (fault suite, HTTP client + parser level)', () => {
  let sim: BoardSimulator;
  let jobs: ManifestJob[];
  // Short deadlines keep the slow cases quick; the caps are the product's defaults.
  const http = new HostPolicyHttpClient({ minSpacingMs: 0, maxInFlightPerHost: 4, robotsUnreachableTtlMs: 0, requestTimeoutMs: 3_000, allowedPrivateHosts: ['127.0.0.1'] });

  beforeAll(async () => {
    sim = await startBoardSimulator({ seed: 15, jobsPerBoard: 10, families: [{ kind: 'greenhouse', token: 'acme' }] });
    jobs = sim.manifest().jobs.filter((j) => !j.private);
  });
  afterAll(() => sim.stop());

  function pageIn(i: number, mode: PostingModeSetting): string {
    sim.setKnobs({ postings: { [jobs[i].gid]: mode } });
    return jobs[i].url;
  }

  /** Heap in use after a GC when one is exposed, else as is: only a gross growth is asserted. */
  const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

  it('a 10 MB body is refused at the cap, by its Content-Length or while streaming', async () => {
    await expect(http.getText(pageIn(0, { mode: 'bloated', bytes: 10_000_000, contentLength: true }))).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(http.getText(pageIn(1, { mode: 'bloated', bytes: 10_000_000, contentLength: false }))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('a body dripped at one byte per second ends at the request deadline with a timeout error', async () => {
    await expect(http.getText(pageIn(2, { mode: 'byte_drip', intervalMs: 1000 }))).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('a redirect loop ends after the redirect cap, naming the hops', async () => {
    const err = await http.getText(pageIn(3, 'redirect_loop')).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRedirectsError);
    expect(String((err as Error).message)).toMatch(/redirect/i);
  });

  it('a gzip bomb is refused on its inflated size without inflating it all', async () => {
    const before = heapMb();
    await expect(http.getText(pageIn(4, { mode: 'gzip_bomb', inflatedBytes: 100_000_000 }))).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(heapMb() - before).toBeLessThan(50);
  });

  it('invalid UTF-8 decodes with replacement characters and the posting is still read', async () => {
    const html = await http.getText(pageIn(5, 'invalid_utf8'));
    expect(html).toContain('\uFFFD');
    const parsed = parseDetailPage(html);
    expect(parsed.method).not.toBe('needs_browser');
    expect(parsed.descriptionText?.length).toBeGreaterThan(100);
  });

  it('80 000 nested elements parse without a stack overflow, and the posting is read', async () => {
    // Under the 1 MB cap: 100 000 × "<div></div>" is 1.1 MB, so the parser's own depth is tested at 80 000.
    const html = await http.getText(pageIn(6, { mode: 'deep_nesting', depth: 80_000 }));
    const parsed = parseDetailPage(html);
    expect(parsed.method).not.toBe('needs_browser');
    expect(parsed.descriptionText).toContain(jobs[6].title.split(' ')[0]);
  });

  it('a 5 MB JSON-LD blob is refused at the response cap; under the cap it is parsed, and the page still read', async () => {
    await expect(http.getText(pageIn(7, { mode: 'huge_jsonld', bytes: 5_000_000 }))).rejects.toBeInstanceOf(ResponseTooLargeError);
    const html = await http.getText(pageIn(8, { mode: 'huge_jsonld', bytes: 900_000 }));
    const parsed = parseDetailPage(html);
    expect(parsed.descriptionText?.length).toBeGreaterThan(100);
  });
});
