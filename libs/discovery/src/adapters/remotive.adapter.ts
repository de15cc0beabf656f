import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, normalizeEmploymentType, toIsoDate } from './posting-fields.normalizer';
import { entriesWithText, objectEntries } from './feed-entry.rules';
import { fetchJson, type JsonObject, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting, SourceAdapter, SourceConfigField } from './source-adapter.model';
import { baseUrlField, ConfigReader } from './source-config.validation';

export interface RemotiveConfig {
  base_url: string;
  /** Passed to Remotive's own `search` filter; null lists every job. */
  search: string | null;
}

export const REMOTIVE_DEFAULT_BASE_URL = 'https://remotive.com';

/** Remotive: `GET /api/remote-jobs?search=` returns every matching job at once; all are remote. */
export class RemotiveAdapter implements SourceAdapter<RemotiveConfig> {
  readonly kind = 'remotive' as const;

  readonly label = 'Remotive';
  readonly description = 'Remote jobs from the Remotive API, optionally narrowed by its search.';
  readonly fields: readonly SourceConfigField[] = [
    { name: 'search', type: 'string', required: false, description: "Remotive's own search (title, company, tags); every listed job when empty." },
    baseUrlField(REMOTIVE_DEFAULT_BASE_URL),
  ];

  validateConfig(raw: unknown): RemotiveConfig {
    const r = new ConfigReader(this.kind, raw, this.fields);
    return r.finish({ base_url: r.baseUrl('base_url') ?? '', search: r.optionalString('search') });
  }

  async *discover(config: RemotiveConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/api/remote-jobs${config.search ? `?search=${encodeURIComponent(config.search)}` : ''}`;
    const s = new ShapeReader(url);
    const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
    const jobs = entriesWithText(objectEntries(s, s.array(body['jobs'], 'body.jobs'), 'jobs'), ['title', 'company_name'], ctx, 'id');
    const postings = jobs.map(({ item, where }) => toPosting(s, item, where));
    yield* postings;
  }
}

function toPosting(s: ShapeReader, job: JsonObject, where: string): DiscoveredPosting {
  const html = s.optString(job, 'description', where);
  const salary = s.optString(job, 'salary', where);
  return {
    sourceKind: 'remotive',
    externalId: s.id(job, 'id', where),
    title: s.string(job, 'title', where),
    company: s.string(job, 'company_name', where),
    location: s.optString(job, 'candidate_required_location', where),
    remote: true,
    url: s.string(job, 'url', where),
    applyUrl: null,
    descriptionHtml: html,
    descriptionText: html ? htmlToReadableText(html) : null,
    postedAt: toIsoDate(s.optString(job, 'publication_date', where)),
    salaryText: salary,
    employmentType: normalizeEmploymentType(s.optString(job, 'job_type', where)),
    tags: cleanTags([...s.optStrings(job, 'tags', where), s.optString(job, 'category', where)]),
    compensation: compensationStatements([['remotive.salary', salary]]),
  };
}
