import { decodeHtmlEntities, htmlToReadableText, jobPostingsInHtml, type JsonLdObject, type JsonLdValue } from '@jobctrl/shared/html';
import type { JobPostingFields, JobPostingSalary } from './job-posting.types';

/**
 * Maps a posting page's schema.org JobPosting (found by @jobctrl/shared/html's JSON-LD reader,
 * which copes with the messy shapes sites publish) to JobPostingFields.
 *
 * Forgiving about shape and strict about meaning: values that are strings where objects are
 * expected (or the reverse) are read either way, and a field is only reported when it has a usable
 * value.
 */

type Json = JsonLdValue;
type JsonObject = JsonLdObject;

/**
 * Finds the first JobPosting (document order) in the page's JSON-LD and maps it to
 * JobPostingFields. Returns null when there is no JobPosting with a non-empty title, since a
 * posting without a title is not something later stages can use.
 */
export function extractJobPostingFromJsonLd(html: string): JobPostingFields | null {
  for (const { node, byId } of jobPostingsInHtml(html)) {
    const fields = toJobPostingFields(node, byId);
    if (fields) return fields;
  }
  return null;
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
