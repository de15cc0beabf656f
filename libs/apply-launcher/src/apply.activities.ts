import * as path from 'node:path';
import { Context } from '@temporalio/activity';
import type { Page } from 'playwright-core';
import { AddressGuard } from '@jobctrl/shared/http';
import { APPLY_TENANT, type ApplyActivities, type ApplyInput, type ApplyResult, type ApplyTarget } from '@jobctrl/pipeline/contracts';
import type { JobRepository } from '@jobctrl/shared/jobs';
import type { Profile } from '@jobctrl/shared/profile';
import { AVAILABILITY_FRESH_MS, decideApplyAdmission } from './apply-admission.rules';
import type { ApplicationRecord, ApplicationRepository, ApplicationScreenshot } from './application';
import {
  fillApplicationForm,
  planAnswers,
  questionSummary,
  readApplicationForm,
  renderCoverLetterHtml,
  renderResumeHtml,
  screenshot,
  submitApplicationForm,
  writePdf,
  type ApplicationForm,
  type ResumeDocument,
} from './forms';
import { launchApplyBrowser, unverifiedCleanupsOfThisProcess, type ApplyBrowser } from './launcher/apply-browser.launcher';
import { inspectCustody, recoverCustody } from './launcher/custody';

export interface ApplyActivityDeps {
  applications: ApplicationRepository;
  jobs: Pick<JobRepository, 'get'>;
  profile: () => Promise<Profile>;
  /** app_dir: attempt directories (browser profiles, screenshots, PDFs) live under it. */
  appDir: string;
  /** browser_executable_path. */
  executablePath: string;
  /** The worker's identity: the owner written into each attempt's birth intent. */
  owner: string;
  /** apply_daily_cap, read live. */
  dailyCap: () => number;
  /**
   * Charges one foreground posting check (the posting-checks budget; domain libs cannot import each
   * other, so the worker wires it): false when the hour's share is spent.
   */
  chargeAvailabilityCheck: () => Promise<boolean>;
  /** How long the board may take to confirm a submission (default 60 s). */
  submitTimeoutMs?: number;
  /**
   * The crawler's address rule (allowed_private_hosts): the form's page, every request it makes and
   * the submission are checked and refused ones aborted. Default: no private host allowed.
   */
  addressGuard?: AddressGuard;
  now?: () => number;
  log?: (message: string) => void;
}

/**
 * The applyToJob activity and its control activities. One attempt, in this order, each step able to
 * stop it: owner-crash recovery of a dead attempt's browser → claim (ApplyClaimAcquired: this run
 * becomes the canonical owner) → ApplyRunStarted → admission (approval, a fresh open check, no
 * submit intent, free custody, the daily cap) → a fresh browser with verified custody → the form
 * read and answered only from the profile and saved answers → fill → (dry run: screenshot, stop) →
 * the submit-intent checkpoint under the writer (ownership, approval and cap re-checked) → the one
 * click → confirmed (submitted) or not (needs_verification). The browser is always cleaned up; an
 * unverified cleanup leaves custody `cleanup_failed`, which blocks only this job.
 */
