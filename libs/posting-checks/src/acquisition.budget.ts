/**
 * The saved-posting-check budget of one workspace.
 *
 * Spec: "A workspace admits at most one sweep per minute, 25 jobs per sweep and 100 posting
 * acquisitions per hour; sweeps may use 80, preserving 20 for foreground work. Each acquisition
 * is charged once, independently of its request/resource count. Sweeps read capacity before
 * claiming each job and stop when their share is exhausted."
 *
 * How that maps onto this class:
 *  - `admitSweep()` enforces the sweep interval (a sliding minute since the last admitted sweep)
 *    and refuses a sweep that could not claim anything anyway.
 *  - `tryAcquire()` is called once per acquisition — one posting checked — before any request is
 *    made, whatever number of requests and resources the check later uses (those are bounded by
 *    posting-check.limits.ts instead). It charges exactly one unit or refuses with a reason.
 *  - The hourly limit is a sliding one-hour window over charge timestamps, so capacity returns
 *    gradually rather than all at once on the hour.
 *  - The sweep share caps the window's TOTAL usage for sweep claims (a sweep may claim only while
 *    fewer than 80 acquisitions are in the window), which is what keeps 20 for foreground work:
 *    foreground checks made by the user may use all 100.
 *
 * The policy is pure: time comes from the injected clock and nothing is random, so it runs the
 * same in a Temporal workflow, an activity or a test, and `toJSON()`/`fromJSON()` let the caller
 * persist it between sweeps. It is not safe for concurrent mutation from several processes; the
 * owner must serialise access (e.g. one workflow per workspace, or a row lock around load/save).
 */

export type AcquisitionKind = 'sweep' | 'foreground';

export interface AcquisitionBudgetLimits {
  /** Minimum time between admitted sweeps. */
  sweepIntervalMs: number;
  /** Jobs one sweep may claim. */
  jobsPerSweep: number;
  /** Acquisitions (sweep + foreground) per sliding window. */
  acquisitionsPerWindow: number;
  /** Window usage up to which sweeps may still claim; the rest is reserved for foreground work. */
  sweepShare: number;
  /** Length of the sliding window. */
  windowMs: number;
}

export const DEFAULT_ACQUISITION_BUDGET_LIMITS: Readonly<AcquisitionBudgetLimits> = Object.freeze({
  sweepIntervalMs: 60_000,
  jobsPerSweep: 25,
  acquisitionsPerWindow: 100,
  sweepShare: 80,
  windowMs: 60 * 60_000,
});

export interface AcquisitionBudgetOptions {
  /** Milliseconds since the epoch (or any monotonic origin, as long as persisted state uses the same). */
  now: () => number;
  limits?: Partial<AcquisitionBudgetLimits>;
}

export type SweepAdmission =
  | { admitted: true; sweepId: string }
  | { admitted: false; reason: 'sweep_interval' | 'sweep_share_exhausted'; retryAfterMs: number };

export type AcquireDenial =
  | 'sweep_id_required'
  | 'unknown_sweep'
  | 'sweep_job_limit'
  | 'sweep_share_exhausted'
  | 'hourly_limit_exhausted';

export type AcquireResult =
  | { acquired: true; remaining: BudgetRemaining }
  | {
      acquired: false;
      reason: AcquireDenial;
      /** When capacity frees up; absent when waiting cannot help (the sweep must end instead). */
      retryAfterMs?: number;
    };

export interface BudgetRemaining {
  /** Acquisitions left in the window for foreground work (the whole limit). */
  foreground: number;
  /** Acquisitions left in the window for sweeps (their share minus all usage). */
  sweep: number;
  /** Acquisitions charged in the current window. */
  used: number;
  /** Jobs the given sweep may still claim (only when a live sweep id was passed). */
  sweepJobs?: number;
  /** Time until another sweep may be admitted (0 = now). */
  nextSweepInMs: number;
}

/** Persisted form. `version` lets future releases migrate stored budgets. */
export interface AcquisitionBudgetState {
  version: 1;
  charges: Array<{ at: number; kind: AcquisitionKind; sweepId?: string }>;
  lastSweepAt: number | null;
  sweepSeq: number;
  sweeps: Array<{ id: string; admittedAt: number; claimed: number }>;
}

interface Sweep {
  admittedAt: number;
  claimed: number;
}

export class AcquisitionBudget {
  readonly limits: Readonly<AcquisitionBudgetLimits>;
  private readonly now: () => number;
  /** Charge timestamps in ascending order; pruned to the window on every operation. */
  private charges: Array<{ at: number; kind: AcquisitionKind; sweepId?: string }> = [];
  private lastSweepAt: number | null = null;
  private sweepSeq = 0;
  private readonly sweeps = new Map<string, Sweep>();

