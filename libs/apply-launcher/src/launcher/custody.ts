import * as os from 'node:os';
import * as path from 'node:path';
import {
  CLEANUP_FAILED_FILE,
  CUSTODY_ENV,
  RELEASE_FILE,
  listAttempts,
  writeDurableOnce,
  type AttemptFiles,
  type AttemptIdentity,
  type BirthIntent,
  type CleanupFailedRecord,
  type LifetimeRecord,
  type ReleaseRecord,
} from './custody.files';
import { bootId, sameProcessAlive, type OwnedSelector } from './proc.inventory';
import { stopOwnedProcesses, type CleanupTimings } from './session.cleanup';

export type CustodyState = 'free' | 'held' | 'cleanup_failed';

export interface CustodyView {
  /** The shape decideApplyAdmission's `custody` input takes. */
  state: CustodyState;
  /** The run that holds the job (held / cleanup_failed). */
  runId?: string;
  attempt?: number;
  attemptDir?: string;
  /**
   * held: whether the process that wrote the birth intent is still running on this machine (same
   * boot, same pid generation). `false` is what owner-crash recovery is for.
   */
  ownerAlive?: boolean;
  reason?: string;
}

const unreleased = (a: AttemptFiles): boolean => a.birth !== null && a.release === null;

function ownerAliveOf(birth: BirthIntent): boolean {
  return birth.hostname === os.hostname() && birth.bootId === bootId() && sameProcessAlive(birth.ownerPid, birth.ownerStartTime);
}

/**
 * The browser custody of one job, read from its attempt directories. Any birth intent without a
 * verified release holds the job; a recorded cleanup failure (or files that cannot be read, which
 * nobody can vouch for) blocks it for a person. A directory with no birth intent never reached the
 * spawn, so it holds nothing. Other jobs are never looked at.
 */
export function inspectCustody(appDir: string, tenant: string, jobKey: string): CustodyView {
  const open = listAttempts(appDir, tenant, jobKey).filter(unreleased);
  const failed = open.find((a) => a.failed !== null || a.birth === 'unreadable' || a.release === 'unreadable' || a.lifetime === 'unreadable');
  if (failed) {
    const birth = failed.birth === 'unreadable' ? null : failed.birth;
    const record = failed.failed && failed.failed !== 'unreadable' ? failed.failed : null;
    return {
      state: 'cleanup_failed',
      runId: birth?.runId,
      attempt: birth?.attempt,
      attemptDir: failed.dir,
      reason: record ? `cleanup of ${path.basename(failed.dir)} was not verified: ${record.reason}` : `custody files of ${path.basename(failed.dir)} are unreadable`,
    };
  }
  const held = open[open.length - 1];
  if (!held) return { state: 'free' };
  const birth = held.birth as BirthIntent;
  const ownerAlive = ownerAliveOf(birth);
  return {
    state: 'held',
    runId: birth.runId,
    attempt: birth.attempt,
    attemptDir: held.dir,
    ownerAlive,
    reason: ownerAlive
      ? `attempt ${path.basename(held.dir)} is running (owner ${birth.owner}, pid ${birth.ownerPid})`
      : `attempt ${path.basename(held.dir)} was never released and its owner (${birth.owner}, pid ${birth.ownerPid}) is gone: it needs recovery`,
  };
}

export type RecoveryRefusal =
  | 'nothing_to_recover'
  | 'owner_alive'
  | 'cleanup_failed'
  | 'birth_intent_mismatch'
  | 'lifetime_missing'
  | 'lifetime_replaced'
  | 'session_invalid'
  | 'not_canonical_owner';

export type RecoveryResult =
  | { recovered: true; attemptDirs: string[] }
  | { recovered: false; refusal: RecoveryRefusal; reason: string; attemptDir?: string }
  | { recovered: false; refusal: 'cleanup_unverified'; reason: string; attemptDir: string; survivors: number[] };

export interface RecoverCustodyOptions extends CleanupTimings {
  /**
   * Asked after the files were checked and before anything is signalled: whether `runId` is still
   * the canonical owner of tenant/job (the caller re-checks its ApplyClaimAcquired record under the
   * writer). `false` refuses.
   */
  confirmOwner?: () => Promise<boolean>;
}

