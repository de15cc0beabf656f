import { type HttpClient, MalformedResponseError } from './source-adapter.model';

/**
 * GET a JSON document. A SyntaxError from the client (a client that parses without wrapping) is
 * reported as MalformedResponseError naming the URL, so a broken board fails its family clearly.
 */
export async function fetchJson(http: HttpClient, url: string, signal?: AbortSignal): Promise<unknown> {
  try {
    return await http.getJson<unknown>(url, { signal });
  } catch (err) {
    if (err instanceof SyntaxError) throw new MalformedResponseError(url, `body is not valid JSON (${err.message})`);
    throw err;
  }
}

export type JsonObject = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string "${value.slice(0, 37)}..."` : `"${value}"`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * Checks the parts of a response an adapter relies on. Optional fields may be absent or null, but a
 * present value of the wrong type is an error: it means the API changed under us.
 */
export class ShapeReader {
  constructor(readonly url: string) {}

  fail(where: string, expected: string, got: unknown): never {
    throw new MalformedResponseError(this.url, `${where} must be ${expected} (got ${describe(got)})`);
  }

  object(value: unknown, where: string): JsonObject {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(where, 'an object', value);
    return value as JsonObject;
  }

  array(value: unknown, where: string): unknown[] {
    if (!Array.isArray(value)) this.fail(where, 'an array', value);
    return value;
  }

  /** A required non-empty string. */
  string(obj: JsonObject, key: string, where: string): string {
    const value = obj[key];
    if (typeof value !== 'string' || !value.trim()) this.fail(`${where}.${key}`, 'a non-empty string', value);
    return value.trim();
  }

  /** A required id: a non-empty string or a finite number, returned as a string. */
  id(obj: JsonObject, key: string, where: string): string {
    const value = obj[key];
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && value.trim()) return value.trim();
    return this.fail(`${where}.${key}`, 'a string or number id', value);
  }

  /** Absent, null or blank → null. */
  optString(obj: JsonObject, key: string, where: string): string | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') this.fail(`${where}.${key}`, 'a string', value);
    return value.trim() || null;
  }

  optNumber(obj: JsonObject, key: string, where: string): number | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(`${where}.${key}`, 'a number', value);
    return value;
  }

  optBoolean(obj: JsonObject, key: string, where: string): boolean | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'boolean') this.fail(`${where}.${key}`, 'a boolean', value);
    return value;
  }

  optObject(obj: JsonObject, key: string, where: string): JsonObject | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    return this.object(value, `${where}.${key}`);
  }

  /** A field some boards publish as data and others as text (Workable `salary`, SmartRecruiters `compensation`). */
  optObjectOrString(obj: JsonObject, key: string, where: string): JsonObject | string | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value.trim() || null;
    if (typeof value !== 'object' || Array.isArray(value)) this.fail(`${where}.${key}`, 'an object or a string', value);
    return value as JsonObject;
  }

  optArray(obj: JsonObject, key: string, where: string): unknown[] {
    const value = obj[key];
    if (value === undefined || value === null) return [];
    return this.array(value, `${where}.${key}`);
  }

  /** An optional array of strings; blank entries are dropped. */
  optStrings(obj: JsonObject, key: string, where: string): string[] {
    return this.optArray(obj, key, where).flatMap((item, i) => {
      if (typeof item !== 'string') this.fail(`${where}.${key}[${i}]`, 'a string', item);
      return item.trim() ? [item.trim()] : [];
    });
  }

  /** The `label`/`name` of an optional `{id, label}` object, as several APIs nest enumerations. */
  optLabel(obj: JsonObject, key: string, where: string, labelKey = 'label'): string | null {
    const nested = this.optObject(obj, key, where);
    return nested ? this.optString(nested, labelKey, `${where}.${key}`) : null;
  }
}
