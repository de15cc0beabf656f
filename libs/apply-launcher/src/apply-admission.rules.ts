/**
 * Whether an approved job may be handed to the apply launcher now.
 *
 * Applying submits a real application in the user's name and cannot be undone, so admission is
 * fail-closed: every input must be exactly the one value that allows it, and anything else —
 * including values this code does not know, such as a new enum member read from an older or newer
 * database row — refuses.
 *
 *  - Mandatory preconditions: the user approved the application (approval is also what
 *    authorises the final submit click — the launcher never submits without it), and the posting
 *    is known to be open. "unknown" availability is not good enough: the posting must be
 *    re-checked first.
 *  - Per-job blocks: a recorded submit intent means this job may already have been submitted,
 *    and an ambiguous one (needs_verification: the run died between clicking submit and
 *    recording the result) must be resolved by a human or a confirmation check before anything
 *    else happens — retrying could submit twice. Browser custody still held by another run, or a
 *    known cleanup failure from a previous run, means this job's browser profile/session is not
 *    in a safe state.
 *
 * Every refusal blocks only that job (`scope: 'job'`): the launcher keeps serving other jobs, and
 * one stuck job must never stop the queue.
 *
 *  - Freshness and volume: the open verdict must be younger than 24 hours (a posting closes
 *    without telling anyone; submitting to a dead posting wastes an application and can look like
 *    spam), and a live apply must stay below the daily cap of submissions. A dry run submits
 *    nothing, so only it is exempt from the cap.
 *
 * When several reasons apply, the one reported as `code` is the most safety-relevant
 * (duplicate-submission risk first, then custody, then approval, then availability, then the daily
 * cap); `blockers` lists all of them for the UI.
 */
export type PostingAvailability = 'open' | 'closed' | 'unknown';
export type SubmitIntent = 'none' | 'recorded' | 'needs_verification';
export type BrowserCustody = 'free' | 'held' | 'cleanup_failed';

export interface ApplyAdmissionInput {
  approved: boolean;
  availability: PostingAvailability;
  /** When the availability verdict was recorded (epoch ms); null before any check. */
  availabilityCheckedAt: number | null;
  submitIntent: SubmitIntent;
  custody: BrowserCustody;
  /** Submissions (recorded submit intents) of the local day so far. */
  submissionsToday: number;
  /** apply_daily_cap. */
  dailyCap: number;
  /** Only an explicit `true` exempts the attempt from the daily cap. */
  dryRun: boolean;
  /** The decision's clock (epoch ms). */
  now: number;
}

/** An `open` verdict older than this is stale: the posting is checked again first. */
export const AVAILABILITY_FRESH_MS = 24 * 3_600_000;

export type ApplyDenialCode =
  | 'submit_already_recorded'
  | 'submit_needs_verification'
  | 'custody_cleanup_failed'
  | 'custody_held'
  | 'not_approved'
  | 'posting_closed'
  | 'availability_unknown'
  | 'availability_stale'
  | 'daily_cap_reached';

/** The refusals a fresh posting check can lift (the API runs one first instead of refusing). */
export const AVAILABILITY_DENIALS: readonly ApplyDenialCode[] = Object.freeze(['posting_closed', 'availability_unknown', 'availability_stale']);

export type ApplyAdmissionDecision =
  | { admit: true }
  | {
      admit: false;
      code: ApplyDenialCode;
      reason: string;
      /** Every reason that currently blocks the job, most safety-relevant first. */
      blockers: ApplyDenialCode[];
      scope: 'job';
    };

export const APPLY_DENIAL_REASONS: Readonly<Record<ApplyDenialCode, string>> = {
  submit_already_recorded: 'A final submit is already recorded for this job; applying again could submit twice.',
  submit_needs_verification:
    'A previous run may have submitted this application; verify whether it was submitted before trying again.',
  custody_cleanup_failed: "Cleanup of this job's previous browser session failed; it needs operator attention.",
  custody_held: "This job's browser session is still held by another run.",
  not_approved: 'The application has not been approved, so the final submit is not authorised.',
  posting_closed: 'The posting is closed.',
  availability_unknown: 'The posting has not been confirmed open; re-check it first.',
  availability_stale: 'The posting was last confirmed open more than 24 hours ago; re-check it first.',
  daily_cap_reached: "Today's applications reached apply_daily_cap; applying resumes tomorrow (or raise the cap).",
};

export function decideApplyAdmission(input: ApplyAdmissionInput): ApplyAdmissionDecision {
  const blockers: ApplyDenialCode[] = [];

  if (input.submitIntent !== 'none') {
    // Anything but an explicit "recorded" is treated as ambiguous, which is the safer reading.
    blockers.push(input.submitIntent === 'recorded' ? 'submit_already_recorded' : 'submit_needs_verification');
  }
  if (input.custody !== 'free') {
    // An unrecognised custody state is treated like a failed cleanup: someone has to look at it.
    blockers.push(input.custody === 'held' ? 'custody_held' : 'custody_cleanup_failed');
  }
  // `=== true` so that a truthy non-boolean (e.g. "false" read from a text column) never approves.
  if (input.approved !== true) blockers.push('not_approved');
  if (input.availability !== 'open') {
    blockers.push(input.availability === 'closed' ? 'posting_closed' : 'availability_unknown');
  } else if (!isFresh(input.availabilityCheckedAt, input.now)) {
    blockers.push('availability_stale');
  }
  if (input.dryRun !== true && !belowCap(input.submissionsToday, input.dailyCap)) blockers.push('daily_cap_reached');

  if (blockers.length === 0) return { admit: true };
  // The checks above run in priority order, so the first blocker is the one to report.
  return { admit: false, code: blockers[0], reason: APPLY_DENIAL_REASONS[blockers[0]], blockers, scope: 'job' };
}

/** Fresh: a finite check time no older than 24 h. A missing or non-numeric time or clock is stale. */
function isFresh(checkedAt: unknown, now: unknown): boolean {
  if (typeof checkedAt !== 'number' || typeof now !== 'number' || !Number.isFinite(checkedAt) || !Number.isFinite(now)) return false;
  return now - checkedAt <= AVAILABILITY_FRESH_MS;
}

/** Below the cap only with whole, non-negative counts: a count that is not a number never admits. */
function belowCap(submissions: unknown, cap: unknown): boolean {
  if (!Number.isInteger(submissions) || !Number.isInteger(cap) || (submissions as number) < 0) return false;
  return (submissions as number) < (cap as number);
}

