import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ApplicationState } from '@jobctrl/pipeline/contracts';
import {
  artifactSha256,
  localDayBounds,
  type ApplicationOutcome,
  type ApplicationQuestion,
  type ApplicationRecord,
  type ApplicationScreenshot,
  type Approval,
  type ApprovedArtifacts,
  type ApproveResult,
  type ClaimResult,
  type OwnedWrite,
  type SavedAnswers,
  type StoredAdmissionInputs,
  type SubmitIntentState,
  type VerificationVerdict,
  type VerifyResult,
} from './application.model';

interface ArtifactRow {
  job_key: string;
  tailored_resume: string | null;
  cover_letter: string | null;
  cover_review: string | null;
  answers_json: string | null;
  approved_at: number | null;
  resume_sha256: string | null;
  cover_letter_sha256: string | null;
  answers_sha256: string | null;
}

interface ApplicationRow {
  tenant: string;
  job_key: string;
  workflow_id: string;
  owner_run_id: string;
  state: ApplicationState;
  dry_run: number;
  submit_intent: SubmitIntentState;
  intent_at: number | null;
  submitted_at: number | null;
  confirmation: string | null;
  questions_json: string;
  screenshots_json: string;
  reason: string | null;
  started_at: number;
  updated_at: number;
}

type ApplyEvent = 'ApplyClaimAcquired' | 'ApplyRunStarted' | 'ApplySubmitIntentRecorded' | 'ApplyOutcomeRecorded' | 'ApplySettled';

const ARTIFACT_SELECT = `SELECT j.job_key, j.tailored_resume, j.cover_letter, j.cover_review, ans.answers_json,
  ap.approved_at, ap.resume_sha256, ap.cover_letter_sha256, ap.answers_sha256
  FROM jobs j LEFT JOIN job_answers ans ON ans.job_key = j.job_key LEFT JOIN job_approvals ap ON ap.job_key = j.job_key`;

/**
 * The only SQL of applying: answers, approvals, and the canonical application record with its claim
 * events. Every write is one immediate (writer-reserved) transaction, and every write an attempt
 * makes after its claim compares the attempt's run against the canonical owner inside that
 * transaction: a stale attempt (a newer claim took the job) changes nothing and is told so. That
 * comparison, not the workflow's bookkeeping, is what keeps a lost attempt's late result, intent or
 * screenshots from landing on a newer attempt's record.
 */
