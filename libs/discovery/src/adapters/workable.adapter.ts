import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, joinLocation, normalizeEmploymentType, segment, toIsoDate } from './posting-fields.normalizer';
import { fetchJson, type JsonObject, ShapeReader } from './response-shape.reader';
import type { DiscoverContext, DiscoveredPosting } from './source-adapter.model';
import { boardEmployer, type BoardEmployer, SingleCompanyBoardAdapter } from './single-company-board.adapter';

export interface WorkableConfig {
  base_url: string;
  account: string;
  /** The employer's name as the user gave it; wins over the account's name. */
  company_name: string | null;
}

export const WORKABLE_DEFAULT_BASE_URL = 'https://apply.workable.com';

/**
 * Workable widget API: `GET /api/v1/widget/accounts/{slug}?details=true` returns the account's
 * name and every published job with its HTML description, in one response.
 */
export class WorkableAdapter extends SingleCompanyBoardAdapter<WorkableConfig> {
  constructor() {
    super({
      kind: 'workable',
      label: 'Workable',
      description: "One employer's Workable jobs (the public widget API, descriptions included).",
      tokenKey: 'account',
      tokenDescription: 'The account slug, as in apply.workable.com/<account>.',
      defaultBaseUrl: WORKABLE_DEFAULT_BASE_URL,
    });
  }

  async *discover(config: WorkableConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const url = `${config.base_url}/api/v1/widget/accounts/${segment(config.account)}?details=true`;
    const s = new ShapeReader(url);
    const body = s.object(await fetchJson(ctx.http, url, ctx.signal), 'body');
    const employer = boardEmployer(config.company_name, s.optString(body, 'name', 'body'), config.account);
    const postings = s.array(body['jobs'], 'body.jobs').map((item, i) => toPosting(s, s.object(item, `jobs[${i}]`), `jobs[${i}]`, employer));
    yield* postings;
  }
}

function toPosting(s: ShapeReader, job: JsonObject, where: string, employer: BoardEmployer): DiscoveredPosting {
  let location = joinLocation([s.optString(job, 'city', where), s.optString(job, 'state', where), s.optString(job, 'country', where)]);
  if (!location) {
    const first = s.optArray(job, 'locations', where)[0];
    if (first !== undefined) {
      const l = s.object(first, `${where}.locations[0]`);
      const lw = `${where}.locations[0]`;
      location = joinLocation([s.optString(l, 'city', lw), s.optString(l, 'region', lw), s.optString(l, 'country', lw)]);
    }
  }
  const html = s.optString(job, 'description', where);
  // Pay as data ({salary_from, salary_to, salary_currency}) or as the employer's text.
  const salary = s.optObjectOrString(job, 'salary', where);
  return {
    sourceKind: 'workable',
    externalId: s.string(job, 'shortcode', where),
    title: s.string(job, 'title', where),
    ...employer,
    location,
    remote: s.optBoolean(job, 'telecommuting', where),
    url: s.string(job, 'url', where),
    applyUrl: s.optString(job, 'application_url', where),
    descriptionHtml: html,
    descriptionText: html ? htmlToReadableText(html) : null,
    postedAt: toIsoDate(s.optString(job, 'published_on', where) ?? s.optString(job, 'created_at', where)),
    salaryText: typeof salary === 'string' ? salary : null,
    employmentType: normalizeEmploymentType(s.optString(job, 'employment_type', where)),
    tags: cleanTags([s.optString(job, 'department', where), s.optString(job, 'function', where)]),
    compensation: compensationStatements([['workable.salary', salary]]),
  };
}
