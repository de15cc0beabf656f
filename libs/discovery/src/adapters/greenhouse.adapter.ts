import { htmlToReadableText } from '@jobctrl/shared/html';
import { decodeEntities } from './html-document.parser';
import { cleanTags, normalizeEmploymentType, remoteFromText, segment, toIsoDate } from './posting-fields.normalizer';
import { fetchJson, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting, SourceAdapter } from './source-adapter.model';
import { ConfigReader } from './source-config.validation';

export interface GreenhouseConfig {
  base_url: string;
  board_token: string;
}

export const GREENHOUSE_DEFAULT_BASE_URL = 'https://boards-api.greenhouse.io';

/**
 * Greenhouse Job Board API: `GET /v1/boards/{token}/jobs?content=true` returns the whole board in
 * one response (no pagination), descriptions included but HTML-escaped a second time.
 */
export class GreenhouseAdapter implements SourceAdapter<GreenhouseConfig> {
  readonly kind = 'greenhouse' as const;

  validateConfig(raw: unknown): GreenhouseConfig {
    const r = new ConfigReader(this.kind, raw, ['base_url', 'board_token']);
    return r.finish({ base_url: r.baseUrl('base_url', GREENHOUSE_DEFAULT_BASE_URL) ?? '', board_token: r.token('board_token') });
  }

  async *discover(config: GreenhouseConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/v1/boards/${segment(config.board_token)}/jobs?content=true`;
    const s = new ShapeReader(url);
    const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
    const jobs = s.array(body['jobs'], 'body.jobs');
    // Map everything before yielding: a malformed job anywhere fails the board as a whole.
    const postings = jobs.map((item, i) => toPosting(s, s.object(item, `jobs[${i}]`), `jobs[${i}]`, config.board_token));
    yield* postings;
  }
}

function toPosting(s: ShapeReader, job: Record<string, unknown>, where: string, token: string): DiscoveredPosting {
  const location = s.optObject(job, 'location', where);
  const locationName = location ? s.optString(location, 'name', `${where}.location`) : null;
  const escaped = s.optString(job, 'content', where);
  const descriptionHtml = escaped ? decodeEntities(escaped) : null;
  const metadata = s.optArray(job, 'metadata', where).map((m, i) => s.object(m, `${where}.metadata[${i}]`));
  const metaValue = (pattern: RegExp): string | null => {
    for (const [i, m] of metadata.entries()) {
      const name = s.optString(m, 'name', `${where}.metadata[${i}]`);
      // Custom fields hold strings, numbers or option lists; only a plain string reads as text.
      if (name && pattern.test(name) && typeof m['value'] === 'string' && m['value'].trim()) return m['value'].trim();
    }
    return null;
  };
  const departments = s.optArray(job, 'departments', where).map((d, i) => s.optString(s.object(d, `${where}.departments[${i}]`), 'name', `${where}.departments[${i}]`));
  return {
    sourceKind: 'greenhouse',
    externalId: s.id(job, 'id', where),
    title: s.string(job, 'title', where),
    company: s.optString(job, 'company_name', where) ?? token,
    location: locationName,
    remote: remoteFromText(locationName),
    url: s.string(job, 'absolute_url', where),
    // Greenhouse's application form is on the posting page itself.
    applyUrl: null,
    descriptionHtml,
    descriptionText: descriptionHtml ? htmlToReadableText(descriptionHtml) : null,
    postedAt: toIsoDate(s.optString(job, 'first_published', where) ?? s.optString(job, 'updated_at', where)),
    salaryText: metaValue(/salary|compensation|pay range/i),
    employmentType: normalizeEmploymentType(metaValue(/employment type|job type/i)),
    tags: cleanTags(departments),
  };
}
