import { base32, sha256 } from './sha256.util';

/**
 * Job identity: which postings are "the same job", and the stable keys we store them under. Pure
 * functions only (no I/O, no clock, no Node built-ins), so every caller — adapters, enrichment,
 * fan-out, tests — agrees on identity by construction.
 */

/** The fields identity looks at; any source's posting shape fits. */
export interface JobIdentityInput {
  url?: string | null;
  company?: string | null;
  title?: string | null;
  location?: string | null;
}

/** Bumped when a rule change would change keys, so old and new keys never collide silently. */
export const JOB_IDENTITY_VERSION = 'v1';

const JOB_KEY_PREFIX = 'j_';
const CONTENT_KEY_PREFIX = 'c_';
/** 26 base32 characters = 130 bits of the digest: collision-free for any realistic job count. */
const KEY_HASH_CHARS = 26;

// ---------------------------------------------------------------------------------------------
// URLs

/** Query parameters that only say how someone arrived at a posting, never which posting it is. */
const TRACKING_PARAMS = new Set([
  'gh_src', 'gclid', 'gclsrc', 'dclid', 'fbclid', 'msclkid', 'yclid', 'igshid', 'twclid', 'ttclid', 'li_fat_id',
  'mc_cid', 'mc_eid', '_hsenc', '_hsmi', 'ref', 'ref_src', 'referrer', 'referer', 'source', 'src', 'lever-source',
  'lever-origin', 'lever-via', 'trk', 'trkinfo', 'trackingid', 'refid',
]);
const TRACKING_PREFIXES = ['utm_', 'hsa_', 'pk_', 'mtm_'];

/**
 * Boards whose job URLs carry an id in the path (or one named parameter) and pile session and
 * ranking parameters on top (`position`, `pageNum`, `eBP`, `from`, `vjs`...). For them only the
 * listed parameters identify the posting; everything else is dropped.
 */
const HOST_QUERY_ALLOWLIST: { suffix: string; keep: string[] }[] = [
  { suffix: 'linkedin.com', keep: ['currentjobid'] },
  { suffix: 'indeed.com', keep: ['jk', 'vjk'] },
];

/**
 * The canonical form of a posting URL: scheme and host lower-cased, default port, credentials,
 * fragment and tracking parameters dropped, remaining parameters sorted, trailing slashes removed,
 * percent-escapes normalised. The path keeps its case (ATS ids are case-sensitive). Throws a
 * TypeError for anything that is not an http(s) URL.
 */
export function canonicalizeUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new TypeError(`not a URL: ${input}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${input}`);

  const host = url.host.replace(/\.(?=$|:)/, '');
  const allowlist = HOST_QUERY_ALLOWLIST.find(({ suffix }) => url.hostname === suffix || url.hostname.endsWith(`.${suffix}`))?.keep;
  const params = [...url.searchParams]
    .filter(([name]) => {
      const lower = name.toLowerCase();
      if (allowlist) return allowlist.includes(lower);
      return !TRACKING_PARAMS.has(lower) && !TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
    })
    .sort(([nameA, valueA], [nameB, valueB]) => compareCodeUnits(nameA, nameB) || compareCodeUnits(valueA, valueB));
  const query = new URLSearchParams(params).toString();
  const path = normalizePercentEscapes(url.pathname).replace(/\/+$/, '');
  // Hash-bang and "#/route" fragments are how some single-page career sites address a posting;
  // dropping them would merge every job on that site into one.
  const fragment = /^#[!/]/.test(url.hash) ? normalizePercentEscapes(url.hash).replace(/\/+$/, '') : '';

  return `${url.protocol}//${host}${path}${query ? `?${query}` : ''}${fragment}`;
}

