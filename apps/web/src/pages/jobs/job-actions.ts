// Which of a job's actions the UI offers right now. The API decides (409/429/503 are shown as they
// come); these rules only keep a button from inviting a request the API is known to refuse, and say
// why it is off. They follow the API's own checks: the worker must be ready for anything that starts
// a workflow; approval needs the tailored resume and a letter that passed its reviews; applying needs
// an approval and nothing in flight or already submitted (a closed/unknown/stale posting is not a
// reason: the API checks it again first). Re-preparing follows the job's own `actions` flag, which
// the API computes with the same rule its POST /v1/jobs/:jobKey/prepare applies.
import type { Schemas } from '../../api/client';

/** A job of the list (no `actions`: nothing is offered without the API's word) or of the detail. */
type Job = Pick<Schemas['JobView'], 'stage' | 'tailoredResume' | 'coverLetter' | 'approval' | 'application'> & Partial<Pick<Schemas['JobDetailView'], 'actions'>>;
export type WorkerStatus = Schemas['WorkerReadiness']['status'] | 'unknown';

export interface ActionState {
  enabled: boolean;
  /** Why it is off (shown beside the button), null when on. */
  reason: string | null;
}

export interface JobActions {
  reprepare: ActionState;
  checkAvailability: ActionState;
  approve: ActionState;
  revoke: ActionState;
  dryRun: ActionState;
  apply: ActionState;
}

const on: ActionState = { enabled: true, reason: null };
const off = (reason: string): ActionState => ({ enabled: false, reason });

/** `busy`: a request of this page is in flight, so nothing else is sent until it answers. */
export function jobActions(job: Job, worker: WorkerStatus, busy = false): JobActions {
  if (busy) {
    const wait = off('Waiting for the last request to answer.');
    return { reprepare: wait, checkAvailability: wait, approve: wait, revoke: wait, dryRun: wait, apply: wait };
  }
  const workerOff = worker === 'ready' ? null : worker === 'unknown' ? 'The worker’s state is not known yet.' : 'The worker is not ready.';
  const state = job.application?.state ?? null;

  const missing = [job.tailoredResume == null ? 'a tailored resume' : null, job.coverLetter == null || job.stage !== 'prepared' ? 'a cover letter that passed its reviews' : null].filter(
    (m): m is string => m !== null,
  );
  const approve =
    state === 'submitted'
      ? off('Already submitted.')
      : job.approval
        ? off('Approved.')
        : missing.length > 0
          ? off(`Needs ${missing.join(' and ')}.`)
          : on;
  const revoke = state === 'submitted' ? off('Already submitted.') : job.approval ? on : off('Not approved.');

  const applyOff =
    state === 'submitted'
      ? 'Already submitted.'
      : state === 'running'
        ? 'An application is running.'
        : state === 'needs_verification'
          ? 'A previous attempt may have submitted: verify it on the board first.'
          : !job.approval
            ? 'Approve the application first.'
            : workerOff;
  // The flag and its reason are the API's (the same rule its POST applies); without a reason the API
  // could not tell (Temporal unreachable), and the page says so rather than guess.
  const reprepare = !job.actions?.prepare
    ? off(job.actions?.prepareRefusal ? sentence(job.actions.prepareRefusal.message) : 'Unknown right now: the API could not check for a running preparation.')
    : workerOff
      ? off(workerOff)
      : on;
  return {
    reprepare,
    checkAvailability: workerOff ? off(workerOff) : on,
    approve,
    revoke,
    dryRun: applyOff ? off(applyOff) : on,
    apply: applyOff ? off(applyOff) : on,
  };
}

/** An API message as a sentence of the page. */
function sentence(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}`;
}
