import { decodeHtmlEntities, htmlToReadableText, scriptElements } from '@jobctrl/shared/html';
import type { JobPostingFields, JobPostingSalary } from './job-posting.types';

/**
 * Extracts schema.org JobPosting data from the JSON-LD blocks of a posting page.
 *
 * JSON-LD is the most reliable structured source on career pages (Google for Jobs requires it),
 * but what sites publish is messy: blocks with raw newlines inside strings, HTML comments or CDATA
 * wrappers, postings nested in `@graph` or `mainEntity`, `@type` as an array or a full IRI, and
 * values that are strings where objects are expected (or the reverse). The extractor is
 * deliberately forgiving about shape and strict about meaning: a block that cannot be parsed is
 * skipped without affecting the others, and a field is only reported when it has a usable value.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const TYPE_ATTR_RE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** Nesting deeper than this is not a posting page's JSON-LD; the bound keeps hostile input cheap. */
const MAX_DEPTH = 12;

/**
 * Returns the parsed payload of every `<script type="application/ld+json">` block, in document
 * order. Blocks that fail to parse are skipped.
 */
export function extractJsonLdBlocks(html: string): unknown[] {
  const blocks: unknown[] = [];
  // A linear scan (shared/html): a lazy script regex rescans the page from every unclosed <script>.
  for (const script of scriptElements(html)) {
    const typeMatch = TYPE_ATTR_RE.exec(script.attrs);
    const type = (typeMatch?.[1] ?? typeMatch?.[2] ?? typeMatch?.[3] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/ld+json') continue;
    const parsed = parseJsonLenient(script.body);
    if (parsed !== undefined) blocks.push(parsed);
  }
  return blocks;
}

/**
 * Finds the first JobPosting (document order) in the page's JSON-LD and maps it to
 * JobPostingFields. Returns null when there is no JobPosting with a non-empty title, since a
 * posting without a title is not something later stages can use.
 */
export function extractJobPostingFromJsonLd(html: string): JobPostingFields | null {
  for (const block of extractJsonLdBlocks(html)) {
    const nodes = nodesById(block as Json);
    for (const node of findJobPostingNodes(block as Json, 0)) {
      const fields = toJobPostingFields(node, nodes);
      if (fields) return fields;
    }
  }
  return null;
}

/**
 * Every node of a block that declares an `@id`, by that id. Generators that emit one `@graph` per
 * page (Yoast, Rank Math, many career-site builders) state the employer once, as an Organization
 * node, and let the posting refer to it: `"hiringOrganization": {"@id": "https://x.test/#org"}`.
 */
function nodesById(value: Json): Map<string, JsonObject> {
  const byId = new Map<string, JsonObject>();
  const visit = (v: Json, depth: number): void => {
    if (depth > MAX_DEPTH || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((item) => visit(item, depth + 1));
    const id = v['@id'];
    // The first node with an id wins; later bare references ({"@id": …}) must not shadow it.
    if (typeof id === 'string' && !byId.has(id) && Object.keys(v).length > 1) byId.set(id, v);
    Object.values(v).forEach((child) => visit(child, depth + 1));
  };
  visit(value, 0);
  return byId;
}

/**
 * Parses a script body. Tolerates the wrappers CMSs add (HTML comments, CDATA) and, as a second
 * attempt, raw control characters such as unescaped newlines inside strings — the most common
 * reason real-world JSON-LD is invalid JSON. Replacing them with spaces is safe outside strings
 * (they are whitespace there) and harmless inside (descriptions are re-flowed anyway).
 */
function parseJsonLenient(body: string): Json | undefined {
  const text = body
    .trim()
    .replace(/^<!--/, '')
    .replace(/-->$/, '')
    .replace(/^(?:\/\/\s*)?<!\[CDATA\[/, '')
    .replace(/(?:\/\/\s*)?\]\]>$/, '')
    .trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    try {
      // eslint-disable-next-line no-control-regex
      return JSON.parse(text.replace(/[\u0000-\u001f]+/g, ' ')) as Json;
    } catch {
      return undefined;
    }
  }
}

/** Depth-first, document-order search covering arrays, `@graph`, `mainEntity` and other nesting. */
function findJobPostingNodes(value: Json, depth: number): JsonObject[] {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item) => findJobPostingNodes(item, depth + 1));
  if (isJobPosting(value)) return [value];
  return Object.values(value).flatMap((child) => findJobPostingNodes(child, depth + 1));
}

