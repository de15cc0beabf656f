import { htmlToReadableText } from '@jobctrl/shared/html';
import { cleanTags, compensationStatements, joinLocation, normalizeEmploymentType, segment, toIsoDate } from './posting-fields.normalizer';
import { fetchJson, type JsonObject, ShapeReader } from './response-shape.reader';
import { paginate } from './offset-paging.reader';
import { mapInOrder } from './ordered-map.util';
import type { DiscoverContext, DiscoveredPosting } from './source-adapter.model';
import { boardEmployer, SingleCompanyBoardAdapter } from './single-company-board.adapter';

export interface SmartRecruitersConfig {
  base_url: string;
  company_id: string;
  /** The employer's name as the user gave it; wins over the postings' company name. */
  company_name: string | null;
}

export const SMARTRECRUITERS_DEFAULT_BASE_URL = 'https://api.smartrecruiters.com';
const SECTIONS = ['companyDescription', 'jobDescription', 'qualifications', 'additionalInformation'] as const;

/**
 * SmartRecruiters Posting API: `GET /v1/companies/{id}/postings?limit=&offset=` lists postings
 * without descriptions, so each posting's detail (`…/postings/{postingId}`) is read for its job ad
 * and public URL. A posting whose detail answers 404 closed in between and is skipped.
 */
export class SmartRecruitersAdapter extends SingleCompanyBoardAdapter<SmartRecruitersConfig> {
  constructor() {
    super({
      kind: 'smartrecruiters',
      label: 'SmartRecruiters',
      description: "One employer's SmartRecruiters postings (the public Posting API, one detail request per posting).",
      tokenKey: 'company_id',
      tokenDescription: 'The company identifier, as in jobs.smartrecruiters.com/<company_id>.',
      defaultBaseUrl: SMARTRECRUITERS_DEFAULT_BASE_URL,
    });
  }

  async *discover(config: SmartRecruitersConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    const companyPath = `${config.base_url}/v1/companies/${segment(config.company_id)}/postings`;
    const pages = paginate(
      ctx,
      (offset, limit) => `${companyPath}?limit=${limit}&offset=${offset}`,
      (s, response, offset) => {
        const body = s.object(response, 'body');
        const content = s.array(body['content'], 'body.content').map((item, i) => s.object(item, `content[${i}]`));
        const total = s.optNumber(body, 'totalFound', 'body');
        const summaries = content.map((item, i) => ({ id: s.id(item, 'id', `content[${i}]`), item }));
        return { items: summaries, advance: content.length, last: !content.length || (total !== null && offset + content.length >= total) };
      },
    );
    const readDetail = async ({ id, item }: { id: string; item: JsonObject }): Promise<DiscoveredPosting | null> => {
      const detailUrl = `${companyPath}/${segment(id)}`;
      let detail: JsonObject;
      try {
        detail = new ShapeReader(detailUrl).object(await fetchJson(ctx.http, detailUrl, ctx.signal), 'body');
      } catch (err) {
        if ((err as { status?: unknown } | null)?.status === 404) return null;
        throw err;
      }
      return toPosting(new ShapeReader(detailUrl), { ...item, ...detail }, 'body', config);
    };
    for await (const summaries of pages) {
      // The run's internal concurrency: details of one page in flight together, yielded in list order.
      for await (const posting of mapInOrder(summaries, ctx.internalConcurrency ?? 1, readDetail, ctx.signal)) {
        if (posting) yield posting;
      }
    }
  }
}

function toPosting(s: ShapeReader, p: JsonObject, where: string, config: SmartRecruitersConfig): DiscoveredPosting {
  const company = s.optObject(p, 'company', where);
  const loc = s.optObject(p, 'location', where) ?? {};
  const lw = `${where}.location`;
  const country = s.optString(loc, 'country', lw);
  const location = s.optString(loc, 'fullLocation', lw) ?? joinLocation([s.optString(loc, 'city', lw), s.optString(loc, 'region', lw), country?.toUpperCase()]);
  const jobAd = s.optObject(p, 'jobAd', where);
  const sections = jobAd ? s.optObject(jobAd, 'sections', `${where}.jobAd`) : null;
  const parts = SECTIONS.flatMap((name) => {
    const section = sections ? s.optObject(sections, name, `${where}.jobAd.sections`) : null;
    if (!section) return [];
    const sw = `${where}.jobAd.sections.${name}`;
    const text = s.optString(section, 'text', sw);
    const title = s.optString(section, 'title', sw);
    return text ? [`${title ? `<h3>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</h3>` : ''}${text}`] : [];
  });
  const descriptionHtml = parts.length ? parts.join('\n') : null;
  // Pay as data ({min, max, currency, period}) or as the employer's text; list or detail may carry it.
  const pay = s.optObjectOrString(p, 'compensation', where);
  return {
    sourceKind: 'smartrecruiters',
    externalId: s.id(p, 'id', where),
    title: s.string(p, 'name', where),
    ...boardEmployer(config.company_name, company && s.optString(company, 'name', `${where}.company`), config.company_id),
    location,
    remote: s.optBoolean(loc, 'remote', lw),
    url: s.string(p, 'postingUrl', where),
    applyUrl: s.optString(p, 'applyUrl', where),
    descriptionHtml,
    descriptionText: descriptionHtml ? htmlToReadableText(descriptionHtml) : null,
    postedAt: toIsoDate(s.optString(p, 'releasedDate', where)),
    salaryText: typeof pay === 'string' ? pay : null,
    employmentType: normalizeEmploymentType(s.optLabel(p, 'typeOfEmployment', where)),
    tags: cleanTags([s.optLabel(p, 'department', where), s.optLabel(p, 'function', where)]),
    compensation: compensationStatements([['smartrecruiters.compensation', pay]]),
  };
}
