import { realpathSync } from 'node:fs';
import type { EntityManager, QueryRunner } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { PREPARATION_CANCELLED_STATUS, PREPARATION_PENDING_STAGES, type JobStage, type PrepStatus } from './job.model';

export interface PreparationTarget {
  jobKey: string;
  idempotencyKey: string;
}

/**
 * Where a job stood when an activity attempt started: its stage and stage version. The attempt
 * passes it back with its write, which applies only while both are unchanged.
 */
export interface StageFence {
  stage: JobStage;
  version: number;
}

/** What a fenced write did: whether it applied, and the job's stage after it (null: no such job). */
export interface StageWrite {
  applied: boolean;
  stage: JobStage | null;
}

/**
 * The preparation stage's writes to a job: score, tailored resume, cover letter and its review
 * pair, and the pause state. Every write is guarded by the stage it expects and, for an activity,
 * fenced on the stage and stage version its attempt read when it started (`fenceOf`): Temporal
 * retries an attempt that timed out while the first one may still be running, and when that one
 * finishes late its write must be a no-op — it must not move a job that went on meanwhile back, nor
 * clear the artifacts written since. Every applied write bumps the stage version. Without a fence
 * (test setup, tools) a write is guarded by the stage rules only.
 */
export class PreparationRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Read at the start of an activity attempt, BEFORE the job itself: a write that happens between
   * the two reads then fails the fence instead of slipping under a decision made on older data.
   * Stage activities read both at once instead (JobRepository.getFenced: one row, one unit of work).
   */
  async fenceOf(jobKey: string): Promise<StageFence | undefined> {
    const rows: Array<{ stage: JobStage; stage_version: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT stage, stage_version FROM jobs WHERE job_key = ?`, [jobKey]),
    );
    return rows[0] ? { stage: rows[0].stage, version: rows[0].stage_version } : undefined;
  }

  /**
   * Stores a score; the job goes on to tailoring at or above the threshold, stops at scored below it.
   * A re-score (profile changed) of a scored or prepared job applies too, when fenced on what the
   * re-scoring attempt read.
   */
  async recordScore(
    jobKey: string,
    score: { score: number; detail: unknown; profileRevision: number; threshold: number },
    fence?: StageFence,
    now = Date.now(),
  ): Promise<StageWrite> {
    const next: JobStage = score.score >= score.threshold ? 'pending_tailor' : 'scored';
    return this.fencedWrite(
      jobKey,
      fence,
      `score = ?, score_detail = ?, scored_at = ?, score_profile_revision = ?, stage = ?,
       tailored_resume = CASE WHEN ? = 'scored' THEN tailored_resume ELSE NULL END, prep_status = NULL`,
      [score.score, JSON.stringify(score.detail), now, score.profileRevision, next, next],
      `stage <> 'pending_enrichment'`,
      [],
      now,
      next,
    );
  }

  async recordTailored(jobKey: string, resume: unknown, fence?: StageFence, now = Date.now()): Promise<JobStage | null> {
    return this.transition(jobKey, fence, 'pending_tailor', 'pending_cover', `tailored_resume = ?, tailored_at = ?, cover_attempts = 0`, [JSON.stringify(resume), now], now);
  }

  /**
   * A new draft replaces the previous one and clears its review: a review belongs to one draft.
   * Returns the draft count after the write (unchanged when the fence refused it).
   */
  async recordCoverDraft(jobKey: string, letter: unknown, fence?: StageFence, now = Date.now()): Promise<number> {
    return this.write(jobKey, async (m) => {
      const applied = await this.update(m, jobKey, fence, `cover_letter = ?, cover_review = NULL, cover_attempts = cover_attempts + 1`, [JSON.stringify(letter)], `stage = 'pending_cover'`, [], now);
      const rows: Array<{ cover_attempts: number }> = await m.query(`SELECT cover_attempts FROM jobs WHERE job_key = ?`, [jobKey]);
      return { applied, result: rows[0]?.cover_attempts ?? 0 };
    });
  }

  /**
   * Stores the review pair's decision for the current draft. Only an accepted pair moves the job to
   * prepared; a rejection on the final attempt ends at cover_rejected, earlier ones stay pending_cover
   * for a regeneration. Fenced on what the review read, a decision about a superseded draft is dropped.
   */
  async recordCoverDecision(
    jobKey: string,
    decision: { accepted: boolean } & Record<string, unknown>,
    finalAttempt: boolean,
    fence?: StageFence,
    now = Date.now(),
  ): Promise<JobStage | null> {
    const next: JobStage = decision.accepted ? 'prepared' : finalAttempt ? 'cover_rejected' : 'pending_cover';
    return this.transition(
      jobKey,
      fence,
      'pending_cover',
      next,
      `cover_review = ?, prepared_at = CASE WHEN ? THEN ? ELSE prepared_at END`,
      [JSON.stringify(decision), decision.accepted ? 1 : 0, now],
      now,
    );
  }

  /**
   * A re-prepare (POST /v1/jobs/:jobKey/prepare): the job goes back to pending_score so its next
   * preparation scores, tailors and writes its letter again; its artifacts stay until those stages
   * replace them (a new score below the threshold keeps none: recordScore clears the resume). The
   * stage version moves, so a late write of an earlier attempt is fenced out. Not while the job
   * still waits for enrichment (there is nothing to score yet): then nothing is written.
   */
  async requeueForScoring(jobKey: string, now = Date.now()): Promise<StageWrite> {
    return this.fencedWrite(jobKey, undefined, `stage = 'pending_score', prep_status = NULL`, [], `stage <> 'pending_enrichment'`, [], now, 'pending_score');
  }

  async setPrepStatus(jobKey: string, status: PrepStatus, now = Date.now()): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`UPDATE jobs SET prep_status = ?, updated_at = ? WHERE job_key = ?`, [status, now, jobKey]), 'immediate'),
    );
  }

  /**
   * Jobs a preparation batch should start: those in the given pending stages, plus (with
   * `staleBelowRevision`) jobs scored against an older profile. With `runId`, only that discovery
   * run's members; with `idleSinceMs`, only jobs untouched since then (the idle recovery batch).
   */
  async selectForPreparation(opts: {
    stages: readonly JobStage[];
    runId?: string;
    staleBelowRevision?: number;
    idleSinceMs?: number;
    /** Leave out jobs whose preparation was cancelled with their run (the idle recovery). */
    skipCancelled?: boolean;
    limit?: number;
  }): Promise<PreparationTarget[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const either: string[] = [];
    if (opts.stages.length > 0) {
      either.push(`j.stage IN (${opts.stages.map(() => '?').join(', ')})`);
      params.push(...opts.stages);
    }
    if (opts.staleBelowRevision !== undefined) {
      // Two terms, each on jobs_score_revision, so SQLite reads the three sets from their indexes
      // (MULTI-INDEX OR) instead of every job: the idle recovery asks this of an idle worker holding
      // thousands of jobs that are all done. NULL (never scored) is its own term, as no range holds it.
      either.push(`(j.score_profile_revision < ? AND j.stage <> 'pending_enrichment')`, `(j.score_profile_revision IS NULL AND j.stage <> 'pending_enrichment')`);
      params.push(opts.staleBelowRevision);
    }
    if (either.length === 0) return [];
    where.push(`(${either.join(' OR ')})`);
    if (opts.runId) {
      where.push('j.job_key IN (SELECT job_key FROM discovery_run_jobs WHERE run_id = ?)');
      params.push(opts.runId);
    }
    if (opts.idleSinceMs !== undefined) {
      where.push('j.updated_at <= ?');
      params.push(opts.idleSinceMs);
    }
    if (opts.skipCancelled) where.push(`(j.prep_status IS NULL OR j.prep_status <> '${PREPARATION_CANCELLED_STATUS}')`);
    const rows: Array<{ job_key: string; idempotency_key: string }> = await this.uow.run(({ manager }) =>
      // `+j.job_key`: the key order is not to be taken from the primary key index — with a small LIMIT
      // SQLite would otherwise walk every job in key order (a full scan when nothing matches, which is
      // the idle recovery's usual answer) instead of reading the matches from the indexes and sorting them.
      manager.query(`SELECT j.job_key, j.idempotency_key FROM jobs j WHERE ${where.join(' AND ')} ORDER BY +j.job_key LIMIT ?`, [...params, opts.limit ?? -1]),
    );
    return rows.map((r) => ({ jobKey: r.job_key, idempotencyKey: r.idempotency_key }));
  }

  /**
   * The idle recovery's jobs: left in a pending preparation stage, or scored against an older
   * profile, and untouched since `idleSinceMs` — not those whose preparation a cancelled run stopped:
   * cancelling a run stops its spending, and recovery is for work a crash left behind.
   */
  async selectStuck(opts: { revision: number; idleSinceMs: number; stages?: readonly JobStage[]; limit?: number }): Promise<PreparationTarget[]> {
    return this.selectForPreparation({
      stages: opts.stages ?? PREPARATION_PENDING_STAGES,
      staleBelowRevision: opts.revision,
      idleSinceMs: opts.idleSinceMs,
      skipCancelled: true,
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
    });
  }

  /** The current stage of each job that still exists, in one query. */
  async stagesOf(jobKeys: readonly string[]): Promise<Map<string, JobStage>> {
    if (jobKeys.length === 0) return new Map();
    const rows: Array<{ job_key: string; stage: JobStage }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT job_key, stage FROM jobs WHERE job_key IN (${jobKeys.map(() => '?').join(', ')})`, [...jobKeys]),
    );
    return new Map(rows.map((r) => [r.job_key, r.stage]));
  }

  /**
   * For a cover review leaf on its own connection: null when that connection's main database is the
   * process database and the job's draft count is still `attempt`, else why not. The database is read
   * first, so a foreign file is never asked about the job.
   */
  async staleCoverDraft(jobKey: string, attempt: number, processDatabasePath: string): Promise<string | null> {
    return this.uow.run(async ({ manager }) => {
      const [main] = (await manager.query(`PRAGMA database_list`)) as Array<{ file: string }>;
      if (!sameFile(main?.file ?? '', processDatabasePath)) return `review database ${main?.file} is not the process database ${processDatabasePath}`;
      const rows: Array<{ cover_attempts: number }> = await manager.query(`SELECT cover_attempts FROM jobs WHERE job_key = ?`, [jobKey]);
      return rows[0]?.cover_attempts === attempt ? null : `draft ${attempt} of ${jobKey} is no longer current`;
    });
  }

  /** A discovery run's members, each with the idempotency key of its prep-{key} execution. */
  async targetsOfDiscoveryRun(runId: string): Promise<PreparationTarget[]> {
    const rows: Array<{ job_key: string; idempotency_key: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT j.job_key, j.idempotency_key FROM discovery_run_jobs r JOIN jobs j ON j.job_key = r.job_key WHERE r.run_id = ? ORDER BY j.job_key`, [runId]),
    );
    return rows.map((r) => ({ jobKey: r.job_key, idempotencyKey: r.idempotency_key }));
  }

  /**
   * Marks the jobs a cancelled run covered and left waiting (one transaction): the given jobs, a
   * discovery run's members, a batch's frozen selection. Only a job still in a pending stage is
   * marked; one that reached a final stage keeps it.
   */
  async markCancelled(scope: { jobKeys?: readonly string[]; discoveryRunId?: string; batchId?: string }, now = Date.now()): Promise<void> {
    const pending = PREPARATION_PENDING_STAGES.map(() => '?').join(', ');
    const mark = `UPDATE jobs SET prep_status = '${PREPARATION_CANCELLED_STATUS}', updated_at = ? WHERE stage IN (${pending}) AND job_key IN`;
    const jobKeys = scope.jobKeys ?? [];
    await this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        // In slices, so a large run stays under SQLite's bound on a statement's parameters.
        for (let i = 0; i < jobKeys.length; i += 500) {
          const slice = jobKeys.slice(i, i + 500);
          await m.query(`${mark} (${slice.map(() => '?').join(', ')})`, [now, ...PREPARATION_PENDING_STAGES, ...slice]);
        }
        if (scope.discoveryRunId) await m.query(`${mark} (SELECT job_key FROM discovery_run_jobs WHERE run_id = ?)`, [now, ...PREPARATION_PENDING_STAGES, scope.discoveryRunId]);
        if (scope.batchId) await m.query(`${mark} (SELECT job_key FROM preparation_batch_targets WHERE batch_id = ?)`, [now, ...PREPARATION_PENDING_STAGES, scope.batchId]);
      }, 'immediate'),
    );
  }

  /** Jobs paused at the spend ceiling. */
  async selectPaused(): Promise<PreparationTarget[]> {
    const rows: Array<{ job_key: string; idempotency_key: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT job_key, idempotency_key FROM jobs WHERE prep_status = 'spend_ceiling_reached' ORDER BY job_key`),
    );
    return rows.map((r) => ({ jobKey: r.job_key, idempotencyKey: r.idempotency_key }));
  }

  private async transition(jobKey: string, fence: StageFence | undefined, from: JobStage, to: JobStage, set: string, params: unknown[], now: number): Promise<JobStage | null> {
    const { stage } = await this.fencedWrite(jobKey, fence, `${set}, stage = ?, prep_status = NULL`, [...params, to], `stage = ?`, [from], now, to);
    return stage;
  }

  /**
   * One guarded write in its own transaction, reporting whether it applied and where the job stands:
   * `to`, the stage the write sets, when it applied (asked again only when it did not). Every
   * statement here runs while this process's writer turn is held, so the fewer the better.
   */
  private async fencedWrite(jobKey: string, fence: StageFence | undefined, set: string, params: unknown[], guard: string, guardParams: unknown[], now: number, to: JobStage): Promise<StageWrite> {
    return this.write<StageWrite>(jobKey, async (m) => {
      if (await this.update(m, jobKey, fence, set, params, guard, guardParams, now)) return { applied: true, result: { applied: true, stage: to } };
      const rows: Array<{ stage: JobStage }> = await m.query(`SELECT stage FROM jobs WHERE job_key = ?`, [jobKey]);
      return { applied: false, result: { applied: false, stage: rows[0]?.stage ?? null } };
    });
  }

  /** A preparation write: one immediate transaction in its own unit of work, then `afterWrite` on that unit. */
  private async write<R>(jobKey: string, body: (m: EntityManager) => Promise<{ applied: boolean; result: R }>): Promise<R> {
    return this.uow.run(async ({ manager, transaction }) => {
      const { applied, result } = await transaction(body, 'immediate');
      await this.afterWrite(manager, jobKey, applied);
      return result;
    });
  }

  /**
   * Runs on the write's own connection once its transaction committed, outside the writer turn
   * (preparationAttempt reads the job back here). Nothing by default.
   */
  protected async afterWrite(_manager: EntityManager, _jobKey: string, _applied: boolean): Promise<void> {
    // The standalone stage activities read afresh at their next start.
  }

  /** The UPDATE every preparation write goes through: its guard, the attempt's fence, the version bump. */
  private async update(
    m: EntityManager,
    jobKey: string,
    fence: StageFence | undefined,
    set: string,
    params: unknown[],
    guard: string,
    guardParams: unknown[],
    now: number,
  ): Promise<boolean> {
    const fenceSql = fence ? ` AND stage = ? AND stage_version = ?` : '';
    const fenceParams = fence ? [fence.stage, fence.version] : [];
    // The structured result carries the statement's own change count, so no `SELECT changes()`
    // round trip to a libuv thread follows it.
    const { affected } = (await queryRunnerOf(m).query(
      `UPDATE jobs SET ${set}, stage_version = stage_version + 1, updated_at = ? WHERE job_key = ? AND ${guard}${fenceSql}`,
      [...params, now, jobKey, ...guardParams, ...fenceParams],
      true,
    )) as { affected?: number };
    return (affected ?? 0) > 0;
  }
}

/** The unit's own query runner, which every manager a unit of work hands out is bound to. */
function queryRunnerOf(m: EntityManager): QueryRunner {
  if (!m.queryRunner) throw new Error('a preparation write needs the manager of a unit of work');
  return m.queryRunner;
}

/** Two paths name the same file once links are resolved (a path that does not resolve stands for itself). */
function sameFile(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return a !== '' && real(a) === real(b);
}
