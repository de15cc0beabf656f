import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { htmlToReadableText } from '@jobctrl/shared/html';
import { CsvSyntaxError, parseCsvRecords } from './csv.parser';
import { cleanTags, compensationStatements, formatSalaryRange, normalizeEmploymentType, normalizeEmploymentTypes, type SalaryPeriod, toIsoDate } from './posting-fields.normalizer';
import { type DiscoverContext, type DiscoveredPosting, MalformedResponseError, type SourceAdapter, type SourceConfigField } from './source-adapter.model';
import { ConfigReader, isPlainObject } from './source-config.validation';
import { readFileSourceInside, resolveFileSourcePath } from '../sources/source-address.rules';

export type FileFormat = 'json' | 'csv';

export interface FileSourceConfig {
  /** Inside file_source_dirs: absolute, or relative to the first of them. */
  path: string;
  format: FileFormat;
}

const FORMATS: readonly FileFormat[] = ['json', 'csv'];
const INTERVALS: Record<string, SalaryPeriod> = { yearly: 'year', monthly: 'month', weekly: 'week', daily: 'day', hourly: 'hour' };

type Row = Record<string, unknown>;

/**
 * Imports postings from a file: JSON (an array of DiscoveredPosting-like objects, or JobSpy's JSON
 * export as records or pandas' default column layout) or CSV with JobSpy's columns. `format` may be
 * left out when the file name ends in .json or .csv.
 */
export class FileSourceAdapter implements SourceAdapter<FileSourceConfig> {
  readonly kind = 'file' as const;

  readonly label = 'File';
  readonly description = 'Postings imported from a JSON or CSV file on the machine running jobctrl (JobSpy exports too).';
  readonly fields: readonly SourceConfigField[] = [
    { name: 'path', type: 'string', required: true, description: 'The file, inside file_source_dirs: absolute, or relative to the first of them.' },
    {
      name: 'format',
      type: 'enum',
      required: false,
      options: [...FORMATS],
      description: 'How the file is written; from the extension (.json or .csv) when empty, required otherwise.',
    },
  ];

  validateConfig(raw: unknown): FileSourceConfig {
    const r = new ConfigReader(this.kind, raw, this.fields);
    const file = r.requiredString('path', 'must be a non-empty file path');
    let format: FileFormat = 'json';
    if (r.has('format')) {
      format = r.oneOf<FileFormat>('format');
    } else if (file) {
      const ext = path.extname(file).slice(1).toLowerCase();
      if ((FORMATS as readonly string[]).includes(ext)) format = ext as FileFormat;
      else r.issue('format', r.get('format'), `is required when the path does not end in .json or .csv (one of ${FORMATS.join(', ')})`);
    }
    return r.finish({ path: file, format });
  }

