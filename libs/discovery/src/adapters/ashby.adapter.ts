import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, normalizeEmploymentType, postingLocations, remoteFromText, segment, toIsoDate } from './posting-fields.normalizer';
import { fetchJson, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting } from './source-adapter.model';
import { boardEmployer, type BoardEmployer, SingleCompanyBoardAdapter } from './single-company-board.adapter';

export interface AshbyConfig {
  base_url: string;
  board: string;
  /** The employer's name as the user gave it: the posting API names none. */
  company_name: string | null;
}

export const ASHBY_DEFAULT_BASE_URL = 'https://api.ashbyhq.com';

/**
 * Ashby posting API: `GET /posting-api/job-board/{board}?includeCompensation=true` returns the
 * whole board at once with HTML and plain-text descriptions and, when published, pay summaries.
 */
export class AshbyAdapter extends SingleCompanyBoardAdapter<AshbyConfig> {
  constructor() {
    super({
      kind: 'ashby',
      label: 'Ashby',
      description: "One employer's Ashby job board (the public posting API, compensation included).",
      tokenKey: 'board',
      tokenDescription: 'The job board name, as in jobs.ashbyhq.com/<board>.',
      defaultBaseUrl: ASHBY_DEFAULT_BASE_URL,
    });
  }

  async *discover(config: AshbyConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/posting-api/job-board/${segment(config.board)}?includeCompensation=true`;
    const s = new ShapeReader(url);
    const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
    const jobs = s.array(body['jobs'], 'body.jobs').map((item, i) => s.object(item, `jobs[${i}]`));
    // Unlisted postings are reachable by link only; the board does not advertise them.
    const employer = boardEmployer(config.company_name, null, config.board);
    const postings = jobs.flatMap((job, i) => (s.optBoolean(job, 'isListed', `jobs[${i}]`) === false ? [] : [toPosting(s, job, `jobs[${i}]`, employer)]));
    yield* postings;
  }
}

function toPosting(s: ShapeReader, job: Record<string, unknown>, where: string, employer: BoardEmployer): DiscoveredPosting {
  const secondary = s.optArray(job, 'secondaryLocations', where).map((l, i) => s.optString(s.object(l, `${where}.secondaryLocations[${i}]`), 'location', `${where}.secondaryLocations[${i}]`));
  const { location, locations } = postingLocations(s.optString(job, 'location', where), secondary);
  const isRemote = s.optBoolean(job, 'isRemote', where);
  const workplace = s.optString(job, 'workplaceType', where);
  const html = s.optString(job, 'descriptionHtml', where);
  const comp = s.optObject(job, 'compensation', where);
  const cw = `${where}.compensation`;
  return {
    sourceKind: 'ashby',
    externalId: s.string(job, 'id', where),
    title: s.string(job, 'title', where),
    // The posting API does not name the company: the configured company_name, else the board name
    // until enrichment finds the employer's name in the posting page's JSON-LD.
    ...employer,
    location,
    locations,
    remote: isRemote ?? (workplace ? workplace === 'Remote' : remoteFromText(location)),
    url: s.string(job, 'jobUrl', where),
    applyUrl: s.optString(job, 'applyUrl', where),
    descriptionHtml: html,
    descriptionText: s.optString(job, 'descriptionPlain', where) ?? (html ? htmlToReadableText(html) : null),
    postedAt: toIsoDate(s.optString(job, 'publishedAt', where)),
    // The "scrapeable" summary is the salary alone; the tier summary may append "• Offers Equity".
    salaryText: comp ? s.optString(comp, 'scrapeableCompensationSalarySummary', cw) ?? s.optString(comp, 'compensationTierSummary', cw) : null,
    employmentType: normalizeEmploymentType(s.optString(job, 'employmentType', where)),
    tags: cleanTags([s.optString(job, 'department', where), s.optString(job, 'team', where)]),
    compensation: compensationStatements([['ashby.compensation', comp]]),
  };
}
