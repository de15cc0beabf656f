import type { AvailabilitySweepResult, PostingCheckResult } from '@jobctrl/pipeline/contracts';
import type { AvailabilityVerdict, PostingTarget } from './availability.model';
import { CHECK_ACTIVITY_TIMEOUT_MS, CHECK_WORK_BUDGET_MS, JOB_LEASE_MS } from './posting-check.limits';
import type { PostingCheckRepository, PostingClaim, ResolvePostingApi, SweepSelection } from './posting-check.repository';

/** Runs the liveness ladder for one target; aborting `signal` stops its network and browser work. */
export type InspectPosting = (target: PostingTarget, signal: AbortSignal) => Promise<AvailabilityVerdict>;

export interface PostingCheckRunnerDeps {
  repository: PostingCheckRepository;
  inspect: InspectPosting;
  /** The board API of a job's source (discovery's postingApiOf, passed in by the worker). */
  postingApi: ResolvePostingApi;
  now?: () => number;
  /** How often a running check extends its lease (default: a fifth of the lease). */
  renewEveryMs?: number;
  leaseMs?: number;
}

/** Margin kept below the activity's start-to-close limit for recording and releasing. */
const WIND_DOWN_MS = 2 * 60_000;

/**
 * Claim → inspect → record, for one job or a sweep of jobs. SQLite is touched only to claim and to
 * record (each one short writer transaction); every wait and every request happens in between, with
 * the job leased. The lease is renewed while the check runs, so a slow but live check keeps its
 * job; a crashed one loses it after five minutes and its late verdict is fenced out.
 */
export class PostingCheckRunner {
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly renewEveryMs: number;

  constructor(private readonly deps: PostingCheckRunnerDeps) {
    this.now = deps.now ?? Date.now;
    this.leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
    this.renewEveryMs = deps.renewEveryMs ?? Math.floor(this.leaseMs / 5);
  }

  /** A foreground check of one job (its acquisition already charged). */
  async checkJob(jobKey: string, owner: string, signal: AbortSignal): Promise<PostingCheckResult> {
    if (signal.aborted) return refused(jobKey, 'cancelled');
    const claim = await this.deps.repository.claimJob(jobKey, owner, this.leaseMs, this.now());
    if (claim === 'busy') return { jobKey, outcome: 'busy', state: null, reason: 'another check holds this job' };
    if (claim === 'job_gone') return { jobKey, outcome: 'job_gone', state: null, reason: null };
    return this.checkClaimed(claim, signal);
  }

  /**
   * A sweep: claims due jobs one at a time (each claim reads the sweep's capacity first and charges
   * one acquisition) until the sweep's share, its 25 jobs, the due jobs or its 20-minute work budget
   * run out, or it is cancelled. The work budget runs from the sweep's admission, so a retried
   * activity does not get a fresh one.
   *
   * It also stops claiming when `othersWaiting` says other activities wait for a slot of the
   * workers it runs on (`yielded`): a sweep is background work that may hold its slot for up to 20
   * minutes, and on a worker with few slots a discovery run's short steps (its progress, a job's
   * classification) would otherwise wait behind it — with two slots, the run's live enrichment and
   * the sweep held both and the run stood still until the sweep ended (npm run faults). The due jobs
   * keep their turn for the next sweep, a minute later at the earliest; a job already claimed is
   * finished first (at most one check's 20 s).
   */
  async sweep(
    input: { sweepId: string; admittedAt: number; owner: string; selection: () => SweepSelection; othersWaiting?: () => Promise<boolean> },
    signal: AbortSignal,
  ): Promise<AvailabilitySweepResult> {
    const result: AvailabilitySweepResult = { sweepId: input.sweepId, claimed: 0, recorded: 0, rejected: 0, refused: 0, stoppedBy: 'no_due_jobs' };
    // Hard stop for the check in flight when the work budget ends: well inside the activity limit.
    const hardStop = AbortSignal.any([signal, AbortSignal.timeout(Math.max(0, input.admittedAt + CHECK_ACTIVITY_TIMEOUT_MS - WIND_DOWN_MS - this.now()))]);
    try {
      for (;;) {
        if (signal.aborted) {
          result.stoppedBy = 'cancelled';
          break;
        }
        if (this.now() >= input.admittedAt + CHECK_WORK_BUDGET_MS) {
          result.stoppedBy = 'work_budget';
          break;
        }
        if (await input.othersWaiting?.()) {
          result.stoppedBy = 'yielded';
          break;
        }
        const claim = await this.deps.repository.claimNextForSweep(input.sweepId, input.owner, input.selection(), this.leaseMs, this.now());
        if ('stop' in claim) {
          result.stoppedBy = claim.stop;
          break;
        }
        result.claimed += 1;
        const outcome = await this.checkClaimed(claim, hardStop);
        if (outcome.outcome === 'recorded') result.recorded += 1;
        else if (outcome.outcome === 'refused') result.refused += 1;
        else result.rejected += 1;
      }
    } finally {
      await this.deps.repository.finishSweep(input.sweepId, this.now());
    }
    return result;
  }

  private async checkClaimed(claim: PostingClaim, signal: AbortSignal): Promise<PostingCheckResult> {
    const renewal = setInterval(() => void this.deps.repository.renewLease(claim, this.leaseMs, this.now()).catch(() => undefined), this.renewEveryMs);
    let verdict: AvailabilityVerdict;
    try {
      const target = await this.deps.repository.targetFor(claim, this.deps.postingApi);
      verdict = await this.deps.inspect(target, signal);
    } catch (err) {
      // Our own failure (SQLite, a bug), a cancellation or a refusal of our own making (the ladder
      // rethrows those, marked local) says nothing about the posting: give the job back untouched.
      clearInterval(renewal);
      await this.deps.repository.release(claim);
      if (signal.aborted) return refused(claim.jobKey, 'cancelled');
      if (isLocalRefusal(err)) return refused(claim.jobKey, err.code ?? 'local_refusal');
      throw err;
    }
    clearInterval(renewal);
    // Cancelled mid-check: whatever the ladder concluded from a cut-short check is not evidence.
    if (signal.aborted) {
      await this.deps.repository.release(claim);
      return refused(claim.jobKey, 'cancelled');
    }
    const recorded = await this.deps.repository.record(claim, verdict, this.now());
    return recorded.accepted
      ? { jobKey: claim.jobKey, outcome: 'recorded', state: recorded.state, reason: verdict.reason }
      : { jobKey: claim.jobKey, outcome: recorded.reason === 'job_gone' ? 'job_gone' : 'rejected', state: null, reason: recorded.reason };
  }
}

function isLocalRefusal(err: unknown): err is { local: true; code?: string } {
  return typeof err === 'object' && err !== null && (err as { local?: unknown }).local === true;
}

function refused(jobKey: string, reason: string): PostingCheckResult {
  return { jobKey, outcome: 'refused', state: null, reason };
}
