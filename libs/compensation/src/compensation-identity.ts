import { createHash } from 'node:crypto';
import type { CompensationRowInput } from './compensation.types';

/**
 * One compensation statement as a source gave it: which source and which of its postings, the field
 * path it came from ("lever.salaryRange", "description"), and its raw text (for a structured value,
 * the value as the source sent it). `structured` is the value already read by the board's helper.
 */
export interface CompensationSourceRow extends CompensationRowInput {
  sourceId: string;
  externalJobId: string;
  fieldPath: string;
}

/**
 * The exact source identity of a statement: equal identities are the same statement and get one
 * determination, whichever job or refresh asks. `key` is the digest the cache is keyed by.
 */
export interface SourceIdentity {
  key: string;
  sourceId: string;
  externalJobId: string;
  fieldPath: string;
  textSha256: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function sourceIdentity(row: CompensationSourceRow): SourceIdentity {
  const textSha256 = sha256(row.text);
  // The country decides what a bare "$" means, so two postings with the same words in different
  // countries are different statements.
  const key = sha256(JSON.stringify([row.sourceId, row.externalJobId, row.fieldPath, textSha256, row.country ?? null]));
  return { key, sourceId: row.sourceId, externalJobId: row.externalJobId, fieldPath: row.fieldPath, textSha256 };
}
