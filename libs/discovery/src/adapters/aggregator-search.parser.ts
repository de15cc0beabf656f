import { findAll, findFirst, hasClass, type HtmlElement, parseHtml, textContent } from './html-document.parser';
import { MalformedResponseError } from './source-adapter.model';

export interface SearchResultCard {
  /** The board's listing id (data-jk), else the link's path. */
  id: string;
  title: string;
  company: string;
  location: string | null;
  /** Absolute URL of the posting (resolved against the results page). */
  url: string;
  salaryText: string | null;
  /** ISO, from a <time datetime>; relative labels ("3 days ago") are not converted. */
  postedAt: string | null;
  snippet: string | null;
}

export interface SearchResultsPage {
  cards: SearchResultCard[];
  /** Absolute URL of the next results page, or null on the last page. */
  nextUrl: string | null;
}

const CARD_CLASSES = ['result-card', 'job_seen_beacon', 'jobsearch-result'];

function isCard(el: HtmlElement): boolean {
  return CARD_CLASSES.some((c) => hasClass(el, c));
}

function byClassOrTestId(className: string, testId: string) {
  return (el: HtmlElement) => hasClass(el, className) || el.attrs['data-testid'] === testId;
}

/**
 * Reads one results page of an aggregator-style HTML search board. Cards are found by class (not
 * position) and their parts by class or data-testid, because ad slots and sponsored cards use
 * different markup. A page with neither cards nor a result list nor a "no results" notice is not a
 * results page (a block or consent page, say) and is reported as malformed.
 */
export function parseSearchResults(html: string, pageUrl: string): SearchResultsPage {
  const doc = parseHtml(html);
  const cardEls = findAll(doc, isCard).filter((el) => {
    // A card nested in another card (wrapper markup) is the same card.
    for (let p = el.parent; p; p = p.parent) if (isCard(p)) return false;
    return true;
  });
  if (!cardEls.length) {
    const isResultsPage = findFirst(doc, (el) => el.attrs['id'] === 'results' || hasClass(el, 'jobsearch-results') || hasClass(el, 'no-results'));
    if (!isResultsPage) throw new MalformedResponseError(pageUrl, 'no result cards, result list or "no results" notice found');
  }
  const cards = cardEls.map((card, i) => readCard(card, i, pageUrl));
  const next = findFirst(doc, (el) => el.tag === 'a' && ((el.attrs['rel'] ?? '').split(/\s+/).includes('next') || el.attrs['aria-label'] === 'Next Page'));
  const href = next?.attrs['href'];
  return { cards, nextUrl: href ? new URL(href, pageUrl).href : null };
}

function readCard(card: HtmlElement, index: number, pageUrl: string): SearchResultCard {
  const titleBox = findFirst(card, (el) => hasClass(el, 'jobTitle'));
  const link = (titleBox && (titleBox.tag === 'a' ? titleBox : findFirst(titleBox, (el) => el.tag === 'a' && Boolean(el.attrs['href'])))) ??
    findFirst(card, (el) => el.tag === 'a' && Boolean(el.attrs['data-jk']) && Boolean(el.attrs['href']));
  const href = link?.attrs['href'];
  if (!link || !href) throw new MalformedResponseError(pageUrl, `result card ${index + 1} has no title link`);
  const titled = findFirst(link, (el) => Boolean(el.attrs['title']));
  const title = (titled?.attrs['title'] ?? textContent(link)).trim();
  if (!title) throw new MalformedResponseError(pageUrl, `result card ${index + 1} has an empty title`);
  const url = new URL(href, pageUrl);
  const text = (predicate: (el: HtmlElement) => boolean) => {
    const el = findFirst(card, predicate);
    const value = el ? textContent(el) : '';
    return value || null;
  };
  const time = findFirst(card, (el) => el.tag === 'time' && Boolean(el.attrs['datetime']));
  const postedMs = time ? Date.parse(time.attrs['datetime']) : NaN;
  return {
    id: card.attrs['data-jk'] ?? link.attrs['data-jk'] ?? url.pathname,
    title,
    company: text(byClassOrTestId('companyName', 'company-name')) ?? '',
    location: text(byClassOrTestId('companyLocation', 'text-location')),
    url: url.href,
    salaryText: text((el) => hasClass(el, 'salary-snippet')),
    postedAt: Number.isFinite(postedMs) ? new Date(postedMs).toISOString() : null,
    snippet: text((el) => hasClass(el, 'job-snippet')),
  };
}
