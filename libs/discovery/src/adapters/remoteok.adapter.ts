import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, formatSalaryRange, toIsoDate } from './posting-fields.normalizer';
import { entriesWithText, objectEntries } from './feed-entry.rules';
import { fetchJson, type JsonObject, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting, SourceAdapter, SourceConfigField } from './source-adapter.model';
import { baseUrlField, ConfigReader } from './source-config.validation';

export interface RemoteOkConfig {
  base_url: string;
  /** RemoteOK filters by one tag ("typescript", "senior-dev"); null lists every job. */
  search: string | null;
}

export const REMOTEOK_DEFAULT_BASE_URL = 'https://remoteok.com';

/** RemoteOK tags are lower-case and dashed; "Node.js Dev" becomes "nodejs-dev". */
export function remoteOkTag(search: string): string {
  return search
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/[^a-z0-9+#]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * RemoteOK: `GET /api?tag=` returns an array whose first element is the API's legal notice, then
 * every matching job. All jobs are remote; pay, when given, is yearly USD bounds (0 = not given).
 */
export class RemoteOkAdapter implements SourceAdapter<RemoteOkConfig> {
  readonly kind = 'remoteok' as const;

  readonly label = 'RemoteOK';
  readonly description = 'Remote jobs from the RemoteOK API, optionally one tag of it.';
  readonly fields: readonly SourceConfigField[] = [
    { name: 'search', type: 'string', required: false, description: 'A RemoteOK tag (letters and digits, e.g. "typescript"); every listed job when empty.' },
    baseUrlField(REMOTEOK_DEFAULT_BASE_URL),
  ];

  validateConfig(raw: unknown): RemoteOkConfig {
    const r = new ConfigReader(this.kind, raw, this.fields);
    const search = r.optionalString('search');
    if (search !== null && !remoteOkTag(search)) r.issue('search', search, 'must contain letters or digits (it becomes a RemoteOK tag)');
    return r.finish({ base_url: r.baseUrl('base_url') ?? '', search });
  }

  async *discover(config: RemoteOkConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/api${config.search ? `?tag=${encodeURIComponent(remoteOkTag(config.search))}` : ''}`;
    const s = new ShapeReader(url);
    const items = objectEntries(s, s.array(await fetchJson(ctx.http, url, ctx.signal), 'body'), '');
    // The legal notice comes first and is not a job; it has no position. An entry with a blank
    // position or company (the real feed has one) is skipped with its reason, not the board failed.
    const jobs = entriesWithText(items.filter(({ item }, i) => !(i === 0 && item['position'] === undefined)), ['position', 'company'], ctx, 'id');
    const postings = jobs.map(({ item, where }) => toPosting(s, item, where));
    yield* postings;
  }
}

function toPosting(s: ShapeReader, job: JsonObject, where: string): DiscoveredPosting {
  const html = s.optString(job, 'description', where);
  const epoch = s.optNumber(job, 'epoch', where);
  const salaryMin = s.optNumber(job, 'salary_min', where);
  const salaryMax = s.optNumber(job, 'salary_max', where);
  return {
    sourceKind: 'remoteok',
    externalId: s.id(job, 'id', where),
    title: s.string(job, 'position', where),
    company: s.string(job, 'company', where),
    location: s.optString(job, 'location', where),
    remote: true,
    url: s.string(job, 'url', where),
    applyUrl: s.optString(job, 'apply_url', where),
    descriptionHtml: html,
    descriptionText: html ? htmlToReadableText(html) : null,
    postedAt: toIsoDate(s.optString(job, 'date', where)) ?? (epoch === null ? null : toIsoDate(epoch, 's')),
    salaryText: formatSalaryRange(salaryMin, salaryMax, 'USD', 'year'),
    employmentType: null,
    tags: cleanTags(s.optStrings(job, 'tags', where)),
    // 0 is RemoteOK's "not given": the pair is stored as published only when either bound is set.
    compensation: compensationStatements([['remoteok.salary_min_max', salaryMin || salaryMax ? { salary_min: salaryMin, salary_max: salaryMax } : null]]),
  };
}
