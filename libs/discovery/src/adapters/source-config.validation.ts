import { SourceConfigError, type SourceConfigField, type SourceConfigIssue, type SourceKind } from './source-adapter.model';

const TOKEN_RULE = "must be a non-empty path segment (no '/', '?', '#', '%' or whitespace)";

/**
 * The config key naming the employer of a single-company board (Greenhouse, Lever, Ashby,
 * SmartRecruiters, Workable). It is the user's explicit word, so it wins over whatever name the
 * board's API gives; without either, postings fall back to the board token.
 */
export const COMPANY_NAME_KEY = 'company_name';

/** The optional base_url every API kind accepts; `fallback` is the provider's public API (none: no default). */
export function baseUrlField(fallback: string | null, description = 'The API to read instead of the public one (a mirror or a simulator); absolute http(s), no query or fragment.'): SourceConfigField {
  return { name: 'base_url', type: 'url', required: false, description, ...(fallback ? { default: fallback } : {}) };
}

/** The optional company_name of a single-company board; see COMPANY_NAME_KEY. */
export const COMPANY_NAME_FIELD: SourceConfigField = {
  name: COMPANY_NAME_KEY,
  type: 'string',
  required: false,
  description: "The employer's name as cover letters should address it; wins over the name the board gives.",
};

/** A board token, site, company id or account slug: one URL path segment, always required. */
export function tokenField(name: string, description: string): SourceConfigField {
  return { name, type: 'string', required: true, description: `${description} One URL path segment (no '/', '?', '#', '%' or whitespace).` };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads one source's raw config through its adapter's field declaration, collecting every issue and
 * throwing them together in finish(). Unknown keys are issues too: a typo such as "serach" would
 * otherwise silently widen a search. `kind` is tolerated because a family entry usually carries it
 * next to its settings. Reading a field the declaration does not name is a programming error (it
 * throws), and defaults and enum options come from the declaration: what GET /v1/sources/kinds
 * publishes is what validation does.
 */
export class ConfigReader {
  readonly issues: SourceConfigIssue[] = [];
  private readonly raw: Record<string, unknown>;

  constructor(
    private readonly kind: SourceKind,
    raw: unknown,
    private readonly fields: readonly SourceConfigField[],
    private readonly prefix = '',
  ) {
    const allowedKeys = fields.map((f) => f.name);
    if (!isPlainObject(raw)) {
      this.issues.push({ field: prefix || '(config)', value: raw, rule: 'must be an object' });
      this.raw = {};
      return;
    }
    this.raw = raw;
    for (const key of Object.keys(raw)) {
      if (!allowedKeys.includes(key) && !(key === 'kind' && !prefix)) {
        this.issues.push({ field: this.path(key), value: raw[key], rule: `is not a known field (known: ${allowedKeys.join(', ')})` });
      }
    }
  }

  /** The declaration of `field`; reading an undeclared field is a bug in the adapter, not bad input. */
  declared(field: string): SourceConfigField {
    const found = this.fields.find((f) => f.name === field);
    if (!found) throw new Error(`${this.kind} adapter reads config field ${this.path(field)}, which it does not declare`);
    return found;
  }

  path(field: string): string {
    return this.prefix ? `${this.prefix}.${field}` : field;
  }

  has(field: string): boolean {
    this.declared(field);
    return this.raw[field] !== undefined && this.raw[field] !== null;
  }

  get(field: string): unknown {
    this.declared(field);
    return this.raw[field];
  }

  issue(field: string, value: unknown, rule: string): void {
    this.issues.push({ field: this.path(field), value, rule });
  }

  /** A board token, site name, company id or account slug: it becomes one URL path segment. */
  token(field: string): string {
    this.declared(field);
    const value = this.raw[field];
    if (typeof value !== 'string' || !value.trim()) {
      this.issue(field, value, value === undefined ? `is required and ${TOKEN_RULE}` : TOKEN_RULE);
      return '';
    }
    const trimmed = value.trim();
    if (/[/?#%\s\\]/.test(trimmed) || trimmed.length > 200) {
      this.issue(field, value, TOKEN_RULE);
      return '';
    }
    return trimmed;
  }

  requiredString(field: string, rule = 'must be a non-empty string'): string {
    this.declared(field);
    const value = this.raw[field];
    if (typeof value !== 'string' || !value.trim()) {
      this.issue(field, value, value === undefined ? `is required and ${rule}` : rule);
      return '';
    }
    return value.trim();
  }

  /** Absent, null or blank → null. */
  optionalString(field: string, rule = 'must be a string'): string | null {
    this.declared(field);
    const value = this.raw[field];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      this.issue(field, value, rule);
      return null;
    }
    return value.trim() || null;
  }

  /** The optional `company_name` of a single-company board; see COMPANY_NAME_KEY. */
  companyName(): string | null {
    return this.optionalString(COMPANY_NAME_KEY, "must be a string: the employer's name as letters should address it");
  }

  /** One of the declared field's options; absent → its declared default, if it has one. */
  oneOf<T extends string>(field: string): T {
    const declared = this.declared(field);
    const allowed = (declared.options ?? []) as T[];
    const fallback = declared.default as T | undefined;
    const value = this.raw[field];
    if ((value === undefined || value === null) && fallback !== undefined) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.issue(field, value, `must be one of ${allowed.join(', ')}`);
      return allowed[0];
    }
    return value as T;
  }

  /** An http(s) origin with an optional path prefix, returned without a trailing slash; absent → the declared default, else null. */
  baseUrl(field: string): string | null {
    const declared = this.declared(field);
    const fallback = typeof declared.default === 'string' ? declared.default : null;
    const value = this.raw[field];
    if (value === undefined || value === null) return fallback;
    const normalized = normalizeBaseUrl(value);
    if (normalized === null) {
      this.issue(field, value, 'must be an absolute http(s) URL without query, fragment or credentials');
    }
    return normalized;
  }

  finish<C>(config: C): C {
    if (this.issues.length) throw new SourceConfigError(this.kind, this.issues);
    return config;
  }
}

export function normalizeBaseUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    return null;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
