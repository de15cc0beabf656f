import { createHash } from 'node:crypto';
import type { ApplicationState } from '@jobctrl/pipeline/contracts';

/** What a person approved: the sha256 of each artifact as it was (canonical JSON, see artifactSha256). */
export interface Approval {
  /** Epoch ms. */
  approvedAt: number;
  resumeSha256: string;
  coverLetterSha256: string;
  answersSha256: string;
}

/** The answers a person saved for a job's form questions, by question key or label. */
export type SavedAnswers = Record<string, string>;

/** The artifacts an approved application fills in, read together with the approval they match. */
export interface ApprovedArtifacts {
  approval: Approval;
  tailoredResume: unknown;
  coverLetter: unknown;
  answers: SavedAnswers;
}

export type ApproveResult = { approved: true; approval: Approval } | { approved: false; missing: Array<'job' | 'tailored_resume' | 'cover_letter'> };

/** `pending`: written before the final click, not yet confirmed; `confirmed`: the board confirmed it. */
export type SubmitIntentState = 'none' | 'pending' | 'confirmed';

/** A question the profile and the saved answers cannot answer (the contract's ApplyResult shape). */
export interface ApplicationQuestion {
  key: string;
  label: string;
  type: string;
  options?: string[];
}

/** One screenshot of an attempt: its file name (the URL's last segment) and where it is on disk. */
export interface ApplicationScreenshot {
  name: string;
  path: string;
}

export interface ApplicationRecord {
  tenant: string;
  jobKey: string;
  workflowId: string;
  /** The canonical owner: the run of the latest ApplyClaimAcquired. */
  ownerRunId: string;
  state: ApplicationState;
  dryRun: boolean;
  submitIntent: SubmitIntentState;
  intentAt: number | null;
  submittedAt: number | null;
  confirmation: string | null;
  questions: ApplicationQuestion[];
  screenshots: ApplicationScreenshot[];
  reason: string | null;
  startedAt: number;
  updatedAt: number;
}

/** What a person found when checking a `needs_verification` application with the board. */
export interface VerificationVerdict {
  submitted: boolean;
  /** The board's confirmation (number, email subject) when the person has one. */
  confirmation?: string;
}

export type VerifyResult =
  | { accepted: true; application: ApplicationRecord }
  /** Nothing changed: no application, or it is not (any more) awaiting verification. */
  | { accepted: false; reason: 'no_application' | 'not_awaiting_verification'; application: ApplicationRecord | null };

export type ClaimResult =
  | { acquired: true; application: ApplicationRecord; previousOwner: string | null }
  /** No claim: the job may already have been submitted (a submit intent exists), or there is no such job. */
  | { acquired: false; reason: 'submit_intent_recorded' | 'job_gone'; application: ApplicationRecord | null };

/**
 * What an owner-compared write did. A refused write changed nothing; `reason` says why:
 * not_owner (a newer claim owns the job: this run is stale), no_application (never claimed),
 * not_running (the attempt already has its outcome), and per write: not_approved (the approval no
 * longer matches the artifacts: the final click is not authorised), daily_cap_reached, dry_run,
 * intent_already_recorded, no_submit_intent (a submission cannot be recorded without its checkpoint).
 */
export type OwnedWrite =
  | { accepted: true; application: ApplicationRecord }
  | {
      accepted: false;
      reason: 'not_owner' | 'no_application' | 'not_running' | 'not_approved' | 'daily_cap_reached' | 'dry_run' | 'intent_already_recorded' | 'no_submit_intent' | 'not_dry_run';
      application: ApplicationRecord | null;
    };

/** How an attempt ended, as the activity reports it. */
export interface ApplicationOutcome {
  state: Exclude<ApplicationState, 'running'>;
  confirmation?: string | null;
  questions?: ApplicationQuestion[];
  reason?: string | null;
}

/** The stored facts decideApplyAdmission needs, except custody (files, read by the launcher's inspectCustody). */
export interface StoredAdmissionInputs {
  approved: boolean;
  availability: 'open' | 'closed' | 'unknown';
  availabilityCheckedAt: number | null;
  submitIntent: 'none' | 'recorded' | 'needs_verification';
  submissionsToday: number;
}

/**
 * JSON with object keys sorted at every level, so the same artifact always hashes the same however
 * it was written (key order is not content). Arrays keep their order (it is content).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** sha256 (hex) of an artifact's canonical JSON. */
export function artifactSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The local calendar day around `now`, as [start, end) epoch ms (the daily cap resets at local midnight). */
export function localDayBounds(now: number): { start: number; end: number } {
  const d = new Date(now);
  return { start: new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() };
}
