import { htmlToReadableText } from '@jobctrl/shared/html';
import { extractJobPostingFromJsonLd } from './json-ld.extractor';

export interface DetailPageParse {
  method: 'json_ld' | 'readable_text' | 'needs_browser';
  descriptionText: string | null;
  title: string | null;
  /** The employer the page's JSON-LD names (hiringOrganization), whatever the description came from. */
  employer: string | null;
  /**
   * The pay the page's JSON-LD states, raw (`jsonld.baseSalary`), for the compensation refresh; empty
   * when the page's JobPosting states none; null when the page has no JobPosting to say anything.
   */
  compensation: Array<{ fieldPath: string; value: unknown }> | null;
}

/** Below this much readable text a page is a shell that only a browser can fill in. */
export const MIN_READABLE_CHARS = 200;

/**
 * JSON-LD JobPosting first (the employer's structured data), then the page's readable text. A page
 * whose body is empty until a script runs is reported as needing a browser. Pure and CPU-bound: the
 * worker runs it on a worker thread (CpuTaskPool), never on the event loop.
 */
export function parseDetailPage(html: string): DetailPageParse {
  const posting = extractJobPostingFromJsonLd(html);
  const employer = posting?.hiringOrganization ?? null;
  const compensation = posting ? (posting.baseSalaryRaw !== undefined ? [{ fieldPath: 'jsonld.baseSalary', value: posting.baseSalaryRaw }] : []) : null;
  if (posting?.description) return { method: 'json_ld', descriptionText: posting.description, title: posting.title ?? null, employer, compensation };
  // The readable converter drops scripts and styles itself, in one linear pass (pages are hostile).
  const text = htmlToReadableText(bodyOf(html)).trim();
  if (text.length >= MIN_READABLE_CHARS) return { method: 'readable_text', descriptionText: text, title: null, employer, compensation };
  return { method: 'needs_browser', descriptionText: null, title: null, employer, compensation };
}

/** The page's <body> content (the whole page when it has no body tag), found without backtracking. */
function bodyOf(html: string): string {
  const lower = html.toLowerCase();
  const open = lower.search(/<body\b/);
  if (open < 0) return html;
  const start = lower.indexOf('>', open);
  if (start < 0) return html;
  const end = lower.lastIndexOf('</body');
  return html.slice(start + 1, end > start ? end : html.length);
}