export function createApplyActivities(deps: ApplyActivityDeps): ApplyActivities {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => undefined);
  const guard = deps.addressGuard ?? new AddressGuard();
  return {
    async applyToJob(input: ApplyInput): Promise<ApplyResult> {
      const ctx = Context.current();
      const { workflowId, runId } = ctx.info.workflowExecution ?? { workflowId: ctx.info.activityId, runId: ctx.info.activityId };
      const { tenant, jobKey, dryRun } = input;
      // Spec: "A scoped cleanup failure fences that worker's next claim and preserves its prior
      // files." A browser this worker could not prove gone may still hold resources: this worker
      // claims no job until it restarts (another worker may take the job).
      const fenced = unverifiedCleanupsOfThisProcess();
      if (fenced.length > 0) return failed(jobKey, `worker_fenced: cleanup of ${fenced[0].jobKey} (run ${fenced[0].runId}) is unverified: ${fenced[0].reason}`);
      await recoverDeadOwner(deps, tenant, jobKey, log);

      const claim = await deps.applications.claim(tenant, jobKey, runId, { workflowId, dryRun }, now());
      if (!claim.acquired) {
        // A recorded submit intent: this job may already be submitted — report it, start nothing.
        return claim.application ? resultOf(claim.application) : failed(jobKey, claim.reason);
      }
      const started = await deps.applications.recordRunStarted(tenant, jobKey, runId, now());
      if (!started.accepted) return failed(jobKey, started.reason);

      const stored = await deps.applications.admissionInputs(tenant, jobKey, now());
      if (!stored) return end(deps, tenant, jobKey, runId, { state: 'failed', reason: 'job_gone' });
      const custody = inspectCustody(deps.appDir, tenant, jobKey);
      const decision = decideApplyAdmission({ ...stored, custody: custody.state, dailyCap: deps.dailyCap(), dryRun, now: now() });
      if (!decision.admit) return end(deps, tenant, jobKey, runId, { state: 'failed', reason: decision.code });

      const artifacts = await deps.applications.approvedArtifacts(jobKey);
      const job = await deps.jobs.get(jobKey);
      if (!artifacts || !job) return end(deps, tenant, jobKey, runId, { state: 'failed', reason: artifacts ? 'job_gone' : 'not_approved' });
      const profile = await deps.profile();

      let browser: ApplyBrowser;
      try {
        browser = await launchApplyBrowser({
          appDir: deps.appDir,
          tenant,
          jobKey,
          runId,
          attempt: ctx.info.attempt,
          owner: deps.owner,
          executablePath: deps.executablePath,
          signal: ctx.cancellationSignal,
          addressGuard: guard,
          onRefused: ({ host, port, reason }) => log(`apply ${jobKey}: proxy refused ${host}:${port}: ${reason}`),
        });
      } catch (err) {
        return end(deps, tenant, jobKey, runId, { state: 'failed', reason: `launch_failed: ${(err as Error).message}` });
      }
      const shots: ApplicationScreenshot[] = [];
      // Everything after the launch is inside the try: its finally is what ends the browser.
      try {
        // Every connection of the attempt's browser (the form's page, its resources, the submission
        // and every redirect hop) passes the address rule in the GuardedProxy it was launched behind,
        // which connects only to the address it checked. No Playwright route handler: its GETs would
        // be fetched by Playwright in this process with a DNS lookup of its own (a rebinding window)
        // and its log would carry the URL's path (an apply link's token); the proxy logs host and port.
        const page = await browser.context.newPage();
        const shoot = async (name: string) => {
          const file = path.join(browser.workDir, name);
          await screenshot(page, file).then(
            () => shots.push({ name, path: file }),
            (err: unknown) => log(`screenshot ${name} failed: ${(err as Error).message}`),
          );
          await deps.applications.recordScreenshots(tenant, jobKey, runId, shots, now());
        };
        const contact = profile.contact;
        const resumePdf = await writePdf(browser.context, renderResumeHtml(artifacts.tailoredResume as ResumeDocument, contact), path.join(browser.workDir, 'resume.pdf'));
        const letterText = letterTextOf(artifacts.coverLetter);
        const letterPdf = letterText ? await writePdf(browser.context, renderCoverLetterHtml(letterText, contact), path.join(browser.workDir, 'cover-letter.pdf')) : undefined;

        // Checked up front too, so a refused form URL fails with the rule's own words (host_refused_private_address).
        await guard.check(job.applyUrl ?? job.url);
        const form = await openApplicationForm(page, job.applyUrl ?? job.url);
        if (!form) {
          await shoot('no-form.png');
          return end(deps, tenant, jobKey, runId, { state: 'failed', reason: 'no_application_form' });
        }
        const plan = planAnswers(form, {
          profile: { contact, skills: profile.skills, experience: profile.experience },
          savedAnswers: artifacts.answers,
          resumePdfPath: resumePdf,
          coverLetterPdfPath: letterPdf,
          coverLetterText: letterText ?? undefined,
          asOf: new Date(now()).toISOString().slice(0, 7),
        });
        if (plan.unknownRequired.length > 0) {
          await shoot('needs-input.png');
          const questions = plan.unknownRequired.map((q) => {
            const { required: _required, ...question } = questionSummary(q);
            return question;
          });
          return end(deps, tenant, jobKey, runId, { state: 'needs_user_input', questions, reason: 'required questions without an answer' });
        }
        await fillApplicationForm(page, plan);
        await shoot('filled.png');
        if (dryRun) return end(deps, tenant, jobKey, runId, { state: 'dry_run_done', reason: null });

        const outcome = await submitApplicationForm(page, {
          form,
          timeoutMs: deps.submitTimeoutMs ?? 60_000,
          // The checkpoint authorises the one click: refused (a newer owner, a voided approval, the
          // day's cap) means nothing is clicked.
          beforeSubmit: async () => {
            const intent = await deps.applications.recordIntent(tenant, jobKey, runId, { dailyCap: deps.dailyCap() }, now());
            if (!intent.accepted) throw new SubmitRefused(intent.reason);
          },
        });
        await shoot('after-submit.png');
        if (outcome.outcome === 'confirmed') return end(deps, tenant, jobKey, runId, { state: 'submitted', confirmation: outcome.confirmation, reason: null });
        // The board answered with the form again (rejected) or with nothing we can read as a
        // confirmation: after the click either way, so the record says needs_verification.
        return end(deps, tenant, jobKey, runId, { state: 'needs_verification', reason: outcome.outcome === 'rejected' ? `rejected: ${outcome.errors.join('; ').slice(0, 300)}` : outcome.detail });
      } catch (err) {
        if (err instanceof SubmitRefused) return end(deps, tenant, jobKey, runId, { state: 'failed', reason: err.reason });
        // After a recorded intent the repository stores this as needs_verification, never failed.
        return end(deps, tenant, jobKey, runId, { state: 'failed', reason: (err as Error).message.slice(0, 300) });
      } finally {
        const cleanup = await browser.close();
        if (!cleanup.verified) log(`apply ${jobKey}: browser cleanup unverified (${cleanup.reason}); the job stays blocked (custody cleanup_failed)`);
      }
    },

    async endApplication({ tenant, jobKey, reason }) {
      const settled = await deps.applications.settle(tenant, jobKey, { reason }, now());
      if (settled.application) return resultOf(settled.application);
      return failed(jobKey, settled.accepted ? reason : settled.reason);
    },

    async selectApprovedJobs({ discoveryRunId }) {
      const approved = await deps.applications.selectApproved(APPLY_TENANT, discoveryRunId ? { discoveryRunId } : {});
      const targets: ApplyTarget[] = [];
      let budgetSkipped = 0;
      for (const job of approved) {
        const fresh = job.availability === 'open' && job.availabilityCheckedAt !== null && now() - job.availabilityCheckedAt <= AVAILABILITY_FRESH_MS;
        if (fresh) targets.push({ jobKey: job.jobKey, checkAvailabilityFirst: false });
        else if (await deps.chargeAvailabilityCheck()) targets.push({ jobKey: job.jobKey, checkAvailabilityFirst: true });
        else budgetSkipped += 1;
      }
      return { targets, budgetSkipped };
    },
  };
}