/**
 * Owner-crash recovery of the attempts `expected.runId` left unreleased for tenant/job: only that
 * run's own files are used. It refuses — custody stays as it is — when the owner still runs, when a
 * cleanup failure is recorded, when the lifetime metadata is missing (the owner died between birth
 * intent and spawn registration, or the file was lost: nobody knows which processes were started)
 * or was replaced (its identity or nonce differs from the birth intent), or when its session is not
 * a real one (session 0 or not led by the recorded pid). Otherwise it ends the recorded session and
 * marked processes, proves the exit like a launcher's own cleanup, and writes a release that says
 * tracked cleanup and full-tree verification were not established; an unproven exit records a
 * cleanup failure instead, which blocks only this job.
 */
export async function recoverCustody(
  appDir: string,
  expected: Pick<AttemptIdentity, 'tenant' | 'jobKey' | 'runId'>,
  options: RecoverCustodyOptions = {},
): Promise<RecoveryResult> {
  const attempts = listAttempts(appDir, expected.tenant, expected.jobKey).filter(unreleased);
  const mine = attempts.filter((a) => a.birth !== 'unreadable' && a.birth?.runId === expected.runId);
  if (mine.length === 0) return { recovered: false, refusal: 'nothing_to_recover', reason: `run ${expected.runId} holds no unreleased attempt of this job` };

  const plans: Array<{ dir: string; birth: BirthIntent; selector: OwnedSelector }> = [];
  for (const attempt of mine) {
    const birth = attempt.birth as BirthIntent;
    const refuse = (refusal: RecoveryRefusal, reason: string): RecoveryResult => ({ recovered: false, refusal, reason, attemptDir: attempt.dir });
    if (birth.tenant !== expected.tenant || birth.jobKey !== expected.jobKey) return refuse('birth_intent_mismatch', 'the birth intent names another tenant or job');
    if (attempt.failed !== null) return refuse('cleanup_failed', 'a cleanup failure is recorded for this attempt: it needs a person');
    if (ownerAliveOf(birth)) return refuse('owner_alive', `the owner (pid ${birth.ownerPid}) is still running`);
    const lifetime = attempt.lifetime;
    if (lifetime === null) return refuse('lifetime_missing', 'no lifetime metadata: which processes were started is unknown');
    if (lifetime === 'unreadable') return refuse('lifetime_replaced', 'the lifetime metadata is unreadable');
    if (!sameIdentity(birth, lifetime)) return refuse('lifetime_replaced', 'the lifetime metadata does not match the birth intent');
    if (!(lifetime.sessionId > 0) || lifetime.sessionId !== lifetime.pid || !(lifetime.startTime > 0)) {
      return refuse('session_invalid', `recorded session ${lifetime.sessionId} of pid ${lifetime.pid} is not a session this launcher creates`);
    }
    plans.push({
      dir: attempt.dir,
      birth,
      selector: {
        sessionId: lifetime.sessionId,
        leaderStartTime: lifetime.startTime,
        envMarker: `${CUSTODY_ENV}=${birth.nonce}`,
        otherBoot: lifetime.bootId !== bootId(),
      },
    });
  }
  if (options.confirmOwner && !(await options.confirmOwner())) {
    return { recovered: false, refusal: 'not_canonical_owner', reason: `run ${expected.runId} is not the canonical owner of this job` };
  }
  for (const plan of plans) {
    const result = await stopOwnedProcesses(plan.selector, options);
    if (!result.verified) {
      writeDurableOnce(path.join(plan.dir, CLEANUP_FAILED_FILE), {
        nonce: plan.birth.nonce,
        failedAt: new Date().toISOString(),
        reason: `recovery: ${result.reason}`,
        survivors: result.survivors,
      } satisfies CleanupFailedRecord);
      return { recovered: false, refusal: 'cleanup_unverified', reason: result.reason, attemptDir: plan.dir, survivors: result.survivors };
    }
    writeDurableOnce(path.join(plan.dir, RELEASE_FILE), {
      nonce: plan.birth.nonce,
      releasedAt: new Date().toISOString(),
      how: 'recovered',
      trackedCleanup: false,
      fullTreeVerified: false,
    } satisfies ReleaseRecord);
  }
  return { recovered: true, attemptDirs: plans.map((p) => p.dir) };
}

function sameIdentity(birth: BirthIntent, lifetime: LifetimeRecord): boolean {
  return (
    lifetime.nonce === birth.nonce &&
    lifetime.tenant === birth.tenant &&
    lifetime.jobKey === birth.jobKey &&
    lifetime.runId === birth.runId &&
    lifetime.attempt === birth.attempt &&
    lifetime.bootId === birth.bootId
  );
}
