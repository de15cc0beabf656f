import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APPLY_TENANT, APPLY_WORKFLOW_TYPE, applyWorkflowId, type ApplyInput } from '@jobctrl/pipeline/contracts';
import { APPLY_DENIAL_REASONS, ApplicationRepository, AVAILABILITY_DENIALS, decideApplyAdmission, type ApplyDenialCode, type SavedAnswers } from '@jobctrl/apply-launcher/application';
import { inspectCustody, jobCustodyDir } from '@jobctrl/apply-launcher/custody';
import { PostingCheckRepository } from '@jobctrl/posting-checks';
import { badRequest, tooManyRequests, type FieldError } from '@jobctrl/shared/api-errors';
import { JOBCTRL_CONFIG, LiveSettingsReader, type ResolvedConfig } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import type { SaveAnswersDto, StartApplyDto, VerifyApplicationDto } from './apply.dto';
import { applicationView, approvalView, type ApplicationView, type ApprovalView } from './apply.view';
import { workflowRunning } from '../workflow-running';

/** Bounds of PUT /v1/jobs/:jobKey/answers: a form has tens of questions, not thousands. */
export const ANSWER_LIMITS = { entries: 200, keyChars: 500, valueChars: 10_000 } as const;

const SCREENSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.(png|jpe?g)$/;

/**
 * Approval, answers, apply and screenshots (issue #12). Apply is single-flight per job: a running
 * ApplyWorkflow or a submitted application answers with the same workflow id and starts nothing;
 * everything else goes through decideApplyAdmission (each refusal a 409 naming its code), and a
 * posting without a fresh `open` check is checked first by the workflow, charged here to the
 * foreground share.
 */
