import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, formatSalaryRange, normalizeEmploymentType, postingLocations, remoteFromText, type SalaryPeriod, segment, toIsoDate } from './posting-fields.normalizer';
import { paginate } from './offset-paging.reader';
import type { ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting } from './source-adapter.model';
import { boardEmployer, type BoardEmployer, SingleCompanyBoardAdapter } from './single-company-board.adapter';

export interface LeverConfig {
  base_url: string;
  site: string;
  /** The employer's name as the user gave it: the postings API names none. */
  company_name: string | null;
}

export const LEVER_DEFAULT_BASE_URL = 'https://api.lever.co';

const INTERVALS: Record<string, SalaryPeriod> = {
  'per-year-salary': 'year',
  'per-month-salary': 'month',
  'per-week-salary': 'week',
  'per-day-wage': 'day',
  'per-hour-wage': 'hour',
};

/**
 * Lever Postings API: `GET /v0/postings/{site}?mode=json&skip=&limit=` returns a bare array. Pages
 * are read until an empty one: a short page does not prove the end, because a server may cap
 * `limit` below what was asked.
 */
export class LeverAdapter extends SingleCompanyBoardAdapter<LeverConfig> {
  constructor() {
    super({
      kind: 'lever',
      label: 'Lever',
      description: "One employer's Lever postings (the public Postings API, paged).",
      tokenKey: 'site',
      tokenDescription: 'The site name, as in jobs.lever.co/<site>.',
      defaultBaseUrl: LEVER_DEFAULT_BASE_URL,
    });
  }

  async *discover(config: LeverConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    const seen = new Set<string>();
    const pages = paginate(
      ctx,
      (skip, limit) => `${config.base_url}/v0/postings/${segment(config.site)}?mode=json&skip=${skip}&limit=${limit}`,
      (s, body) => {
        const items = s.array(body, 'body');
        const postings = items.map((item, i) => toPosting(s, s.object(item, `[${i}]`), `[${i}]`, boardEmployer(config.company_name, null, config.site)));
        const fresh = postings.filter((p) => !seen.has(p.externalId));
        for (const p of fresh) seen.add(p.externalId);
        // An empty page ends the list; a page of only known ids means the server ignored skip: stop
        // rather than loop forever.
        return { items: fresh, advance: items.length, last: !fresh.length };
      },
    );
    for await (const postings of pages) yield* postings;
  }
}

/** Lever's `workplaceType` as the API sends it: remote, or a place of work (onsite, hybrid); else unknown. */
const WORKPLACE_REMOTE: Readonly<Record<string, boolean>> = { remote: true, onsite: false, 'on-site': false, hybrid: false };

function toPosting(s: ShapeReader, p: Record<string, unknown>, where: string, employer: BoardEmployer): DiscoveredPosting {
  const categories = s.optObject(p, 'categories', where) ?? {};
  const cw = `${where}.categories`;
  // Every location the posting lists: categories.location first, then allLocations (in categories, or
  // top-level in some responses).
  const { location, locations } = postingLocations(s.optString(categories, 'location', cw), [...s.optStrings(categories, 'allLocations', cw), ...s.optStrings(p, 'allLocations', where)]);
  const lists = s.optArray(p, 'lists', where).map((l, i) => {
    const list = s.object(l, `${where}.lists[${i}]`);
    return { text: s.optString(list, 'text', `${where}.lists[${i}]`), content: s.optString(list, 'content', `${where}.lists[${i}]`) };
  });
  const htmlParts = [
    s.optString(p, 'description', where),
    ...lists.map((l) => `${l.text ? `<h3>${escapeText(l.text)}</h3>` : ''}${l.content ? `<ul>${l.content}</ul>` : ''}`),
    s.optString(p, 'additional', where),
  ].filter((x): x is string => Boolean(x));
  const descriptionHtml = htmlParts.length ? htmlParts.join('\n') : null;
  const workplace = s.optString(p, 'workplaceType', where);
  const salary = s.optObject(p, 'salaryRange', where);
  const createdAt = s.optNumber(p, 'createdAt', where);
  const salaryHtml = s.optString(p, 'salaryDescription', where);
  const salaryDescription = s.optString(p, 'salaryDescriptionPlain', where) ?? (salaryHtml ? htmlToReadableText(salaryHtml) : null);
  return {
    sourceKind: 'lever',
    externalId: s.string(p, 'id', where),
    title: s.string(p, 'text', where),
    // The postings API does not name the company: the configured company_name, else the site until
    // enrichment finds the employer's name in the posting page's JSON-LD.
    ...employer,
    location,
    locations,
    // "unspecified" (or none) says nothing: the location text may still say "Remote".
    remote: WORKPLACE_REMOTE[workplace?.toLowerCase() ?? ''] ?? remoteFromText(location),
    url: s.string(p, 'hostedUrl', where),
    applyUrl: s.optString(p, 'applyUrl', where),
    descriptionHtml,
    descriptionText: descriptionHtml ? htmlToReadableText(descriptionHtml) : s.optString(p, 'descriptionPlain', where),
    postedAt: createdAt === null ? null : toIsoDate(createdAt, 'ms'),
    salaryText: salary
      ? formatSalaryRange(
          s.optNumber(salary, 'min', `${where}.salaryRange`),
          s.optNumber(salary, 'max', `${where}.salaryRange`),
          s.optString(salary, 'currency', `${where}.salaryRange`),
          INTERVALS[s.optString(salary, 'interval', `${where}.salaryRange`) ?? ''] ?? null,
        )
      : salaryDescription,
    employmentType: normalizeEmploymentType(s.optString(categories, 'commitment', cw)),
    tags: cleanTags([s.optString(categories, 'team', cw), s.optString(categories, 'department', cw)]),
    compensation: compensationStatements([['lever.salaryRange', salary], ['lever.salaryDescription', salaryDescription]]),
  };
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