export class ApplicationRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Approves the job's current artifacts: the tailored resume, the cover letter that passed its
   * review, and the saved answers (none saved hashes as `{}`). Refuses, naming what is missing,
   * when the job, its resume or a passed letter is missing.
   */
  async approve(jobKey: string, now = Date.now()): Promise<ApproveResult> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<ApproveResult> => {
        const row = (await artifactRows(m, [jobKey]))[0];
        if (!row) return { approved: false, missing: ['job'] };
        const current = currentHashes(row);
        if (!current.resumeSha256 || !current.coverLetterSha256) {
          return { approved: false, missing: [...(current.resumeSha256 ? [] : ['tailored_resume' as const]), ...(current.coverLetterSha256 ? [] : ['cover_letter' as const])] };
        }
        const approval: Approval = { approvedAt: now, resumeSha256: current.resumeSha256, coverLetterSha256: current.coverLetterSha256, answersSha256: current.answersSha256 };
        await m.query(
          `INSERT INTO job_approvals (job_key, approved_at, resume_sha256, cover_letter_sha256, answers_sha256) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (job_key) DO UPDATE SET approved_at = excluded.approved_at, resume_sha256 = excluded.resume_sha256,
             cover_letter_sha256 = excluded.cover_letter_sha256, answers_sha256 = excluded.answers_sha256`,
          [jobKey, now, approval.resumeSha256, approval.coverLetterSha256, approval.answersSha256],
        );
        return { approved: true, approval };
      }, 'immediate'),
    );
  }

  /** Withdraws the job's approval; false when there was none. */
  async revoke(jobKey: string): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(`DELETE FROM job_approvals WHERE job_key = ?`, [jobKey]);
        return (await changes(m)) > 0;
      }, 'immediate'),
    );
  }

  /** The job's approval while it still matches the current artifacts; null when none, or voided by a later change. */
  async approvalOf(jobKey: string): Promise<Approval | null> {
    return (await this.approvalsOf([jobKey])).get(jobKey) ?? null;
  }

  /** approvalOf for a page of jobs, in one read. */
  async approvalsOf(jobKeys: string[]): Promise<Map<string, Approval | null>> {
    const rows = jobKeys.length ? await this.uow.run(({ manager }) => artifactRows(manager, jobKeys)) : [];
    return new Map(rows.map((r) => [r.job_key, validApproval(r)]));
  }

  /**
   * The artifacts to fill in, read in one go with the approval they match: null when the job has no
   * valid approval. The apply attempt fills exactly these, so what it submits is what was approved.
   */
  async approvedArtifacts(jobKey: string): Promise<ApprovedArtifacts | null> {
    const row = (await this.uow.run(({ manager }) => artifactRows(manager, [jobKey])))[0];
    const approval = row ? validApproval(row) : null;
    if (!row || !approval) return null;
    return { approval, tailoredResume: parse(row.tailored_resume), coverLetter: parse(row.cover_letter), answers: answersOf(row) };
  }

  /** Replaces the job's saved answers (which voids an approval of different answers); false when there is no such job. */
  async saveAnswers(jobKey: string, answers: SavedAnswers, now = Date.now()): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        if (!(await jobExists(m, jobKey))) return false;
        await m.query(
          `INSERT INTO job_answers (job_key, answers_json, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (job_key) DO UPDATE SET answers_json = excluded.answers_json, updated_at = excluded.updated_at`,
          [jobKey, JSON.stringify(answers), now],
        );
        return true;
      }, 'immediate'),
    );
  }

  /** The job's saved answers (`{}` when none). */
  async answersOf(jobKey: string): Promise<SavedAnswers> {
    const rows: Array<{ answers_json: string }> = await this.uow.run(({ manager }) => manager.query(`SELECT answers_json FROM job_answers WHERE job_key = ?`, [jobKey]));
    return rows[0] ? (JSON.parse(rows[0].answers_json) as SavedAnswers) : {};
  }

  /**
   * A run's claim of a job, under the writer: records ApplyClaimAcquired and makes `runId` the
   * canonical owner (a previous owner's later writes are then refused) and starts a fresh `running`
   * record — unless a submit intent exists: the job may already have been submitted, so no run may
   * own it again (a person resolves needs_verification; a submitted job stays submitted).
   */
  async claim(tenant: string, jobKey: string, runId: string, opts: { workflowId: string; dryRun: boolean }, now = Date.now()): Promise<ClaimResult> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<ClaimResult> => {
        const current = await applicationRow(m, tenant, jobKey);
        if (!(await jobExists(m, jobKey))) return { acquired: false, reason: 'job_gone', application: current };
        if (current && current.submitIntent !== 'none') return { acquired: false, reason: 'submit_intent_recorded', application: current };
        await m.query(
          `INSERT INTO applications (tenant, job_key, workflow_id, owner_run_id, state, dry_run, submit_intent, started_at, updated_at)
           VALUES (?, ?, ?, ?, 'running', ?, 'none', ?, ?)
           ON CONFLICT (tenant, job_key) DO UPDATE SET workflow_id = excluded.workflow_id, owner_run_id = excluded.owner_run_id, state = 'running',
             dry_run = excluded.dry_run, intent_at = NULL, submitted_at = NULL, confirmation = NULL, questions_json = '[]', screenshots_json = '[]',
             reason = NULL, started_at = excluded.started_at, updated_at = excluded.updated_at
           WHERE applications.submit_intent = 'none'`,
          [tenant, jobKey, opts.workflowId, runId, opts.dryRun ? 1 : 0, now, now],
        );
        await recordEvent(m, tenant, jobKey, runId, 'ApplyClaimAcquired', opts.dryRun ? 'dry_run' : null, now);
        return { acquired: true, application: (await applicationRow(m, tenant, jobKey)) as ApplicationRecord, previousOwner: current?.ownerRunId ?? null };
      }, 'immediate'),
    );
  }

  /**
   * Records ApplyRunStarted, only for the canonical owner of a running attempt. A late start of an
   * old run (its claim was superseded) is refused and changes nothing: starting never makes an owner,
   * only a claim does.
   */
  async recordRunStarted(tenant: string, jobKey: string, runId: string, now = Date.now()): Promise<OwnedWrite> {
    return this.ownedWrite(tenant, jobKey, runId, async (m, app) => {
      if (app.state !== 'running') return refuse('not_running', app);
      await recordEvent(m, tenant, jobKey, runId, 'ApplyRunStarted', null, now);
      return null;
    });
  }

  /**
   * The submit-intent checkpoint, written immediately before the final click; the click is
   * authorised only when this is accepted. Under the writer it re-checks that the run still owns a
   * running live attempt, that no intent exists, that the approval still matches the artifacts, and
   * (with `dailyCap`) that the day's recorded intents are below the cap — so two jobs racing for the
   * last slot of the day cannot both click.
   */
  async recordIntent(tenant: string, jobKey: string, runId: string, opts: { dailyCap?: number } = {}, now = Date.now()): Promise<OwnedWrite> {
    return this.ownedWrite(tenant, jobKey, runId, async (m, app) => {
      if (app.state !== 'running') return refuse('not_running', app);
      if (app.dryRun) return refuse('dry_run', app);
      if (app.submitIntent !== 'none') return refuse('intent_already_recorded', app);
      const artifacts = (await artifactRows(m, [jobKey]))[0];
      if (!artifacts || !validApproval(artifacts)) return refuse('not_approved', app);
      if (opts.dailyCap !== undefined && (await countIntents(m, now)) >= opts.dailyCap) return refuse('daily_cap_reached', app);
      await m.query(`UPDATE applications SET submit_intent = 'pending', intent_at = ?, updated_at = ? WHERE tenant = ? AND job_key = ? AND owner_run_id = ?`, [now, now, tenant, jobKey, runId]);
      await recordEvent(m, tenant, jobKey, runId, 'ApplySubmitIntentRecorded', null, now);
      return null;
    });
  }

  /**
   * How the owner's attempt ended. `submitted` needs the intent checkpoint and confirms it. Once an
   * intent is recorded, any other outcome is stored as `needs_verification`: the click may have gone
   * through, so the record must never read as a clean failure that invites another attempt.
   * `dry_run_done` only ends a dry run.
   */
  async recordOutcome(tenant: string, jobKey: string, runId: string, outcome: ApplicationOutcome, now = Date.now()): Promise<OwnedWrite> {
    return this.ownedWrite(tenant, jobKey, runId, async (m, app) => {
      if (app.state !== 'running') return refuse('not_running', app);
      if (outcome.state === 'submitted' && app.submitIntent !== 'pending') return refuse('no_submit_intent', app);
      if (outcome.state === 'dry_run_done' && !app.dryRun) return refuse('not_dry_run', app);
      const submitted = outcome.state === 'submitted';
      const state: ApplicationState = !submitted && app.submitIntent === 'pending' ? 'needs_verification' : outcome.state;
      await m.query(
        `UPDATE applications SET state = ?, submit_intent = ?, submitted_at = ?, confirmation = ?, questions_json = ?, reason = ?, updated_at = ?
         WHERE tenant = ? AND job_key = ? AND owner_run_id = ?`,
        [state, submitted ? 'confirmed' : app.submitIntent, submitted ? now : null, outcome.confirmation ?? null, JSON.stringify(outcome.questions ?? []), outcome.reason ?? null, now, tenant, jobKey, runId],
      );
      await recordEvent(m, tenant, jobKey, runId, 'ApplyOutcomeRecorded', state, now);
      return null;
    });
  }

  /** Adds the owner's screenshots (a name already recorded is replaced), whatever the attempt's state. */
  async recordScreenshots(tenant: string, jobKey: string, runId: string, screenshots: ApplicationScreenshot[], now = Date.now()): Promise<OwnedWrite> {
    return this.ownedWrite(tenant, jobKey, runId, async (m, app) => {
      const names = new Set(screenshots.map((s) => s.name));
      const merged = [...app.screenshots.filter((s) => !names.has(s.name)), ...screenshots];
      await m.query(`UPDATE applications SET screenshots_json = ?, updated_at = ? WHERE tenant = ? AND job_key = ? AND owner_run_id = ?`, [JSON.stringify(merged), now, tenant, jobKey, runId]);
      return null;
    });
  }

  /**
   * Ends a running attempt its activity could not end (it was lost, or its workflow cancelled):
   * `needs_verification` when a submit intent was recorded, else `failed`. With `runId`, only while
   * that run is still the owner. An attempt that already has its outcome keeps it (accepted: false,
   * not_running, with the record).
   */
  async settle(tenant: string, jobKey: string, opts: { reason: string; runId?: string }, now = Date.now()): Promise<OwnedWrite> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<OwnedWrite> => {
        const app = await applicationRow(m, tenant, jobKey);
        if (!app) return refuse('no_application', null);
        if (opts.runId !== undefined && app.ownerRunId !== opts.runId) return refuse('not_owner', app);
        if (app.state !== 'running') return refuse('not_running', app);
        const state: ApplicationState = app.submitIntent === 'pending' ? 'needs_verification' : 'failed';
        await m.query(`UPDATE applications SET state = ?, reason = ?, updated_at = ? WHERE tenant = ? AND job_key = ? AND owner_run_id = ?`, [state, opts.reason, now, tenant, jobKey, app.ownerRunId]);
        await recordEvent(m, tenant, jobKey, app.ownerRunId, 'ApplySettled', state, now);
        return { accepted: true, application: (await applicationRow(m, tenant, jobKey)) as ApplicationRecord };
      }, 'immediate'),
    );
  }

  /**
   * A person's verdict on a `needs_verification` application, after checking with the board: the
   * click went through (`submitted`: the intent is confirmed, the submission counts as of the click)
   * or it did not (`failed`, the intent cleared so an apply can be admitted again — and no longer
   * counted in the day's submissions). Only a `needs_verification` record changes, under the writer,
   * so a verdict cannot overwrite a newer attempt or a board-confirmed submission. The verdict is
   * recorded as the owner run's outcome event with a `verified:` detail.
   */
  async verify(tenant: string, jobKey: string, verdict: VerificationVerdict, now = Date.now()): Promise<VerifyResult> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<VerifyResult> => {
        const app = await applicationRow(m, tenant, jobKey);
        if (!app) return { accepted: false, reason: 'no_application', application: null };
        if (app.state !== 'needs_verification') return { accepted: false, reason: 'not_awaiting_verification', application: app };
        if (verdict.submitted) {
          await m.query(
            `UPDATE applications SET state = 'submitted', submit_intent = 'confirmed', submitted_at = COALESCE(intent_at, ?), confirmation = ?, reason = ?, updated_at = ?
             WHERE tenant = ? AND job_key = ? AND state = 'needs_verification'`,
            [now, verdict.confirmation ?? null, 'verified by a person: submitted', now, tenant, jobKey],
          );
        } else {
          await m.query(
            `UPDATE applications SET state = 'failed', submit_intent = 'none', reason = ?, updated_at = ?
             WHERE tenant = ? AND job_key = ? AND state = 'needs_verification'`,
            [`verified by a person: not submitted (was: ${app.reason ?? 'no reason recorded'})`, now, tenant, jobKey],
          );
        }
        await recordEvent(m, tenant, jobKey, app.ownerRunId, 'ApplyOutcomeRecorded', verdict.submitted ? 'verified:submitted' : 'verified:not_submitted', now);
        return { accepted: true, application: (await applicationRow(m, tenant, jobKey)) as ApplicationRecord };
      }, 'immediate'),
    );
  }

  async applicationOf(tenant: string, jobKey: string): Promise<ApplicationRecord | null> {
    return this.uow.run(({ manager }) => applicationRow(manager, tenant, jobKey));
  }

  /** applicationOf for a page of jobs, in one read. */
  async applicationsOf(tenant: string, jobKeys: string[]): Promise<Map<string, ApplicationRecord>> {
    if (jobKeys.length === 0) return new Map();
    const rows: ApplicationRow[] = await this.uow.run(({ manager }) =>
      manager.query(`SELECT * FROM applications WHERE tenant = ? AND job_key IN (${jobKeys.map(() => '?').join(', ')})`, [tenant, ...jobKeys]),
    );
    return new Map(rows.map((r) => [r.job_key, toRecord(r)]));
  }

  /** The claim events of a job, oldest first (canonical ownership history; tests and diagnosis). */
  async claimEvents(tenant: string, jobKey: string): Promise<Array<{ runId: string; event: ApplyEvent; detail: string | null; at: number }>> {
    const rows: Array<{ run_id: string; event: ApplyEvent; detail: string | null; at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT run_id, event, detail, at FROM apply_claim_events WHERE tenant = ? AND job_key = ? ORDER BY id`, [tenant, jobKey]),
    );
    return rows.map((r) => ({ runId: r.run_id, event: r.event, detail: r.detail, at: r.at }));
  }

  /**
   * Submissions of the local day around `now`: recorded submit intents, confirmed or not (an
   * unconfirmed one may have been submitted, so it counts against the cap).
   */
  async submissionsToday(now = Date.now()): Promise<number> {
    return this.uow.run(({ manager }) => countIntents(manager, now));
  }

  /**
   * The jobs a run's apply stage may apply to: a valid approval (matching the current artifacts) and
   * no submit intent (never submitted, nothing ambiguous), oldest approval first; with
   * `discoveryRunId`, only that run's jobs. Each with its availability, so the caller can tell
   * which need a posting check first.
   */
  async selectApproved(tenant: string, opts: { discoveryRunId?: string } = {}): Promise<Array<{ jobKey: string; availability: string | null; availabilityCheckedAt: number | null }>> {
    const rows: Array<ArtifactRow & { av_state: string | null; av_checked_at: number | null }> = await this.uow.run(({ manager }) =>
      manager.query(
        `SELECT j.job_key, j.tailored_resume, j.cover_letter, j.cover_review, ans.answers_json,
           ap.approved_at, ap.resume_sha256, ap.cover_letter_sha256, ap.answers_sha256, av.state AS av_state, av.checked_at AS av_checked_at
         FROM job_approvals ap JOIN jobs j ON j.job_key = ap.job_key
         LEFT JOIN job_answers ans ON ans.job_key = j.job_key
         LEFT JOIN job_availability av ON av.job_key = j.job_key
         LEFT JOIN applications a ON a.tenant = ? AND a.job_key = j.job_key
         WHERE (a.job_key IS NULL OR a.submit_intent = 'none')
           ${opts.discoveryRunId ? 'AND j.job_key IN (SELECT job_key FROM discovery_run_jobs WHERE run_id = ?)' : ''}
         ORDER BY ap.approved_at, j.job_key`,
        opts.discoveryRunId ? [tenant, opts.discoveryRunId] : [tenant],
      ),
    );
    return rows.filter((r) => validApproval(r) !== null).map((r) => ({ jobKey: r.job_key, availability: r.av_state, availabilityCheckedAt: r.av_checked_at }));
  }

  /** The stored inputs of decideApplyAdmission for a job (custody is the caller's), or null when there is no such job. */
  async admissionInputs(tenant: string, jobKey: string, now = Date.now()): Promise<StoredAdmissionInputs | null> {
    return this.uow.run(async ({ manager }) => {
      const artifacts = (await artifactRows(manager, [jobKey]))[0];
      if (!artifacts) return null;
      const availability: Array<{ state: string; checked_at: number }> = await manager.query(`SELECT state, checked_at FROM job_availability WHERE job_key = ?`, [jobKey]);
      const app = await applicationRow(manager, tenant, jobKey);
      const av = availability[0];
      return {
        approved: validApproval(artifacts) !== null,
        // blocked (the board refused to answer) says nothing about openness: unknown.
        availability: av?.state === 'open' || av?.state === 'closed' ? av.state : 'unknown',
        availabilityCheckedAt: av ? av.checked_at : null,
        submitIntent: !app || app.submitIntent === 'none' ? 'none' : app.submitIntent === 'confirmed' ? 'recorded' : 'needs_verification',
        submissionsToday: await countIntents(manager, now),
      };
    });
  }

  /** One writer transaction that runs `write` only while `runId` is the canonical owner; `write` returns a refusal or null (done). */
  private ownedWrite(
    tenant: string,
    jobKey: string,
    runId: string,
    write: (m: EntityManager, app: ApplicationRecord) => Promise<Extract<OwnedWrite, { accepted: false }> | null>,
  ): Promise<OwnedWrite> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<OwnedWrite> => {
        const app = await applicationRow(m, tenant, jobKey);
        if (!app) return refuse('no_application', null);
        if (app.ownerRunId !== runId) return refuse('not_owner', app);
        const refused = await write(m, app);
        return refused ?? { accepted: true, application: (await applicationRow(m, tenant, jobKey)) as ApplicationRecord };
      }, 'immediate'),
    );
  }
}

function refuse(reason: Extract<OwnedWrite, { accepted: false }>['reason'], application: ApplicationRecord | null): Extract<OwnedWrite, { accepted: false }> {
  return { accepted: false, reason, application };
}

function artifactRows(m: EntityManager, jobKeys: string[]): Promise<ArtifactRow[]> {
  return m.query(`${ARTIFACT_SELECT} WHERE j.job_key IN (${jobKeys.map(() => '?').join(', ')})`, jobKeys);
}

/**
 * The hashes of what the job holds now. Only a letter that passed its review counts: a new draft
 * clears the review (PreparationRepository.recordCoverDraft), so a draft under review is missing.
 */
function currentHashes(r: ArtifactRow): { resumeSha256: string | null; coverLetterSha256: string | null; answersSha256: string } {
  const review = parse(r.cover_review) as { accepted?: unknown } | null;
  return {
    resumeSha256: r.tailored_resume ? artifactSha256(parse(r.tailored_resume)) : null,
    coverLetterSha256: r.cover_letter && review?.accepted === true ? artifactSha256(parse(r.cover_letter)) : null,
    answersSha256: artifactSha256(answersOf(r)),
  };
}

/** The stored approval while all three hashes still match the current artifacts, else null. */
function validApproval(r: ArtifactRow): Approval | null {
  if (r.approved_at === null || !r.resume_sha256 || !r.cover_letter_sha256 || !r.answers_sha256) return null;
  const current = currentHashes(r);
  if (current.resumeSha256 !== r.resume_sha256 || current.coverLetterSha256 !== r.cover_letter_sha256 || current.answersSha256 !== r.answers_sha256) return null;
  return { approvedAt: r.approved_at, resumeSha256: r.resume_sha256, coverLetterSha256: r.cover_letter_sha256, answersSha256: r.answers_sha256 };
}

function answersOf(r: Pick<ArtifactRow, 'answers_json'>): SavedAnswers {
  return r.answers_json ? (JSON.parse(r.answers_json) as SavedAnswers) : {};
}

function parse(text: string | null): unknown {
  return text ? JSON.parse(text) : null;
}

async function jobExists(m: EntityManager, jobKey: string): Promise<boolean> {
  return ((await m.query(`SELECT 1 FROM jobs WHERE job_key = ?`, [jobKey])) as unknown[]).length > 0;
}

async function applicationRow(m: EntityManager, tenant: string, jobKey: string): Promise<ApplicationRecord | null> {
  const rows: ApplicationRow[] = await m.query(`SELECT * FROM applications WHERE tenant = ? AND job_key = ?`, [tenant, jobKey]);
  return rows[0] ? toRecord(rows[0]) : null;
}

function toRecord(r: ApplicationRow): ApplicationRecord {
  return {
    tenant: r.tenant,
    jobKey: r.job_key,
    workflowId: r.workflow_id,
    ownerRunId: r.owner_run_id,
    state: r.state,
    dryRun: r.dry_run === 1,
    submitIntent: r.submit_intent,
    intentAt: r.intent_at,
    submittedAt: r.submitted_at,
    confirmation: r.confirmation,
    questions: JSON.parse(r.questions_json) as ApplicationQuestion[],
    screenshots: JSON.parse(r.screenshots_json) as ApplicationScreenshot[],
    reason: r.reason,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
  };
}

async function recordEvent(m: EntityManager, tenant: string, jobKey: string, runId: string, event: ApplyEvent, detail: string | null, now: number): Promise<void> {
  await m.query(`INSERT INTO apply_claim_events (tenant, job_key, run_id, event, detail, at) VALUES (?, ?, ?, ?, ?, ?)`, [tenant, jobKey, runId, event, detail, now]);
}

async function countIntents(m: EntityManager, now: number): Promise<number> {
  const { start, end } = localDayBounds(now);
  const rows: Array<{ n: number }> = await m.query(`SELECT COUNT(*) AS n FROM applications WHERE intent_at >= ? AND intent_at < ? AND submit_intent <> 'none'`, [start, end]);
  return rows[0].n;
}

async function changes(m: EntityManager): Promise<number> {
  return ((await m.query(`SELECT changes() AS n`)) as Array<{ n: number }>)[0].n;
}
