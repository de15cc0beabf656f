/**
 * The little of a page's schema.org JobPosting the liveness reading needs: its title, its
 * `validThrough` and its description (employer text, searched for closure phrases like the main
 * content). libs/enrichment has a full extractor, but a domain lib may not import another; this
 * reads only three fields, from JSON-LD blocks the scanner already cut out of the page.
 */

export interface JobPostingLd {
  title: string | null;
  /** The raw value, as published. */
  validThrough: string | null;
  /** Description HTML or text, as published (≤ 200,000 characters). */
  description: string | null;
}

const MAX_DEPTH = 12;
/** Nodes visited per block: a hostile block of a million tiny objects stays cheap. */
const MAX_NODES = 20_000;

export function readJobPostingLd(blocks: readonly string[]): JobPostingLd | null {
  for (const raw of blocks) {
    const parsed = parseLenient(raw);
    if (parsed === undefined) continue;
    const found = findJobPosting(parsed);
    if (found) return found;
  }
  return null;
}

function parseLenient(raw: string): unknown {
  let text = raw.trim();
  // CMSs wrap blocks in HTML comments or CDATA.
  if (text.startsWith('<!--')) text = text.slice(4);
  if (text.endsWith('-->')) text = text.slice(0, -3);
  text = text.trim();
  if (text.startsWith('<![CDATA[')) text = text.slice(9);
  if (text.endsWith(']]>')) text = text.slice(0, -3);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    try {
      // Raw newlines inside strings are the commonest reason published JSON-LD is invalid JSON.
      // eslint-disable-next-line no-control-regex
      return JSON.parse(text.replace(/[\u0000-\u001f]+/g, ' '));
    } catch {
      return undefined;
    }
  }
}

function findJobPosting(root: unknown): JobPostingLd | null {
  // Breadth-first with an explicit queue: no recursion for a hostile nesting depth to exhaust.
  const queue: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  let visited = 0;
  for (let head = 0; head < queue.length && visited < MAX_NODES; head++) {
    const { value, depth } = queue[head];
    visited++;
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      for (const item of value) queue.push({ value: item, depth: depth + 1 });
      continue;
    }
    const node = value as Record<string, unknown>;
    if (isJobPosting(node['@type'])) {
      return {
        title: str(node['title']) ?? str(node['name']),
        validThrough: str(node['validThrough']),
        description: str(node['description'])?.slice(0, 200_000) ?? null,
      };
    }
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') queue.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

function isJobPosting(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  // "JobPosting", "schema:JobPosting" and "https://schema.org/JobPosting" name the same type.
  return types.some((t) => typeof t === 'string' && /(?:^|[/:#])JobPosting$/i.test(t.trim()));
}

function str(value: unknown): string | null {
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
