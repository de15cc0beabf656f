// A source's config as the form edits it, built from the kind's field descriptions that the API
// publishes (GET /v1/sources/kinds, taken from each adapter's own config rules). Nothing here knows
// a kind: the API describes the fields and stays the judge of a value — its 400 names the path
// (`config.units[2].board`) and the form shows it beside that control.
import type { FieldError } from '../../api/http';
import type { KindField } from './source-kind.types';

/** An item of an object[] field: a stable key for React, its own sub-draft. */
export interface DraftItem {
  key: string;
  values: Draft;
}
/** Text for string/url/integer/enum, a boolean, a list of strings or of items, or an object's own draft. */
export type DraftValue = string | boolean | string[] | DraftItem[] | Draft;
export interface Draft {
  [name: string]: DraftValue;
}

let keys = 0;
const nextKey = () => `item-${++keys}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field's value in the form from the stored config; a key that is absent shows the field's default. */
function draftValue(field: KindField, stored: unknown, fresh: boolean): DraftValue {
  const value = stored === undefined || stored === null ? field.default : stored;
  switch (field.type) {
    case 'boolean':
      return value === true;
    case 'string[]':
      return Array.isArray(value) ? value.map((v) => String(v)) : [];
    case 'object[]': {
      const items = Array.isArray(value) ? value.map((v) => newItem(field.fields ?? [], isRecord(v) ? v : {})) : [];
      // A new source's required list starts with one item to fill in rather than an empty list.
      return items.length === 0 && fresh && field.required ? [newItem(field.fields ?? [], {})] : items;
    }
    case 'object':
      return draftOf(field.fields ?? [], isRecord(value) ? value : {}, fresh);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

export function newItem(fields: readonly KindField[], stored: Record<string, unknown> = {}): DraftItem {
  return { key: nextKey(), values: draftOf(fields, stored, true) };
}

/** The form's values for a config (`fresh`: a new source, whose required lists start with an item). */
export function draftOf(fields: readonly KindField[], config: Record<string, unknown> = {}, fresh = false): Draft {
  return Object.fromEntries(fields.map((f) => [f.name, draftValue(f, config[f.name], fresh)]));
}

export interface BuiltConfig {
  config: Record<string, unknown>;
  /** What the form can tell before asking (a number that is not whole), on the API's paths. */
  errors: FieldError[];
}

/** One field's value to send, or undefined to leave the key out (the adapter's default applies). */
function toConfigValue(field: KindField, value: DraftValue, path: string, errors: FieldError[]): unknown {
  switch (field.type) {
    case 'boolean':
      return value === true;
    case 'string[]': {
      const list = (value as string[]).map((s) => s.trim()).filter(Boolean);
      return list.length ? list : undefined;
    }
    case 'object[]': {
      const items = (value as DraftItem[]).map((item, i) => buildValues(field.fields ?? [], item.values, {}, `${path}[${i}]`, errors));
      return items.length ? items : undefined;
    }
    case 'object': {
      const values = buildValues(field.fields ?? [], value as Draft, {}, path, errors);
      return Object.keys(values).length ? values : undefined;
    }
    case 'integer': {
      const text = String(value).trim();
      if (!text) return undefined;
      if (!/^-?\d+$/.test(text)) {
        errors.push({ field: path, value: text, rule: 'must be a whole number' });
        return undefined;
      }
      return Number(text);
    }
    default:
      return String(value).trim() || undefined;
  }
}

function buildValues(fields: readonly KindField[], draft: Draft, base: Record<string, unknown>, prefix: string, errors: FieldError[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const field of fields) {
    delete out[field.name];
    const value = toConfigValue(field, draft[field.name] ?? draftValue(field, undefined, false), `${prefix}.${field.name}`.replace(/^\./, ''), errors);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

/**
 * The config to send: blank text and empty lists left out, integers and JSON parsed. Keys of `base`
 * (the stored config) that no field describes are kept, so editing never drops what the form does
 * not show. Error paths start with `config.` as the API's do.
 */
export function buildConfig(fields: readonly KindField[], draft: Draft, base: Record<string, unknown> = {}): BuiltConfig {
  const errors: FieldError[] = [];
  const config = buildValues(fields, draft, base, 'config', errors);
  return { config, errors };
}

/**
 * Where the form shows errors, for `draft`: `leaf` paths take their own errors and anything under
 * them; `exact` paths (a list as a whole, an item of a string list) only their own. An error on any
 * other path has no place beside a control and is shown above the form.
 */
export function placedPaths(fields: readonly KindField[], draft: Draft, prefix = 'config'): { leaf: string[]; exact: string[] } {
  const leaf: string[] = [];
  const exact: string[] = [];
  for (const field of fields) {
    const path = `${prefix}.${field.name}`;
    const value = draft[field.name];
    if (field.type === 'object[]') {
      exact.push(path);
      ((value ?? []) as DraftItem[]).forEach((item, i) => {
        exact.push(`${path}[${i}]`);
        const sub = placedPaths(field.fields ?? [], item.values, `${path}[${i}]`);
        leaf.push(...sub.leaf);
        exact.push(...sub.exact);
      });
    } else if (field.type === 'object') {
      exact.push(path);
      const sub = placedPaths(field.fields ?? [], (value ?? {}) as Draft, path);
      leaf.push(...sub.leaf);
      exact.push(...sub.exact);
    } else if (field.type === 'string[]') {
      exact.push(path, ...((value ?? []) as string[]).map((_, i) => `${path}[${i}]`));
    } else {
      leaf.push(path);
    }
  }
  return { leaf, exact };
}

/** True when some error of the list has no control to sit beside (given the other placed paths). */
export function hasUnplacedErrors(errors: readonly FieldError[], placed: { leaf: string[]; exact: string[] }): boolean {
  const isPlaced = (f: string) => placed.exact.includes(f) || placed.leaf.some((p) => f === p || f.startsWith(`${p}.`) || f.startsWith(`${p}[`));
  return errors.length === 0 || errors.some((e) => !isPlaced(e.field));
}

/** "board_token" → "Board token", "base_urls" → "Base URLs": a label for a field the API names. */
export function fieldLabel(name: string): string {
  const words = name.split(/[_\s]+/).filter(Boolean).map((w) => (/^(url|id|api|csv|json)s?$/i.test(w) ? w.replace(/^(url|id|api|csv|json)/i, (m) => m.toUpperCase()) : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
