import { parseSearchResults } from './aggregator-search.parser';
import { compensationStatements } from './posting-fields.normalizer';
import { ARBEITNOW_DEFAULT_BASE_URL, ArbeitnowAdapter } from './arbeitnow.adapter';
import { REMOTEOK_DEFAULT_BASE_URL, RemoteOkAdapter, remoteOkTag } from './remoteok.adapter';
import { REMOTIVE_DEFAULT_BASE_URL, RemotiveAdapter } from './remotive.adapter';
import { type DiscoverContext, type DiscoveredPosting, MalformedResponseError, type SourceAdapter, type SourceConfigField } from './source-adapter.model';
import { baseUrlField, ConfigReader, isPlainObject } from './source-config.validation';

export const JOBSTREAMING_BOARDS = ['remotive', 'remoteok', 'arbeitnow', 'aggregator'] as const;
export type JobStreamingBoard = (typeof JOBSTREAMING_BOARDS)[number];

/** One search: a query (and optional location) on one board, with the board's base URL resolved. */
export interface JobStreamingUnit {
  board: JobStreamingBoard;
  query: string;
  location: string | null;
  base_url: string;
}

export interface JobStreamingConfig {
  /** Crawled one after another, in this order. */
  units: JobStreamingUnit[];
}

/** The aggregator has no default: there is no public host this HTML parser is meant for. */
const DEFAULT_BASE_URLS: Record<JobStreamingBoard, string | null> = {
  remotive: REMOTIVE_DEFAULT_BASE_URL,
  remoteok: REMOTEOK_DEFAULT_BASE_URL,
  arbeitnow: ARBEITNOW_DEFAULT_BASE_URL,
  aggregator: null,
};
const MAX_UNITS = 500;
const MAX_SEARCH_PAGES = 200;
/** Remote-board locations that admit candidates from anywhere. */
const ANYWHERE_RE = /\b(worldwide|anywhere|global|world)\b/i;

