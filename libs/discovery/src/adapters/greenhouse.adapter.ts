import { htmlToReadableText } from '@jobctrl/shared/html';
import { decodeEntities } from './html-document.parser';
import { cleanTags, compensationStatements, normalizeEmploymentType, postingLocations, remoteFromText, segment, toIsoDate } from './posting-fields.normalizer';
import { fetchJson, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting } from './source-adapter.model';
import { boardEmployer, type BoardEmployer, SingleCompanyBoardAdapter } from './single-company-board.adapter';

export interface GreenhouseConfig {
  base_url: string;
  board_token: string;
  /** The employer's name as the user gave it; wins over the board's own name. */
  company_name: string | null;
}

export const GREENHOUSE_DEFAULT_BASE_URL = 'https://boards-api.greenhouse.io';

/**
 * Greenhouse Job Board API: `GET /v1/boards/{token}/jobs?content=true` returns the whole board in
 * one response (no pagination), descriptions included but HTML-escaped a second time; with
 * `pay_transparency=true` each job also carries its `pay_input_ranges` (pay in cents).
 *
 * The company is the configured `company_name`, else the board's own name: each job's
 * `company_name`, or for jobs without one the board endpoint `GET /v1/boards/{token}` (`{name}`),
 * asked once and only then. A board endpoint that fails (a 404 where the board has none, a 5xx)
 * does not fail the board: its jobs keep the token, marked as one (companyFromToken), until the
 * posting page's JSON-LD employer replaces it. The token ("acme") is the last resort: letters would
 * address it.
 */
export class GreenhouseAdapter extends SingleCompanyBoardAdapter<GreenhouseConfig> {
  constructor() {
    super({
      kind: 'greenhouse',
      label: 'Greenhouse',
      description: "One employer's Greenhouse job board (the Job Board API: the whole board in one response, pay ranges included).",
      tokenKey: 'board_token',
      tokenDescription: 'The board token, as in boards.greenhouse.io/<token>.',
      defaultBaseUrl: GREENHOUSE_DEFAULT_BASE_URL,
    });
  }

  async *discover(config: GreenhouseConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/v1/boards/${segment(config.board_token)}/jobs?content=true&pay_transparency=true`;
    const s = new ShapeReader(url);
    const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
    const jobs = s.array(body['jobs'], 'body.jobs').map((item, i) => s.object(item, `jobs[${i}]`));
    const unnamed = config.company_name === null && jobs.some((job, i) => s.optString(job, 'company_name', `jobs[${i}]`) === null);
    const fallback = boardEmployer(null, unnamed ? await boardName(config, ctx) : null, config.board_token);
    // Map everything before yielding: a malformed job anywhere fails the board as a whole.
    const postings = jobs.map((job, i) => toPosting(s, job, `jobs[${i}]`, config.company_name, fallback));
    yield* postings;
  }
}

/**
 * The board's display name from `GET /v1/boards/{token}`, or null when it gives none or cannot be
 * read: the name is a nicety the jobs do not depend on (a cancel still ends the crawl).
 */
async function boardName(config: GreenhouseConfig, ctx: DiscoverContext): Promise<string | null> {
  ctx.signal?.throwIfAborted();
  const url = `${config.base_url}/v1/boards/${segment(config.board_token)}`;
  try {
    const s = new ShapeReader(url);
    return s.optString(s.object(await fetchJson(ctx.http, url, ctx.signal), 'body'), 'name', 'body');
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    return null;
  }
}

/** Custom fields that state pay, by name. */
const SALARY_FIELD_RE = /salary|compensation|pay range/i;

function toPosting(s: ShapeReader, job: Record<string, unknown>, where: string, configured: string | null, fallback: BoardEmployer): DiscoveredPosting {
  const location = s.optObject(job, 'location', where);
  // The offices a job is attached to are places too (GitHub's "Tokyo - Japan" office is "Tokyo, Japan").
  const offices = s.optArray(job, 'offices', where).map((o, i) => {
    const office = s.object(o, `${where}.offices[${i}]`);
    return s.optString(office, 'location', `${where}.offices[${i}]`) ?? s.optString(office, 'name', `${where}.offices[${i}]`);
  });
  const { location: locationName, locations } = postingLocations(location ? s.optString(location, 'name', `${where}.location`) : null, offices);
  const named = configured ?? s.optString(job, 'company_name', where);
  const escaped = s.optString(job, 'content', where);
  const descriptionHtml = escaped ? decodeEntities(escaped) : null;
  const metadata = s.optArray(job, 'metadata', where).map((m, i) => s.object(m, `${where}.metadata[${i}]`));
  // Custom fields hold strings, numbers or option lists; only a plain string reads as text.
  const metaTexts = (pattern: RegExp): Array<[string, string]> =>
    metadata.flatMap((m, i) => {
      const name = s.optString(m, 'name', `${where}.metadata[${i}]`);
      return name && pattern.test(name) && typeof m['value'] === 'string' && m['value'].trim() ? [[name, m['value'].trim()] as [string, string]] : [];
    });
  const metaValue = (pattern: RegExp): string | null => metaTexts(pattern)[0]?.[1] ?? null;
  const payRanges = s.optArray(job, 'pay_input_ranges', where).map((r, i) => s.object(r, `${where}.pay_input_ranges[${i}]`));
  const departments = s.optArray(job, 'departments', where).map((d, i) => s.optString(s.object(d, `${where}.departments[${i}]`), 'name', `${where}.departments[${i}]`));
  return {
    sourceKind: 'greenhouse',
    externalId: s.id(job, 'id', where),
    title: s.string(job, 'title', where),
    ...(named === null ? fallback : { company: named, companyFromToken: false }),
    location: locationName,
    locations,
    remote: remoteFromText(locationName),
    url: s.string(job, 'absolute_url', where),
    // Greenhouse's application form is on the posting page itself.
    applyUrl: null,
    descriptionHtml,
    descriptionText: descriptionHtml ? htmlToReadableText(descriptionHtml) : null,
    postedAt: toIsoDate(s.optString(job, 'first_published', where) ?? s.optString(job, 'updated_at', where)),
    salaryText: metaValue(SALARY_FIELD_RE),
    employmentType: normalizeEmploymentType(metaValue(/employment type|job type/i)),
    tags: cleanTags(departments),
    compensation: compensationStatements([
      ['greenhouse.pay_input_ranges', payRanges],
      ...metaTexts(SALARY_FIELD_RE).map(([name, text]) => [`greenhouse.metadata.${name}`, text] as const),
    ]),
  };
}