/**
 * Opens the job's application form: at its apply URL, or on the posting page, or one "Apply" link
 * away from it (boards publish one or the other). Only a link on the posting's own site is followed.
 */
async function openApplicationForm(page: Page, url: string): Promise<ApplicationForm | null> {
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  const inline = await readApplicationForm(page);
  if (inline) return inline;
  const link = page.getByRole('link', { name: /\bapply\b/i }).first();
  const href = (await link.count()) > 0 ? await link.getAttribute('href') : null;
  if (!href) return null;
  const target = new URL(href, page.url());
  if (target.origin !== new URL(page.url()).origin) return null;
  await page.goto(target.href, { waitUntil: 'load', timeout: 30_000 });
  return readApplicationForm(page);
}

/** The checkpoint refused the click (not the owner any more, approval voided, daily cap). */
class SubmitRefused extends Error {
  constructor(readonly reason: string) {
    super(`submit not authorised: ${reason}`);
  }
}

/**
 * Owner-crash recovery: a previous attempt's browser still held by a process that is gone (the
 * worker was killed) is cleaned up and released — only while that attempt's run is still the
 * canonical owner of the job (rechecked by the launcher under its files, against the record here).
 * A live owner, missing or replaced lifetime metadata, or an unverified cleanup refuse: the job
 * stays blocked and the admission below says so.
 */
async function recoverDeadOwner(deps: ApplyActivityDeps, tenant: string, jobKey: string, log: (m: string) => void): Promise<void> {
  const custody = inspectCustody(deps.appDir, tenant, jobKey);
  if (custody.state !== 'held' || custody.ownerAlive !== false || !custody.runId) return;
  const runId = custody.runId;
  const result = await recoverCustody(deps.appDir, { tenant, jobKey, runId }, { confirmOwner: async () => (await deps.applications.applicationOf(tenant, jobKey))?.ownerRunId === runId });
  if (!result.recovered) log(`apply ${jobKey}: recovery of run ${runId}'s browser refused (${result.refusal}: ${result.reason})`);
}

async function end(deps: ApplyActivityDeps, tenant: string, jobKey: string, runId: string, outcome: Parameters<ApplicationRepository['recordOutcome']>[3]): Promise<ApplyResult> {
  const written = await deps.applications.recordOutcome(tenant, jobKey, runId, outcome, (deps.now ?? Date.now)());
  // A refused write (a newer owner) changed nothing: report what the record says.
  if (written.application) return resultOf(written.application);
  return failed(jobKey, written.accepted ? (outcome.reason ?? outcome.state) : written.reason);
}

function resultOf(a: ApplicationRecord): ApplyResult {
  return { jobKey: a.jobKey, state: a.state, confirmation: a.confirmation, questions: a.questions, reason: a.reason };
}

function failed(jobKey: string, reason: string): ApplyResult {
  return { jobKey, state: 'failed', confirmation: null, questions: [], reason };
}

function letterTextOf(letter: unknown): string | null {
  if (typeof letter === 'string') return letter;
  const text = (letter as { text?: unknown } | null)?.text;
  return typeof text === 'string' && text.trim() ? text : null;
}
