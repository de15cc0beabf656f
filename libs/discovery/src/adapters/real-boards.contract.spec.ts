// Issue #27: every adapter over REAL board API responses (../shared/data/real_boards, read at run
// time, never copied here), replayed on loopback the way each API pages them, through the shared
// host policy with its real body caps.
import { HostPolicyHttpClient } from '@jobctrl/shared/http';
import { boardExpectations, missingLocations, postingTruth, readManifest, realBoardSourceConfig, REPLAY_KINDS, startRealBoardReplay, type RealBoard, type RealBoardReplay } from '@jobctrl/tools/fixtures';
import { contentKey } from '../identity';
import { collect } from './testing/board-simulator.testing';
import { SOURCE_ADAPTERS } from './source-adapter.registry';
import type { DiscoveredPosting, SkippedEntry, SourceAdapter } from './source-adapter.model';

// A missing folder fails here, naming where it was looked for: never a vacuous pass.
const manifest = readManifest();
const expected = boardExpectations();
const boards = manifest.boards.filter((b) => REPLAY_KINDS.includes(b.kind));

let replay: RealBoardReplay;
beforeAll(async () => {
  replay = await startRealBoardReplay();
});
afterAll(async () => {
  await replay?.stop();
});

/** The worker's host policy, less the spacing (the replay is the only host). */
const http = () => new HostPolicyHttpClient({ minSpacingMs: 0, maxInFlightPerHost: 4, allowedPrivateHosts: ['127.0.0.1'] });

async function discover(board: RealBoard, origin = replay.url): Promise<{ postings: DiscoveredPosting[]; skipped: SkippedEntry[] }> {
  const adapter = SOURCE_ADAPTERS[board.kind as keyof typeof SOURCE_ADAPTERS] as SourceAdapter<unknown>;
  const skipped: SkippedEntry[] = [];
  const postings = await collect(adapter.discover(adapter.validateConfig(realBoardSourceConfig(board, origin)), { http: http(), internalConcurrency: 4, skipped: (e) => skipped.push(e) }));
  return { postings, skipped };
}

describe('adapters over real board responses', () => {
  it('replays the boards of every kind the adapters read', () => {
    expect(boards.length).toBe(14);
    expect(new Set(boards.map((b) => b.kind))).toEqual(new Set(['greenhouse', 'lever', 'ashby', 'smartrecruiters', 'workable', 'remotive', 'remoteok', 'arbeitnow']));
  });

  describe.each(boards.map((b) => [b.id, b] as const))('%s', (_id, board) => {
    it('gives every posting once, as the board states it: id, title, employer, locations, pay', async () => {
      const want = expected[board.id];
      const truth = postingTruth(board);
      const { postings, skipped } = await discover(board);

      // Every posting once by its external id; blank entries skipped with a reason, never failing the board.
      const ids = postings.map((p) => p.externalId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(postings.length).toBe(want.postings);
      const blank = truth.filter((t) => !t.title || !t.company);
      expect(skipped.map((s) => s.reason)).toEqual(blank.map(() => expect.stringMatching(/^blank /)));
      // The identity rule's distinct jobs (reposts of one title and location are one job).
      expect(new Set(postings.map((p) => contentKey({ url: p.url, company: p.company, title: p.title, location: p.location }))).size).toBe(want.distinctJobs);

      const byId = new Map(truth.map((t) => [t.id, t]));
      for (const p of postings) {
        const t = byId.get(p.externalId);
        expect({ id: p.externalId, title: p.title }).toEqual({ id: t?.id, title: t?.title });
        // Every location the posting lists is kept, the primary one first.
        const locations = p.locations ?? (p.location ? [p.location] : []);
        expect({ id: p.externalId, missing: missingLocations(locations, t?.locations ?? []) }).toEqual({ id: p.externalId, missing: [] });
        if (p.location) expect(locations[0]).toBe(p.location);
        // Lever's workplaceType as the API sends it ("onsite", not "on-site").
        if (t?.remote !== undefined && t.remote !== null) expect({ id: p.externalId, remote: p.remote }).toEqual({ id: p.externalId, remote: t.remote });
        if (board.company_from === 'page-jsonld') {
          // The API names no employer: the token stands in, marked as one, until the page names it.
          expect({ company: p.company, fromToken: p.companyFromToken }).toEqual({ company: board.config['company_name'] ?? board.token, fromToken: true });
        } else {
          expect({ id: p.externalId, company: p.company }).toEqual({ id: p.externalId, company: t?.company });
          expect(p.companyFromToken ?? false).toBe(false);
        }
      }
      expect(postings.filter((p) => p.location).length).toBe(want.withLocation);
      expect(postings.filter((p) => p.descriptionText).length).toBe(want.withDescription);
      // Structured pay is captured as the board published it (the compensation lib reads it).
      const structured = postings.filter((p) => (p.compensation ?? []).some((c) => /pay_input_ranges|ashby\.compensation|salary_min_max|salaryRange/.test(c.fieldPath)));
      expect(structured.length).toBe(want.structuredPay);
    });
  });

  it("a Greenhouse board whose name lookup fails keeps its jobs under the token, marked for the page's employer (#27)", async () => {
    const codepath = boards.find((b) => b.id === 'greenhouse/codepath') as RealBoard;
    const noNames = await startRealBoardReplay({ boards: [codepath.id], boardEndpoints: false });
    try {
      const { postings } = await discover(codepath, noNames.url);
      expect(postings.length).toBe(expected[codepath.id].postings);
      for (const p of postings) expect({ company: p.company, fromToken: p.companyFromToken }).toEqual({ company: 'codepath', fromToken: true });
      expect(noNames.requests()['/v1/boards/codepath']).toBe(1);
    } finally {
      await noNames.stop();
    }
  });
});
