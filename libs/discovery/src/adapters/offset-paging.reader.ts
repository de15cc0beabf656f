import { fetchJson, ShapeReader } from './response-shape.reader';
import { type DiscoverContext, MalformedResponseError } from './source-adapter.model';

/** Guard against a server that ignores the offset: no board has this many pages. */
export const MAX_PAGES = 1000;
/** The page size asked for unless the context says otherwise: Lever's and SmartRecruiters' maximum. */
const DEFAULT_PAGE_SIZE = 100;

/** What an adapter made of one page. */
export interface OffsetPage<T> {
  items: T[];
  /** How far the offset moves: the entries the server sent, whatever the adapter kept of them. */
  advance: number;
  /** No page follows this one. */
  last: boolean;
}

/**
 * Reads an offset-paged list (Lever's skip, SmartRecruiters' offset) a page at a time, yielding each
 * page's items before the next request: the abort signal is checked between pages, and a server that
 * keeps answering past MAX_PAGES is a malformed response rather than an endless crawl. Each adapter
 * decides where its list ends (an empty page, a page of known ids, a reported total).
 */
export async function* paginate<T>(
  ctx: Pick<DiscoverContext, 'http' | 'signal' | 'pageSize'>,
  pageUrl: (offset: number, limit: number) => string,
  readPage: (s: ShapeReader, body: unknown, offset: number) => OffsetPage<T>,
): AsyncGenerator<T[]> {
  const limit = ctx.pageSize ?? DEFAULT_PAGE_SIZE;
  let offset = 0;
  for (let page = 0; ; page++) {
    ctx.signal?.throwIfAborted();
    const url = pageUrl(offset, limit);
    if (page >= MAX_PAGES) throw new MalformedResponseError(url, `still returning postings after ${MAX_PAGES} pages`);
    const { items, advance, last } = readPage(new ShapeReader(url), await fetchJson(ctx.http, url, ctx.signal), offset);
    if (items.length) yield items;
    if (last) return;
    offset += advance;
  }
}