@Injectable()
export class ApplyService {
  private readonly applications: ApplicationRepository;
  private readonly jobs: JobRepository;
  private readonly checks: PostingCheckRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
    private readonly live: LiveSettingsReader,
    @Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig,
  ) {
    this.applications = new ApplicationRepository(uow);
    this.jobs = new JobRepository(uow);
    this.checks = new PostingCheckRepository(uow);
  }

  /** POST /v1/jobs/:jobKey/approval: approves the current artifacts; 409 naming what is missing. */
  async approve(jobKey: string): Promise<ApprovalView> {
    const result = await this.applications.approve(jobKey);
    if (result.approved) return approvalView(result.approval) as ApprovalView;
    if (result.missing.includes('job')) throw new NotFoundException(`no job ${jobKey}`);
    const names = { tailored_resume: 'a tailored resume', cover_letter: 'a cover letter that passed its review' } as const;
    throw new ConflictException({
      statusCode: 409,
      error: 'Conflict',
      code: 'artifacts_missing',
      message: `job ${jobKey} cannot be approved yet: it has no ${result.missing.map((m) => names[m as keyof typeof names]).join(' and no ')}`,
      missing: result.missing,
    });
  }

  /** DELETE /v1/jobs/:jobKey/approval */
  async revoke(jobKey: string): Promise<void> {
    await this.requireJob(jobKey);
    await this.applications.revoke(jobKey);
  }

  /** PUT /v1/jobs/:jobKey/answers: replaces the saved answers (an approval of other answers no longer holds). */
  async saveAnswers(jobKey: string, dto: SaveAnswersDto): Promise<{ answers: SavedAnswers; approval: ApprovalView | null }> {
    const answers = validAnswers(dto.answers);
    if (!(await this.applications.saveAnswers(jobKey, answers))) throw new NotFoundException(`no job ${jobKey}`);
    return { answers, approval: approvalView(await this.applications.approvalOf(jobKey)) };
  }

  /** POST /v1/jobs/:jobKey/apply → 202 {workflowId}. */
  async apply(jobKey: string, dto: StartApplyDto, now = Date.now()): Promise<{ workflowId: string }> {
    await this.requireJob(jobKey);
    const workflowId = applyWorkflowId(APPLY_TENANT, jobKey);
    const client = await this.temporal.client();
    // Single flight: an apply already running is the answer, whatever was asked this time.
    if (await workflowRunning(client, workflowId)) return { workflowId };
    // Submitted is final: never a second run, and nothing to refuse either — the caller's goal is met.
    const application = await this.applications.applicationOf(APPLY_TENANT, jobKey);
    if (application?.state === 'submitted') return { workflowId: application.workflowId };

    const dryRun = dto.dryRun === true;
    const stored = await this.applications.admissionInputs(APPLY_TENANT, jobKey, now);
    if (!stored) throw new NotFoundException(`no job ${jobKey}`);
    const custody = inspectCustody(this.config.appDir, APPLY_TENANT, jobKey);
    const decision = decideApplyAdmission({ ...stored, custody: custody.state, dailyCap: this.live.settings().apply_daily_cap, dryRun, now });
    const blockers = decision.admit ? [] : decision.blockers;
    // A closed, unknown or stale verdict is not final: the workflow checks the posting first, and the
    // attempt's own admission then needs it open. Everything else refuses now.
    const checkFirst = blockers.some((b) => AVAILABILITY_DENIALS.includes(b));
    const refusals = blockers.filter((b) => !AVAILABILITY_DENIALS.includes(b));
    if (refusals.length > 0) throw refusal(refusals, custody.reason);

    if (checkFirst) {
      const charge = await this.checks.chargeForeground(now);
      if (!charge.acquired) {
        throw tooManyRequests("the posting must be checked before applying and the hour's posting-check budget is spent", (charge.retryAfterMs ?? 60_000) / 1000);
      }
    }
    const input: ApplyInput = { tenant: APPLY_TENANT, jobKey, dryRun, ...(checkFirst ? { checkAvailabilityFirst: true } : {}) };
    // USE_EXISTING: an apply started since the look above is this one. ALLOW_DUPLICATE (not
    // REJECT_DUPLICATE): a dry run, a needs_user_input or a failed attempt must be followed by a new
    // run under the same id. A second run after a submission is impossible because the submit
    // intent is recorded before the click: a submitted row answers above, a pending intent refuses
    // in admission, and the attempt's own claim refuses under the writer once an intent exists.
    await client.workflow.start(APPLY_WORKFLOW_TYPE, {
      taskQueue: this.temporal.taskQueue,
      workflowId,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
    return { workflowId };
  }

  /**
   * POST /v1/jobs/:jobKey/application/verification: a person's verdict on a `needs_verification`
   * application (the attempt died or lost the board's answer after the click, so only someone who
   * looked at the board can say). `submitted: true` makes it `submitted`; `false` makes it `failed`
   * and lets a new apply be admitted. 409 `application_not_awaiting_verification` otherwise.
   */
  async verify(jobKey: string, dto: VerifyApplicationDto): Promise<ApplicationView> {
    await this.requireJob(jobKey);
    if (!dto.submitted && dto.confirmation !== undefined) {
      throw badRequest([{ field: 'confirmation', value: dto.confirmation, rule: 'only with submitted: true' }]);
    }
    const result = await this.applications.verify(APPLY_TENANT, jobKey, { submitted: dto.submitted, ...(dto.confirmation !== undefined ? { confirmation: dto.confirmation } : {}) });
    if (result.accepted) return applicationView(result.application) as ApplicationView;
    if (!result.application) throw new NotFoundException(`job ${jobKey} has no application`);
    throw new ConflictException({
      statusCode: 409,
      error: 'Conflict',
      code: 'application_not_awaiting_verification',
      message: `job ${jobKey}'s application is ${result.application.state}: only a needs_verification application takes a verdict`,
      state: result.application.state,
    });
  }

  /**
   * GET /v1/jobs/:jobKey/screenshots/:name: only a name the job's application recorded, and only a
   * file inside the job's own apply directory (symlinks resolved), so no request reads anything else.
   */
  async screenshot(jobKey: string, name: string): Promise<{ path: string; contentType: string }> {
    const notFound = new NotFoundException(`no screenshot ${name} for job ${jobKey}`);
    if (!SCREENSHOT_NAME.test(name)) throw notFound;
    const application = await this.applications.applicationOf(APPLY_TENANT, jobKey);
    const recorded = application?.screenshots.find((s) => s.name === name);
    if (!recorded) throw notFound;
    let file: string;
    let root: string;
    try {
      root = fs.realpathSync(jobCustodyDir(this.config.appDir, APPLY_TENANT, jobKey));
      file = fs.realpathSync(recorded.path);
    } catch {
      throw notFound;
    }
    if (!file.startsWith(root + path.sep) || !fs.statSync(file).isFile()) throw notFound;
    return { path: file, contentType: name.endsWith('.png') ? 'image/png' : 'image/jpeg' };
  }

  private async requireJob(jobKey: string): Promise<void> {
    if (!(await this.jobs.get(jobKey))) throw new NotFoundException(`no job ${jobKey}`);
  }
}

/** A 409 naming the most safety-relevant refusal as `code`, and every one in `blockers`. */
function refusal(blockers: ApplyDenialCode[], custodyReason: string | undefined): ConflictException {
  const code = blockers[0];
  const detail = code.startsWith('custody_') && custodyReason ? ` (${custodyReason})` : '';
  return new ConflictException({ statusCode: 409, error: 'Conflict', code, message: `${APPLY_DENIAL_REASONS[code]}${detail}`, blockers });
}

/** Answers are strings under non-empty keys, within ANSWER_LIMITS; a 400 names each bad entry as `answers.<key>`. */
function validAnswers(raw: Record<string, unknown>): SavedAnswers {
  const errors: FieldError[] = [];
  const entries = Object.entries(raw);
  if (entries.length > ANSWER_LIMITS.entries) errors.push({ field: 'answers', value: `${entries.length} entries`, rule: `at most ${ANSWER_LIMITS.entries} answers` });
  const answers: Array<[string, string]> = [];
  for (const [key, value] of entries) {
    const field = `answers.${key}`;
    if (key.trim() === '' || key.length > ANSWER_LIMITS.keyChars) errors.push({ field, value: key, rule: `the question key must be 1 to ${ANSWER_LIMITS.keyChars} characters` });
    else if (typeof value !== 'string') errors.push({ field, value, rule: 'must be a string' });
    else if (value.length > ANSWER_LIMITS.valueChars) errors.push({ field, value: `${value.slice(0, 40)}…`, rule: `at most ${ANSWER_LIMITS.valueChars} characters` });
    else answers.push([key, value]);
  }
  if (errors.length > 0) throw badRequest(errors);
  // fromEntries defines each key as its own property (an assignment to "__proto__" would be lost).
  return Object.fromEntries(answers);
}