  constructor(options: AcquisitionBudgetOptions) {
    if (typeof options?.now !== 'function') throw new TypeError('AcquisitionBudget: a now() clock is required');
    this.now = options.now;
    this.limits = Object.freeze(validateLimits({ ...DEFAULT_ACQUISITION_BUDGET_LIMITS, ...options.limits }));
  }

  /** Restores a persisted budget; throws on state that is not a valid version-1 budget. */
  static fromJSON(state: unknown, options: AcquisitionBudgetOptions): AcquisitionBudget {
    const budget = new AcquisitionBudget(options);
    const s = parseState(state);
    budget.charges = [...s.charges].sort((a, b) => a.at - b.at);
    budget.lastSweepAt = s.lastSweepAt;
    budget.sweepSeq = s.sweepSeq;
    for (const sweep of s.sweeps) budget.sweeps.set(sweep.id, { admittedAt: sweep.admittedAt, claimed: sweep.claimed });
    return budget;
  }

  toJSON(): AcquisitionBudgetState {
    this.prune(this.clock());
    return {
      version: 1,
      charges: this.charges.map((c) => ({ ...c })),
      lastSweepAt: this.lastSweepAt,
      sweepSeq: this.sweepSeq,
      sweeps: [...this.sweeps.entries()].map(([id, s]) => ({ id, admittedAt: s.admittedAt, claimed: s.claimed })),
    };
  }

  admitSweep(): SweepAdmission {
    const now = this.clock();
    this.prune(now);
    const wait = this.sweepWait(now);
    if (wait > 0) return { admitted: false, reason: 'sweep_interval', retryAfterMs: wait };
    // A sweep that could not claim a single job would only burn the interval.
    if (this.charges.length >= this.limits.sweepShare) {
      return { admitted: false, reason: 'sweep_share_exhausted', retryAfterMs: this.waitBelow(this.limits.sweepShare, now) };
    }
    this.sweepSeq += 1;
    const sweepId = `sweep-${now.toString(36)}-${this.sweepSeq}`;
    this.sweeps.set(sweepId, { admittedAt: now, claimed: 0 });
    this.lastSweepAt = now;
    return { admitted: true, sweepId };
  }

  /**
   * Charges one acquisition if the budget allows it. Sweeps must pass the id `admitSweep` gave
   * them; the check order (per-sweep limit, then sweep share, then hourly limit) reports the most
   * specific reason the sweep has to stop.
   */
  tryAcquire(kind: AcquisitionKind, sweepId?: string): AcquireResult {
    const now = this.clock();
    this.prune(now);
    const used = this.charges.length;
    let sweep: Sweep | undefined;

    if (kind === 'sweep') {
      if (!sweepId) return { acquired: false, reason: 'sweep_id_required' };
      sweep = this.sweeps.get(sweepId);
      if (!sweep) return { acquired: false, reason: 'unknown_sweep' };
      if (sweep.claimed >= this.limits.jobsPerSweep) return { acquired: false, reason: 'sweep_job_limit' };
      if (used >= this.limits.sweepShare) {
        return { acquired: false, reason: 'sweep_share_exhausted', retryAfterMs: this.waitBelow(this.limits.sweepShare, now) };
      }
    } else if (kind !== 'foreground') {
      throw new TypeError(`AcquisitionBudget: unknown acquisition kind "${String(kind)}"`);
    }
    if (used >= this.limits.acquisitionsPerWindow) {
      return { acquired: false, reason: 'hourly_limit_exhausted', retryAfterMs: this.waitBelow(this.limits.acquisitionsPerWindow, now) };
    }

    this.insertCharge(kind === 'sweep' ? { at: now, kind, sweepId } : { at: now, kind });
    if (sweep) sweep.claimed += 1;
    return { acquired: true, remaining: this.remainingAt(now, kind === 'sweep' ? sweepId : undefined) };
  }

  /** Ends a sweep early; its id stops being accepted. Charges already made stay in the window. */
  finishSweep(sweepId: string): boolean {
    return this.sweeps.delete(sweepId);
  }

  /** Read-only view of the capacity, for sweeps that check before claiming and for the UI. */
  remaining(sweepId?: string): BudgetRemaining {
    const now = this.clock();
    this.prune(now);
    return this.remainingAt(now, sweepId);
  }

  private remainingAt(now: number, sweepId?: string): BudgetRemaining {
    const used = this.charges.length;
    const result: BudgetRemaining = {
      foreground: Math.max(0, this.limits.acquisitionsPerWindow - used),
      sweep: Math.max(0, this.limits.sweepShare - used),
      used,
      nextSweepInMs: this.sweepWait(now),
    };
    const sweep = sweepId === undefined ? undefined : this.sweeps.get(sweepId);
    if (sweep) result.sweepJobs = Math.max(0, this.limits.jobsPerSweep - sweep.claimed);
    return result;
  }