/** `canonicalizeUrl`, or null for a missing or unusable URL (identity then falls back to content). */
export function tryCanonicalizeUrl(input: string | null | undefined): string | null {
  if (!input || !input.trim()) return null;
  try {
    return canonicalizeUrl(input);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Text

export type TextKind = 'text' | 'company' | 'title' | 'location';

/** Letters that NFKD does not decompose into base letter + mark. */
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h',
};

/** Trailing legal-form tokens: "Acme, Inc." and "ACME GmbH & Co. KG" are both "acme". */
const COMPANY_SUFFIXES = new Set([
  'inc', 'incorporated', 'llc', 'llp', 'lp', 'ltd', 'limited', 'plc', 'corp', 'corporation', 'co', 'company',
  'gmbh', 'mbh', 'ag', 'kg', 'ug', 'se', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'oyj', 'ab', 'as', 'asa',
  'aps', 'pty', 'pvt', 'private', 'kk', 'sl', 'slu', 'and',
]);

/** Title abbreviations that sources spell out inconsistently; levels themselves stay distinct. */
const TITLE_ABBREVIATIONS: Record<string, string> = {
  sr: 'senior', snr: 'senior', jr: 'junior', jnr: 'junior', mgr: 'manager', engr: 'engineer',
};

const US_STATES: Record<string, string> = {
  alabama: 'al', alaska: 'ak', arizona: 'az', arkansas: 'ar', california: 'ca', colorado: 'co', connecticut: 'ct',
  delaware: 'de', florida: 'fl', georgia: 'ga', hawaii: 'hi', idaho: 'id', illinois: 'il', indiana: 'in', iowa: 'ia',
  kansas: 'ks', kentucky: 'ky', louisiana: 'la', maine: 'me', maryland: 'md', massachusetts: 'ma', michigan: 'mi',
  minnesota: 'mn', mississippi: 'ms', missouri: 'mo', montana: 'mt', nebraska: 'ne', nevada: 'nv',
  'new hampshire': 'nh', 'new jersey': 'nj', 'new mexico': 'nm', 'new york': 'ny', 'north carolina': 'nc',
  'north dakota': 'nd', ohio: 'oh', oklahoma: 'ok', oregon: 'or', pennsylvania: 'pa', 'rhode island': 'ri',
  'south carolina': 'sc', 'south dakota': 'sd', tennessee: 'tn', texas: 'tx', utah: 'ut', vermont: 'vt',
  virginia: 'va', washington: 'wa', 'west virginia': 'wv', wisconsin: 'wi', wyoming: 'wy',
  'district of columbia': 'dc',
};

/** A trailing "United States" adds nothing when a city or "remote" precedes it. */
const TRAILING_US = / (?:united states of america|united states|usa|us)$/;

/**
 * Comparable form of a company, title or location: accents and case folded, punctuation and
 * whitespace collapsed to single spaces. Per kind it also drops what sources add inconsistently:
 * legal suffixes for companies; gender markers ("(m/w/d)") and Sr./Jr. spellings for titles;
 * a trailing "United States" and spelled-out US state names for locations. Multi-location strings
 * ("A; B") are split, sorted and joined with " | " so their order does not matter.
 */
export function normalizeText(input: string | null | undefined, kind: TextKind = 'text'): string {
  if (!input) return '';
  switch (kind) {
    case 'company':
      return normalizeCompany(input);
    case 'title':
      return normalizeTitle(input);
    case 'location':
      return normalizeLocation(input);
    default:
      return collapse(fold(input));
  }
}

export function normalizeCompany(input: string | null | undefined): string {
  const tokens = collapse(fold(input ?? '')).split(' ').filter(Boolean);
  while (tokens.length > 1 && COMPANY_SUFFIXES.has(tokens[tokens.length - 1])) tokens.pop();
  if (tokens.length > 1 && tokens[0] === 'the') tokens.shift();
  return tokens.join(' ');
}

export function normalizeTitle(input: string | null | undefined): string {
  const withoutGender = fold(input ?? '')
    .replace(/\(\s*(?:all genders?|gn\*?|[mwfdxh]\s*(?:[/|,*]\s*(?:[mwfdxh]|divers|div))+)\s*\)/g, ' ')
    .replace(/\b[mwf]\/[mwf]\/[dx]\b/g, ' ');
  return collapse(withoutGender)
    .split(' ')
    .filter(Boolean)
    .map((token) => TITLE_ABBREVIATIONS[token] ?? token)
    .join(' ');
}

export function normalizeLocation(input: string | null | undefined): string {
  const places = fold(input ?? '')
    .split(/[;|\n]/)
    .map(normalizeOnePlace)
    .filter(Boolean);
  return [...new Set(places)].sort(compareCodeUnits).join(' | ');
}

function normalizeOnePlace(place: string): string {
  const parts = place.split(',').map(collapse).filter(Boolean);
  while (parts.length > 1 && /^(?:united states of america|united states|usa|us)$/.test(parts[parts.length - 1])) parts.pop();
  if (parts.length > 1) {
    const last = parts.length - 1;
    parts[last] = US_STATES[parts[last]] ?? parts[last];
  }
  let joined = parts.join(' ');
  while (TRAILING_US.test(joined)) joined = joined.replace(TRAILING_US, '');
  return joined;
}

/** Lower-case, accents stripped, "U.S." → "us", C++/C#/.NET kept distinguishable from C and NET. */
function fold(input: string): string {
  return input
    .normalize('NFKD')
    // Only the Latin-style combining accents: other scripts' marks (Japanese dakuten, Devanagari
    // vowel signs) change the word, so they are recomposed instead of dropped.
    .replace(/[\u0300-\u036f]+/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[ßæœøłđðþıħ]/g, (ch) => LETTER_FOLDS[ch] ?? ch)
    .replace(/(?<![\p{L}\p{N}])((?:\p{L}\.){2,})/gu, (dotted) => dotted.replace(/\./g, ''))
    .replace(/(?<![\p{L}\p{N}])c\+\+/gu, 'cpp')
    .replace(/(?<![\p{L}\p{N}])([cf])#/gu, '$1sharp')
    .replace(/(?<![\p{L}\p{N}])\.net(?![\p{L}\p{N}])/gu, 'dotnet')
    .replace(/&/g, ' and ');
}

function collapse(input: string): string {
  return input.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Keys and sameness

interface ContentIdentity {
  company: string;
  title: string;
  location: string;
}

/** Company + title are required: without them, "same content" would match unrelated postings. */
function contentIdentity(posting: JobIdentityInput): ContentIdentity | null {
  const company = normalizeCompany(posting.company);
  const title = normalizeTitle(posting.title);
  if (!company || !title) return null;
  return { company, title, location: normalizeLocation(posting.location) };
}

function hashKey(prefix: string, material: string): string {
  return prefix + base32(sha256(new TextEncoder().encode(material))).slice(0, KEY_HASH_CHARS);
}

/**
 * Key of a posting's normalised company + title + location (`c_…`), or null without a company or
 * title. Storage indexes it so a repost under a new URL, or the same posting from another source,
 * finds the job it duplicates.
 */
export function contentKey(posting: JobIdentityInput): string | null {
  const content = contentIdentity(posting);
  if (!content) return null;
  return hashKey(CONTENT_KEY_PREFIX, `content\u0000${content.company}\u0000${content.title}\u0000${content.location}`);
}

/**
 * The job's stable key (`j_` + 26 base32 characters of a SHA-256), from the canonical URL when the
 * posting has a usable one, else from normalised company + title + location. Throws a TypeError
 * when the posting has neither, since any key invented for it would not be stable.
 */
export function jobKey(posting: JobIdentityInput): string {
  const canonical = tryCanonicalizeUrl(posting.url);
  if (canonical) return hashKey(JOB_KEY_PREFIX, `url\u0000${canonical}`);
  const content = contentIdentity(posting);
  if (!content) throw new TypeError('a posting needs a usable url, or a company and a title, to have an identity');
  return hashKey(JOB_KEY_PREFIX, `content\u0000${content.company}\u0000${content.title}\u0000${content.location}`);
}

const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._-]+$/;

/** `v1-j_…`: the key behind workflow ids `prep-{idempotency_key}`; only `[A-Za-z0-9._-]`. */
export function idempotencyKey(posting: JobIdentityInput): string {
  return idempotencyKeyForJobKey(jobKey(posting));
}

/** Same as `idempotencyKey`, for callers that hold a stored job key rather than the posting. */
export function idempotencyKeyForJobKey(key: string): string {
  const result = `${JOB_IDENTITY_VERSION}-${key}`;
  if (!IDEMPOTENCY_KEY_PATTERN.test(result)) throw new TypeError(`not a job key: ${key}`);
  return result;
}

export function isIdempotencyKey(value: string): boolean {
  return IDEMPOTENCY_KEY_PATTERN.test(value) && value.startsWith(`${JOB_IDENTITY_VERSION}-${JOB_KEY_PREFIX}`);
}

/**
 * Whether two postings are the same job: the same canonical URL (one posting seen twice, or a
 * repost at the same address), or the same normalised company + title + location (the posting
 * through another source, or a repost under a new id). Near-duplicates stay distinct because every
 * word of the title and location counts: Senior vs Staff, "Payments" vs "Identity" team, Berlin vs
 * Munich are different jobs.
 */
export function sameJob(a: JobIdentityInput, b: JobIdentityInput): boolean {
  const urlA = tryCanonicalizeUrl(a.url);
  if (urlA !== null && urlA === tryCanonicalizeUrl(b.url)) return true;
  const contentA = contentIdentity(a);
  const contentB = contentIdentity(b);
  return (
    contentA !== null &&
    contentB !== null &&
    contentA.company === contentB.company &&
    contentA.title === contentB.title &&
    contentA.location === contentB.location
  );
}

// ---------------------------------------------------------------------------------------------

function compareCodeUnits(a: string, b: string): number {
  // Not localeCompare: a key must not depend on the machine's locale.
  return a < b ? -1 : a > b ? 1 : 0;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes escapes of unreserved characters and upper-cases the rest (RFC 3986 §6.2.2). */
function normalizePercentEscapes(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}