  async *discover(config: FileSourceConfig, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting> {
    ctx.signal?.throwIfAborted();
    const dirs = ctx.fileSourceDirs ?? [];
    // Read only inside file_source_dirs, checked again now on what is actually opened (#15).
    const where = pathToFileURL(await resolveFileSourcePath(config.path, dirs)).href;
    const text = await readFileSourceInside(config.path, dirs, { signal: ctx.signal, maxBytes: ctx.fileSourceMaxBytes });
    const rows = config.format === 'csv' ? csvRows(text, where) : jsonRows(text, where);
    const postings = rows.map((row, i) => {
      if (!isPlainObject(row)) throw new MalformedResponseError(where, `record ${i + 1} is not an object`);
      return isJobSpyRow(row) ? fromJobSpy(row, i, where) : fromPostingLike(row, i, where);
    });
    for (const posting of postings) {
      ctx.signal?.throwIfAborted();
      yield posting;
    }
  }
}

function csvRows(text: string, where: string): Row[] {
  try {
    const { header, records } = parseCsvRecords(text);
    if (records.length && !header.includes('job_url') && !header.includes('url')) {
      throw new MalformedResponseError(where, `CSV header has neither job_url (JobSpy) nor url: ${header.join(',')}`);
    }
    return records;
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new MalformedResponseError(where, err.message);
    throw err;
  }
}

function jsonRows(text: string, where: string): unknown[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new MalformedResponseError(where, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (Array.isArray(doc)) return doc;
  // pandas' DataFrame.to_json() default ("columns"): {"title": {"0": "…", "1": "…"}, "job_url": {…}}.
  if (isPlainObject(doc) && Object.values(doc).length && Object.values(doc).every(isPlainObject) && ('job_url' in doc || 'title' in doc)) {
    const columns = doc as Record<string, Record<string, unknown>>;
    const keys = [...new Set(Object.values(columns).flatMap((c) => Object.keys(c)))].sort((a, b) => Number(a) - Number(b));
    return keys.map((k) => Object.fromEntries(Object.entries(columns).map(([col, values]) => [col, values[k]])));
  }
  throw new MalformedResponseError(where, 'expected a JSON array of postings (or JobSpy column-oriented JSON)');
}

function isJobSpyRow(row: Row): boolean {
  return 'job_url' in row;
}

/** CSV gives strings, JSON typed values; both read as trimmed text, blank → null. */
function str(row: Row, key: string): string | null {
  const value = row[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed && !/^(nan|none|null)$/i.test(trimmed) ? trimmed : null;
}

function num(row: Row, key: string): number | null {
  const value = row[key];
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = str(row, key);
  if (text === null) return null;
  const n = Number(text.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

function bool(row: Row, key: string): boolean | null {
  const value = row[key];
  if (typeof value === 'boolean') return value;
  const text = str(row, key)?.toLowerCase();
  if (text === 'true' || text === '1' || text === 'yes') return true;
  if (text === 'false' || text === '0' || text === 'no') return false;
  return null;
}

function required(row: Row, key: string, index: number, where: string): string {
  const value = str(row, key);
  if (!value) throw new MalformedResponseError(where, `record ${index + 1}: ${key} is missing or empty`);
  return value;
}

function looksLikeHtml(text: string): boolean {
  return /<\/?(p|div|br|ul|ol|li|h[1-6]|strong|b|em|span)\b[^>]*>/i.test(text);
}

/** JobSpy rows (scrape_jobs → DataFrame → to_csv/to_json). Its descriptions are Markdown unless asked for HTML. */
function fromJobSpy(row: Row, index: number, where: string): DiscoveredPosting {
  const url = required(row, 'job_url', index, where);
  const description = str(row, 'description');
  const html = description && looksLikeHtml(description) ? description : null;
  const datePosted = row['date_posted'];
  const jobTypes = (str(row, 'job_type') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const interval = str(row, 'interval')?.toLowerCase() ?? null;
  const amounts = { min_amount: num(row, 'min_amount'), max_amount: num(row, 'max_amount'), currency: str(row, 'currency'), interval: str(row, 'interval') };
  return {
    sourceKind: 'file',
    externalId: str(row, 'id') ?? url,
    title: required(row, 'title', index, where),
    company: str(row, 'company') ?? '',
    location: str(row, 'location'),
    remote: bool(row, 'is_remote'),
    url,
    applyUrl: str(row, 'job_url_direct'),
    descriptionHtml: html,
    descriptionText: html ? htmlToReadableText(html) : description,
    postedAt: typeof datePosted === 'number' ? toIsoDate(datePosted, 'ms') : toIsoDate(str(row, 'date_posted')),
    salaryText: formatSalaryRange(num(row, 'min_amount'), num(row, 'max_amount'), str(row, 'currency'), interval ? INTERVALS[interval] ?? null : null),
    employmentType: jobTypes.length ? normalizeEmploymentTypes(jobTypes) : null,
    tags: cleanTags((str(row, 'skills') ?? '').split(',')),
    compensation: compensationStatements([['jobspy.amounts', amounts.min_amount !== null || amounts.max_amount !== null ? amounts : null]]),
  };
}

/** Our own export shape: DiscoveredPosting fields, most optional. */
function fromPostingLike(row: Row, index: number, where: string): DiscoveredPosting {
  const url = required(row, 'url', index, where);
  const html = str(row, 'descriptionHtml');
  const tags = Array.isArray(row['tags']) ? row['tags'].filter((t): t is string => typeof t === 'string') : (str(row, 'tags') ?? '').split(',');
  const postedAt = row['postedAt'];
  const salaryText = str(row, 'salaryText');
  return {
    sourceKind: 'file',
    externalId: str(row, 'externalId') ?? url,
    title: required(row, 'title', index, where),
    company: str(row, 'company') ?? '',
    location: str(row, 'location'),
    remote: bool(row, 'remote'),
    url,
    applyUrl: str(row, 'applyUrl'),
    descriptionHtml: html,
    descriptionText: str(row, 'descriptionText') ?? (html ? htmlToReadableText(html) : null),
    postedAt: typeof postedAt === 'number' ? toIsoDate(postedAt, 'ms') : toIsoDate(str(row, 'postedAt')),
    salaryText,
    employmentType: normalizeEmploymentType(str(row, 'employmentType')),
    tags: cleanTags(tags),
    compensation: compensationStatements([['file.salaryText', salaryText]]),
  };
}