  private sweepWait(now: number): number {
    return this.lastSweepAt === null ? 0 : Math.max(0, this.lastSweepAt + this.limits.sweepIntervalMs - now);
  }

  /** Time until fewer than `threshold` charges remain in the window. */
  private waitBelow(threshold: number, now: number): number {
    const mustExpire = this.charges.length - threshold; // index of the charge whose expiry is enough
    if (mustExpire < 0) return 0;
    return Math.max(1, this.charges[mustExpire].at + this.limits.windowMs - now);
  }

  /**
   * Drops charges and sweeps older than the window. A charge stamped in the future (the clock
   * went backwards) is kept, which errs on the side of spending less.
   */
  private prune(now: number): void {
    const horizon = now - this.limits.windowMs;
    let expired = 0;
    while (expired < this.charges.length && this.charges[expired].at <= horizon) expired++;
    if (expired > 0) this.charges = this.charges.slice(expired);
    // Sweeps last at most the 20-minute work budget; one admitted a window ago is certainly over.
    for (const [id, sweep] of this.sweeps) if (sweep.admittedAt <= horizon) this.sweeps.delete(id);
  }

  private insertCharge(charge: { at: number; kind: AcquisitionKind; sweepId?: string }): void {
    // Usually appended; a clock that stepped backwards needs an ordered insert to keep waitBelow right.
    let i = this.charges.length;
    while (i > 0 && this.charges[i - 1].at > charge.at) i--;
    this.charges.splice(i, 0, charge);
  }

  private clock(): number {
    const now = this.now();
    if (!Number.isFinite(now)) throw new TypeError(`AcquisitionBudget: clock returned ${String(now)}`);
    return now;
  }
}

function validateLimits(limits: AcquisitionBudgetLimits): AcquisitionBudgetLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new RangeError(`AcquisitionBudget: limit ${name} must be a positive integer, got ${String(value)}`);
    }
  }
  if (limits.sweepShare > limits.acquisitionsPerWindow) {
    throw new RangeError('AcquisitionBudget: sweepShare cannot exceed acquisitionsPerWindow');
  }
  return limits;
}

function parseState(state: unknown): AcquisitionBudgetState {
  const fail = (why: string): never => {
    throw new TypeError(`AcquisitionBudget.fromJSON: invalid state (${why})`);
  };
  if (typeof state !== 'object' || state === null) return fail('not an object');
  const s = state as Record<string, unknown>;
  if (s['version'] !== 1) fail(`unsupported version ${String(s['version'])}`);
  const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!Array.isArray(s['charges'])) fail('charges is not an array');
  const charges = (s['charges'] as unknown[]).map((c, i) => {
    const charge = (c ?? {}) as Record<string, unknown>;
    if (!isTime(charge['at'])) fail(`charges[${i}].at`);
    if (charge['kind'] !== 'sweep' && charge['kind'] !== 'foreground') fail(`charges[${i}].kind`);
    if (charge['sweepId'] !== undefined && typeof charge['sweepId'] !== 'string') fail(`charges[${i}].sweepId`);
    const parsed: AcquisitionBudgetState['charges'][number] = { at: charge['at'] as number, kind: charge['kind'] as AcquisitionKind };
    if (typeof charge['sweepId'] === 'string') parsed.sweepId = charge['sweepId'];
    return parsed;
  });
  if (s['lastSweepAt'] !== null && !isTime(s['lastSweepAt'])) fail('lastSweepAt');
  if (!Number.isInteger(s['sweepSeq']) || (s['sweepSeq'] as number) < 0) fail('sweepSeq');
  if (!Array.isArray(s['sweeps'])) fail('sweeps is not an array');
  const sweeps = (s['sweeps'] as unknown[]).map((w, i) => {
    const sweep = (w ?? {}) as Record<string, unknown>;
    if (typeof sweep['id'] !== 'string' || !sweep['id']) fail(`sweeps[${i}].id`);
    if (!isTime(sweep['admittedAt'])) fail(`sweeps[${i}].admittedAt`);
    if (!Number.isInteger(sweep['claimed']) || (sweep['claimed'] as number) < 0) fail(`sweeps[${i}].claimed`);
    return { id: sweep['id'] as string, admittedAt: sweep['admittedAt'] as number, claimed: sweep['claimed'] as number };
  });
  return { version: 1, charges, lastSweepAt: s['lastSweepAt'] as number | null, sweepSeq: s['sweepSeq'] as number, sweeps };
}