function normalizeKeyPart(text: string | null): string {
  return (text ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Searches a list of (query, location, board) units, one unit at a time in the given order.
 * Callers that persist progress use unitKey() to record finished units and discoverUnit() to
 * resume with the first unfinished one after a restart.
 *
 * Raw config: `{units: [{query, location?, board}], base_url?, base_urls?: {remotive?, remoteok?,
 * arbeitnow?, aggregator?}}`; a unit's base URL is base_urls[board], else base_url, else the board's
 * public host. Postings carry sourceKind 'jobstreaming' and externalId "board:id".
 */
export class JobStreamingAdapter implements SourceAdapter<JobStreamingConfig> {
  readonly kind = 'jobstreaming' as const;
  private readonly remotive = new RemotiveAdapter();
  private readonly remoteok = new RemoteOkAdapter();
  private readonly arbeitnow = new ArbeitnowAdapter();

  readonly label = 'JobStreaming';
  readonly description = 'Searches on the broad boards (Remotive, RemoteOK, Arbeitnow, an HTML search board), one query/location/board unit after another, resumed unit by unit.';
  readonly fields: readonly SourceConfigField[] = [
    {
      name: 'units',
      type: 'object[]',
      required: true,
      maxItems: MAX_UNITS,
      description: `The searches, crawled in this order: 1 to ${MAX_UNITS} units.`,
      fields: [
        { name: 'query', type: 'string', required: true, description: 'What to search for (on RemoteOK it becomes a tag: letters and digits).' },
        { name: 'location', type: 'string', required: false, description: 'Where; any location when empty.' },
        { name: 'board', type: 'enum', required: true, options: [...JOBSTREAMING_BOARDS], description: 'The board this unit searches.' },
      ],
    },
    baseUrlField(null, "Every unit's board API instead of the board's public host (a mirror or a simulator), unless base_urls names one for its board."),
    {
      name: 'base_urls',
      type: 'object',
      required: false,
      description: 'A base URL per board, before base_url; the aggregator board has no public host, so its units need one here or in base_url.',
      fields: JOBSTREAMING_BOARDS.map((board) => ({
        name: board,
        type: 'url' as const,
        required: false,
        description: DEFAULT_BASE_URLS[board] ? `The ${board} API (public: ${DEFAULT_BASE_URLS[board]}).` : `The ${board} search board.`,
      })),
    },
  ];

  validateConfig(raw: unknown): JobStreamingConfig {
    const r = new ConfigReader(this.kind, raw, this.fields);
    const shared = r.baseUrl('base_url');
    const perBoard: Partial<Record<JobStreamingBoard, string>> = {};
    if (r.has('base_urls')) {
      const b = new ConfigReader(this.kind, r.get('base_urls'), r.declared('base_urls').fields ?? [], 'base_urls');
      for (const board of JOBSTREAMING_BOARDS) {
        const url = b.baseUrl(board);
        if (url) perBoard[board] = url;
      }
      r.issues.push(...b.issues);
    }
    const rawUnits = r.get('units');
    const units: JobStreamingUnit[] = [];
    if (!Array.isArray(rawUnits) || rawUnits.length === 0 || rawUnits.length > MAX_UNITS) {
      r.issue('units', rawUnits, `is required: a list of 1..${MAX_UNITS} {query, location, board} objects`);
    } else {
      rawUnits.forEach((rawUnit, i) => {
        const u = new ConfigReader(this.kind, rawUnit, r.declared('units').fields ?? [], `units[${i}]`);
        const query = u.requiredString('query');
        const location = u.optionalString('location');
        const board = u.oneOf<JobStreamingBoard>('board');
        const base = perBoard[board] ?? shared ?? DEFAULT_BASE_URLS[board];
        if (isPlainObject(rawUnit) && (JOBSTREAMING_BOARDS as readonly unknown[]).includes(rawUnit['board']) && !base) {
          u.issue('board', board, 'needs base_url or base_urls.aggregator: the search board has no public default host');
        }
        if (board === 'remoteok' && query && !remoteOkTag(query)) u.issue('query', query, 'must contain letters or digits (it becomes a RemoteOK tag)');
        r.issues.push(...u.issues);
        units.push({ board, query, location, base_url: base ?? '' });
      });
    }
    return r.finish({ units });
  }

  /** Stable identity of a unit (board, query, location; case and spacing ignored; base URL not part of it). */
  unitKey(unit: Pick<JobStreamingUnit, 'board' | 'query' | 'location'>): string {
    return `${unit.board}:q=${encodeURIComponent(normalizeKeyPart(unit.query))}&l=${encodeURIComponent(normalizeKeyPart(unit.location))}`;
  }

  async *discover(config: JobStreamingConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    for (const unit of config.units) {
      ctx.signal?.throwIfAborted();
      yield* this.discoverUnit(unit, ctx);
    }
  }

  async *discoverUnit(unit: JobStreamingUnit, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const source = this.unitSource(unit, ctx);
    for await (const posting of source) {
      // The API boards cannot filter by place; keep postings whose location names it (or admits anyone).
      if (unit.board !== 'aggregator' && !locationMatches(posting, unit.location)) continue;
      yield { ...posting, sourceKind: 'jobstreaming', externalId: `${unit.board}:${posting.externalId}` };
    }
  }

  private unitSource(unit: JobStreamingUnit, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    switch (unit.board) {
      case 'remotive':
        return this.remotive.discover({ base_url: unit.base_url, search: unit.query }, ctx);
      case 'remoteok':
        return this.remoteok.discover({ base_url: unit.base_url, search: unit.query }, ctx);
      case 'arbeitnow':
        return this.arbeitnow.discover({ base_url: unit.base_url, search: unit.query }, ctx);
      case 'aggregator':
        return searchAggregator(unit, ctx);
    }
  }
}

function locationMatches(posting: DiscoveredPosting, wanted: string | null): boolean {
  const needle = normalizeKeyPart(wanted);
  if (!needle) return true;
  if (needle === 'remote') return posting.remote === true;
  const where = (posting.location ?? '').toLowerCase();
  return where.includes(needle) || ANYWHERE_RE.test(where);
}

/** Pages of the HTML search board, following its "next" link (same origin only, no page twice). */
async function* searchAggregator(unit: JobStreamingUnit, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
  const params = new URLSearchParams({ q: unit.query });
  if (unit.location) params.set('l', unit.location);
  let url: string | null = `${unit.base_url}/search?${params.toString()}`;
  const origin = new URL(url).origin;
  const visited = new Set<string>();
  for (let page = 0; url; page++) {
    ctx.signal?.throwIfAborted();
    if (page >= MAX_SEARCH_PAGES) throw new MalformedResponseError(url, `still announcing a next page after ${MAX_SEARCH_PAGES} pages`);
    visited.add(url);
    const html = await ctx.http.getText(url, { signal: ctx.signal });
    const result = parseSearchResults(html, url);
    for (const card of result.cards) {
      yield {
        sourceKind: 'jobstreaming',
        externalId: card.id,
        title: card.title,
        company: card.company,
        location: card.location,
        remote: card.location && /\bremote\b/i.test(card.location) ? true : null,
        url: card.url,
        applyUrl: null,
        descriptionHtml: null,
        descriptionText: null,
        postedAt: card.postedAt,
        salaryText: card.salaryText,
        employmentType: null,
        tags: [],
        compensation: compensationStatements([['jobstreaming.salary', card.salaryText]]),
      };
    }
    const next: string | null = result.nextUrl;
    url = next && new URL(next).origin === origin && !visited.has(next) ? next : null;
  }
}
