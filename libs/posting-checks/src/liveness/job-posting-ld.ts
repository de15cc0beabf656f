import { jobPostingsInHtml, type JsonLdValue } from '@jobctrl/shared/html';

/**
 * The little of a page's schema.org JobPosting the liveness reading needs: its title, its
 * `validThrough` and its description (employer text, searched for closure phrases like the main
 * content), read from the first JobPosting @jobctrl/shared/html's JSON-LD reader finds.
 */

export interface JobPostingLd {
  title: string | null;
  /** The raw value, as published. */
  validThrough: string | null;
  /** Description HTML or text, as published (≤ 200,000 characters). */
  description: string | null;
}

export function readJobPostingLd(html: string): JobPostingLd | null {
  const [posting] = jobPostingsInHtml(html);
  if (!posting) return null;
  const { node } = posting;
  return {
    title: str(node['title']) ?? str(node['name']),
    validThrough: str(node['validThrough']),
    description: str(node['description'])?.slice(0, 200_000) ?? null,
  };
}

function str(value: JsonLdValue | undefined): string | null {
  if (typeof value === 'string' && value.trim()) return value.trim();
  return null;
}

/**
 * `validThrough` as the instant after which the posting is closed, or null when it is absent or
 * unreadable (unreadable is not evidence). A bare date ("2025-05-01") is read as the end of that
 * day anywhere on earth (+1 day and 14 hours from UTC midnight), so a time zone never closes a
 * posting early.
 */
export function validThroughInstant(value: string | null): Date | null {
  if (!value) return null;
  const v = value.trim();
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (dateOnly) {
    const day = Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
    return Number.isFinite(day) ? new Date(day + 38 * 3_600_000) : null;
  }
  // Only ISO-8601 date-times: Date.parse accepts locale formats whose meaning varies.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? new Date(ms) : null;
}
