import { scriptElements } from './html-text.converter';

/**
 * Finds the schema.org JobPosting objects in a page's JSON-LD: the one reader behind enrichment
 * (every posting field) and the liveness check (validThrough, title, description). Each caller
 * reads what it needs from the objects returned here, as published.
 *
 * What sites publish is messy: blocks with raw newlines inside strings, HTML comment or CDATA
 * wrappers, postings nested in `@graph`, arrays or `mainEntity`, `@type` as an array or a full IRI.
 * The reader is forgiving about shape: a block that does not parse is skipped without affecting the
 * others. Pages are hostile input, so everything is bounded: the blocks read, their characters, the
 * nesting depth and the nodes visited per block, and no traversal recurses.
 */

export type JsonLdValue = null | boolean | number | string | JsonLdValue[] | JsonLdObject;
export type JsonLdObject = { [key: string]: JsonLdValue };

export interface JsonLdJobPosting {
  /** The JobPosting node as published. */
  node: JsonLdObject;
  /**
   * The nodes of the same block that declare an `@id`, by that id. Generators that emit one `@graph`
   * per page (Yoast, Rank Math, many career-site builders) state the employer once, as an
   * Organization node, and let the posting refer to it: `"hiringOrganization": {"@id": "…#org"}`.
   */
  byId: ReadonlyMap<string, JsonLdObject>;
}

/** Blocks read per page; a page with more is not publishing one posting. */
export const MAX_JSON_LD_BLOCKS = 20;
/** Characters of JSON-LD read per page; a block that would pass it is skipped (later ones still count). */
export const MAX_JSON_LD_CHARS = 500_000;
/** Nesting deeper than this is not a posting page's JSON-LD. */
const MAX_DEPTH = 12;
/** Nodes visited per block: a hostile block of a million tiny objects stays cheap. */
const MAX_NODES = 20_000;

const TYPE_ATTR_RE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/**
 * The raw bodies of a page's `<script type="application/ld+json">` blocks, in document order,
 * within the block and character bounds.
 */
export function jsonLdBlocks(html: string): string[] {
  const blocks: string[] = [];
  let chars = 0;
  for (const script of scriptElements(html)) {
    if (blocks.length >= MAX_JSON_LD_BLOCKS) break;
    const typeMatch = TYPE_ATTR_RE.exec(script.attrs);
    const type = (typeMatch?.[1] ?? typeMatch?.[2] ?? typeMatch?.[3] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/ld+json' || chars + script.body.length > MAX_JSON_LD_CHARS) continue;
    blocks.push(script.body);
    chars += script.body.length;
  }
  return blocks;
}

/** Every JobPosting in the page's JSON-LD, in document order (blocks in page order, depth first within each). */
export function jobPostingsInHtml(html: string): JsonLdJobPosting[] {
  return jsonLdBlocks(html).flatMap((block) => {
    const parsed = parseJsonLd(block);
    return parsed === undefined ? [] : jobPostingsIn(parsed);
  });
}

/**
 * Parses a script body. Tolerates the wrappers CMSs add (HTML comments, CDATA, `//`-commented CDATA)
 * and, as a second attempt, raw control characters such as unescaped newlines inside strings — the
 * most common reason real-world JSON-LD is invalid JSON. Replacing them with spaces is safe outside
 * strings (they are whitespace there) and harmless inside (descriptions are re-flowed anyway).
 * Returns undefined for a block that is not JSON.
 */
export function parseJsonLd(body: string): JsonLdValue | undefined {
  const text = body
    .trim()
    .replace(/^<!--/, '')
    .replace(/-->$/, '')
    .trim()
    .replace(/^(?:\/\/\s*)?<!\[CDATA\[/, '')
    .replace(/(?:\/\/\s*)?\]\]>$/, '')
    .trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as JsonLdValue;
  } catch {
    try {
      // eslint-disable-next-line no-control-regex
      return JSON.parse(text.replace(/[\u0000-\u001f]+/g, ' ')) as JsonLdValue;
    } catch {
      return undefined;
    }
  }
}

/**
 * The JobPostings of one parsed block, depth first in document order (arrays, `@graph`,
 * `mainEntity` and any other nesting; a posting nested inside a posting is not another posting),
 * each with the block's `@id` index. One iterative pass with an explicit stack, bounded in depth
 * and nodes.
 */
export function jobPostingsIn(block: JsonLdValue): JsonLdJobPosting[] {
  const postings: JsonLdObject[] = [];
  const byId = new Map<string, JsonLdObject>();
  const stack: Array<{ value: JsonLdValue; depth: number; inPosting: boolean }> = [{ value: block, depth: 0, inPosting: false }];
  for (let visited = 0; stack.length > 0 && visited < MAX_NODES; visited++) {
    const { value, depth, inPosting } = stack.pop() as (typeof stack)[number];
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    let within = inPosting;
    if (!Array.isArray(value)) {
      const id = value['@id'];
      // The first node with an id wins; later bare references ({"@id": …}) must not shadow it.
      if (typeof id === 'string' && !byId.has(id) && Object.keys(value).length > 1) byId.set(id, value);
      if (!inPosting && isJobPosting(value['@type'])) {
        postings.push(value);
        within = true;
      }
    }
    // Pushed in reverse so that they are popped in document order.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1, inPosting: within });
    }
  }
  return postings.map((node) => ({ node, byId }));
}

function isJobPosting(type: JsonLdValue | undefined): boolean {
  const types = Array.isArray(type) ? type : [type];
  // "JobPosting", "schema:JobPosting" and "https://schema.org/JobPosting" all name the same type.
  return types.some((t) => typeof t === 'string' && /(?:^|[/:#])JobPosting$/i.test(t.trim()));
}
