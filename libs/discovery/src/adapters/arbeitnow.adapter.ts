import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, normalizeEmploymentTypes, toIsoDate } from './posting-fields.normalizer';
import { entriesWithText, objectEntries } from './feed-entry.rules';
import { fetchJson, type JsonObject, ShapeReader } from './response-shape.reader';
import { type DiscoverContext, type DiscoveredPosting, MalformedResponseError, type SourceAdapter, type SourceConfigField } from './source-adapter.model';
import { baseUrlField, ConfigReader } from './source-config.validation';

export interface ArbeitnowConfig {
  base_url: string;
  /** Arbeitnow has no search parameter: jobs are kept when every word appears in title, company, tags or description. */
  search: string | null;
}

export const ARBEITNOW_DEFAULT_BASE_URL = 'https://www.arbeitnow.com';
const MAX_PAGES = 1000;

/** Every whitespace-separated word of `search` occurs (case-insensitively) in one of the texts. */
export function matchesSearch(search: string | null, texts: ReadonlyArray<string | null>): boolean {
  const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  return words.every((w) => hay.includes(w));
}

/**
 * Arbeitnow job board API: `GET /api/job-board-api?page=N`, newest first, followed until
 * `links.next` is null. Page URLs are built from base_url rather than taken from links.next, so a
 * configured mirror or proxy is not bypassed by absolute links in the response.
 */
export class ArbeitnowAdapter implements SourceAdapter<ArbeitnowConfig> {
  readonly kind = 'arbeitnow' as const;

  readonly label = 'Arbeitnow';
  readonly description = 'Jobs from the Arbeitnow job board API (every page), optionally kept to those that mention a search.';
  readonly fields: readonly SourceConfigField[] = [
    { name: 'search', type: 'string', required: false, description: 'Keep only postings whose title, company, tags or description mention it; every job when empty.' },
    baseUrlField(ARBEITNOW_DEFAULT_BASE_URL),
  ];

  validateConfig(raw: unknown): ArbeitnowConfig {
    const r = new ConfigReader(this.kind, raw, this.fields);
    return r.finish({ base_url: r.baseUrl('base_url') ?? '', search: r.optionalString('search') });
  }

  async *discover(config: ArbeitnowConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    for (let page = 1; ; page++) {
      ctx.signal?.throwIfAborted();
      const url = `${config.base_url}/api/job-board-api?page=${page}`;
      if (page > MAX_PAGES) throw new MalformedResponseError(url, `still announcing a next page after ${MAX_PAGES} pages`);
      const s = new ShapeReader(url);
      const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
      const data = s.array(body['data'], 'body.data');
      const links = s.object(body['links'], 'body.links');
      const postings = entriesWithText(objectEntries(s, data, 'data'), ['title', 'company_name'], ctx, 'slug').map(({ item, where }) => toPosting(s, item, where));
      yield* postings.filter((p) => matchesSearch(config.search, [p.title, p.company, p.tags.join(' '), p.descriptionText]));
      if (!data.length || !s.optString(links, 'next', 'body.links')) return;
    }
  }
}

function toPosting(s: ShapeReader, job: JsonObject, where: string): DiscoveredPosting {
  const html = s.optString(job, 'description', where);
  const created = s.optNumber(job, 'created_at', where);
  return {
    sourceKind: 'arbeitnow',
    externalId: s.string(job, 'slug', where),
    title: s.string(job, 'title', where),
    company: s.string(job, 'company_name', where),
    location: s.optString(job, 'location', where),
    remote: s.optBoolean(job, 'remote', where),
    url: s.string(job, 'url', where),
    applyUrl: null,
    descriptionHtml: html,
    descriptionText: html ? htmlToReadableText(html) : null,
    postedAt: created === null ? null : toIsoDate(created, 's'),
    salaryText: null,
    employmentType: normalizeEmploymentTypes(s.optStrings(job, 'job_types', where)),
    tags: cleanTags(s.optStrings(job, 'tags', where)),
  };
}