function isJobPosting(node: JsonObject): boolean {
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  // "JobPosting", "schema:JobPosting" and "https://schema.org/JobPosting" all name the same type.
  return types.some((t) => typeof t === 'string' && /(?:^|[/:#])JobPosting$/i.test(t.trim()));
}

function toJobPostingFields(node: JsonObject, nodes: ReadonlyMap<string, JsonObject>): JobPostingFields | null {
  const title = cleanInline(text(node['title']) ?? text(node['name']));
  if (!title) return null;

  const jobLocationType = asArray(node['jobLocationType'])
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim())
    .filter(Boolean);

  const fields: JobPostingFields = {
    title,
    employmentType: normaliseEmploymentTypes(node['employmentType']),
    locations: unique(asArray(node['jobLocation']).map(placeToString).filter(isNonEmpty)),
    jobLocationType,
    remote: jobLocationType.some((t) => t.toUpperCase() === 'TELECOMMUTE'),
    applicantLocations: unique(asArray(node['applicantLocationRequirements']).map(nameOf).filter(isNonEmpty)),
  };

  const description = descriptionText(node['description']);
  if (description) fields.description = description;
  const datePosted = cleanInline(text(node['datePosted']));
  if (datePosted) fields.datePosted = datePosted;
  const validThrough = cleanInline(text(node['validThrough']));
  if (validThrough) fields.validThrough = validThrough;
  const organisation = asArray(node['hiringOrganization']).map((o) => organisationName(o, nodes)).find(isNonEmpty);
  if (organisation) fields.hiringOrganization = organisation;
  const rawSalary = asArray(node['baseSalary']).find((s) => toSalary(s) !== undefined);
  if (rawSalary !== undefined) {
    fields.baseSalary = toSalary(rawSalary) as JobPostingSalary;
    fields.baseSalaryRaw = rawSalary;
  }
  const directApply = toBoolean(node['directApply']);
  if (directApply !== undefined) fields.directApply = directApply;
  const identifier = asArray(node['identifier']).map(identifierValue).find(isNonEmpty);
  if (identifier) fields.identifier = identifier;

  return fields;
}

/**
 * Some sites entity-escape the description HTML a second time ("&lt;p&gt;Hello&lt;/p&gt;"). When a
 * description contains escaped tags but no real ones, it is unescaped once before conversion.
 */
function descriptionText(value: Json | undefined): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const hasRealTags = /<\/?[A-Za-z][^>]*>/.test(raw);
  const hasEscapedTags = /&lt;\/?[A-Za-z][\s\S]*?&gt;/.test(raw);
  const html = !hasRealTags && hasEscapedTags ? decodeHtmlEntities(raw) : raw;
  return htmlToReadableText(html) || undefined;
}

function normaliseEmploymentTypes(value: Json | undefined): string[] {
  const types = asArray(value)
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim().toUpperCase().replace(/[\s-]+/g, '_'))
    .filter(Boolean);
  return unique(types);
}

/** Place → "Locality, Region, Country"; falls back to the place name or a free-text address. */
function placeToString(value: Json): string | undefined {
  if (typeof value === 'string') return cleanInline(value);
  if (!isObject(value)) return undefined;
  const address = value['address'];
  if (typeof address === 'string') return cleanInline(address);
  if (isObject(address)) {
    const parts = [address['addressLocality'], address['addressRegion'], address['addressCountry']]
      .map((part) => (isObject(part) ? nameOf(part) : cleanInline(text(part))))
      .filter(isNonEmpty);
    // "Berlin, Berlin, DE" reads badly; drop a part equal to the one before it.
    const deduped = parts.filter((part, i) => i === 0 || part.toLowerCase() !== parts[i - 1].toLowerCase());
    if (deduped.length > 0) return deduped.join(', ');
  }
  return nameOf(value);
}

function toSalary(value: Json): JobPostingSalary | undefined {
  if (!isObject(value)) return undefined;
  const amount = value['value'];
  let min: number | undefined;
  let max: number | undefined;
  let unitText = cleanInline(text(value['unitText']));
  if (isObject(amount)) {
    const single = toNumber(amount['value']);
    min = toNumber(amount['minValue']) ?? single;
    max = toNumber(amount['maxValue']) ?? single;
    unitText = cleanInline(text(amount['unitText'])) ?? unitText;
  } else {
    min = max = toNumber(amount);
  }
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  const salary: JobPostingSalary = {};
  const currency = cleanInline(text(value['currency']));
  if (currency) salary.currency = currency.toUpperCase();
  if (min !== undefined) salary.min = min;
  if (max !== undefined) salary.max = max;
  if (unitText) salary.unitText = unitText.toUpperCase();
  return salary;
}

/** Accepts numbers and numeric strings ("120000", "120,000.00"); rejects anything ambiguous. */
function toNumber(value: Json | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const cleaned = value.trim().replace(/,(?=\d{3}(?:\D|$))/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}

function toBoolean(value: Json | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return undefined;
}

/** identifier may be a bare string/number or a PropertyValue {name, value}. */
function identifierValue(value: Json): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return cleanInline(value);
  if (isObject(value)) {
    const inner = value['value'];
    if (typeof inner === 'number' && Number.isFinite(inner)) return String(inner);
    return cleanInline(text(inner)) ?? cleanInline(text(value['@id']));
  }
  return undefined;
}

/**
 * The employer's name: a string, an Organization's `name` (else its `legalName`), or the name of the
 * Organization an `{"@id": …}` reference points at within the same block.
 */
function organisationName(value: Json, nodes: ReadonlyMap<string, JsonObject>): string | undefined {
  if (!isObject(value)) return nameOf(value);
  const own = nameOf(value) ?? cleanInline(text(value['legalName']));
  if (own) return own;
  const id = value['@id'];
  const target = typeof id === 'string' ? nodes.get(id) : undefined;
  return target && target !== value ? (nameOf(target) ?? cleanInline(text(target['legalName']))) : undefined;
}

/** A string, or the `name` of an object (Organization, Country, AdministrativeArea, Place). */
function nameOf(value: Json): string | undefined {
  if (typeof value === 'string') return cleanInline(value);
  if (isObject(value)) return cleanInline(text(value['name']));
  return undefined;
}

function text(value: Json | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  // Some generators wrap literals as {"@value": "..."} (expanded JSON-LD).
  if (isObject(value) && typeof value['@value'] === 'string') return value['@value'];
  return undefined;
}

/** Single-line values (titles, names, dates): entities decoded, stray tags removed, spaces collapsed. */
function cleanInline(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = htmlToReadableText(value).replace(/\s+/g, ' ').trim();
  return cleaned || undefined;
}

function asArray(value: Json | undefined): Json[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.length > 0;
}

function unique(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
