// The config form of each source kind. The API validates a config with the kind's adapter
// (libs/discovery/src/adapters/*.adapter.ts, validateConfig) but does not publish those rules — its
// OpenAPI document types `config` as a free object — so this small table mirrors them for the form.
// The API stays the judge: whatever this table misses comes back as a 400 naming `config.<key>`,
// shown next to the field (or above the form for a key the table does not know).
import type { Schemas } from '../../api/client';

export type SourceKind = Schemas['SourceView']['kind'];

export interface ConfigField {
  key: string;
  label: string;
  required?: boolean;
  /** text: a string; url: an http(s) base URL; select: one of `options`; json: any JSON value, typed as text. */
  type: 'text' | 'url' | 'select' | 'json';
  options?: readonly string[];
  hint?: string;
}

const BASE_URL: ConfigField = { key: 'base_url', label: 'Base URL', type: 'url', hint: 'only to point at a mirror or a simulator; the public API when empty' };
const COMPANY: ConfigField = { key: 'company_name', label: 'Company name', type: 'text', hint: 'how letters address the employer; the board’s own name when empty' };
const SEARCH: ConfigField = { key: 'search', label: 'Search', type: 'text', hint: 'keep only postings that mention it' };
const token = (key: string, label: string): ConfigField => ({ key, label, type: 'text', required: true, hint: 'one URL path segment (no / ? # % or spaces)' });

export const SOURCE_KINDS: Record<SourceKind, { label: string; fields: readonly ConfigField[] }> = {
  greenhouse: { label: 'Greenhouse', fields: [token('board_token', 'Board token'), COMPANY, BASE_URL] },
  lever: { label: 'Lever', fields: [token('site', 'Site'), COMPANY, BASE_URL] },
  ashby: { label: 'Ashby', fields: [token('board', 'Board'), COMPANY, BASE_URL] },
  smartrecruiters: { label: 'SmartRecruiters', fields: [token('company_id', 'Company id'), COMPANY, BASE_URL] },
  workable: { label: 'Workable', fields: [token('account', 'Account'), COMPANY, BASE_URL] },
  remotive: { label: 'Remotive', fields: [SEARCH, BASE_URL] },
  remoteok: { label: 'RemoteOK', fields: [SEARCH, BASE_URL] },
  arbeitnow: { label: 'Arbeitnow', fields: [SEARCH, BASE_URL] },
  file: {
    label: 'File (JSON or CSV, JobSpy rows too)',
    fields: [
      { key: 'path', label: 'Path', type: 'text', required: true, hint: 'a .json or .csv file on the API’s machine' },
      { key: 'format', label: 'Format', type: 'select', options: ['json', 'csv'], hint: 'from the extension when empty' },
    ],
  },
  jobstreaming: {
    label: 'JobStreaming (search boards)',
    fields: [
      { key: 'units', label: 'Search units (JSON)', type: 'json', required: true, hint: '[{"query": "typescript", "location": "Berlin", "board": "remotive|remoteok|arbeitnow|aggregator"}]' },
      BASE_URL,
      { key: 'base_urls', label: 'Base URL per board (JSON)', type: 'json', hint: '{"aggregator": "https://…"}' },
    ],
  },
};

export const KIND_NAMES = Object.keys(SOURCE_KINDS) as SourceKind[];

/** The text a config value shows in its field (JSON kept as indented text). */
export function fieldText(field: ConfigField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.type === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

export type ConfigResult = { config: Record<string, unknown>; errors: Record<string, string> };

/**
 * The config to send from the form's texts: blank fields are left out (the adapter's default
 * applies), JSON fields parsed (a parse error is reported here, before any request). Keys the form
 * does not show are kept from `base`, so editing never drops a setting the table does not know.
 */
export function buildConfig(kind: SourceKind, texts: Record<string, string>, base: Record<string, unknown> = {}): ConfigResult {
  const config: Record<string, unknown> = { ...base };
  const errors: Record<string, string> = {};
  for (const field of SOURCE_KINDS[kind].fields) {
    const text = (texts[field.key] ?? '').trim();
    delete config[field.key];
    if (!text) continue;
    if (field.type !== 'json') {
      config[field.key] = text;
      continue;
    }
    try {
      config[field.key] = JSON.parse(text);
    } catch {
      errors[`config.${field.key}`] = 'is not valid JSON';
    }
  }
  return { config, errors };
}
