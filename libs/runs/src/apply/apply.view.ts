import type { ApplicationQuestion, ApplicationRecord, Approval } from '@jobctrl/apply-launcher/application';
import type { ApplicationState } from '@jobctrl/pipeline/contracts';

/** A job's approval as the API shows it (job detail, POST /v1/jobs/:jobKey/approval). */
export interface ApprovalView {
  approvedAt: string;
  resumeSha256: string;
  coverLetterSha256: string;
  answersSha256: string;
}

/** A job's application as the API shows it; screenshots are URLs the API serves. */
export interface ApplicationView {
  state: ApplicationState;
  workflowId: string;
  dryRun: boolean;
  submittedAt: string | null;
  confirmation: string | null;
  questions: ApplicationQuestion[];
  screenshots: string[];
  /** Why it failed or needs verification. */
  reason: string | null;
  startedAt: string;
  updatedAt: string;
}

export function approvalView(a: Approval | null | undefined): ApprovalView | null {
  if (!a) return null;
  return { approvedAt: new Date(a.approvedAt).toISOString(), resumeSha256: a.resumeSha256, coverLetterSha256: a.coverLetterSha256, answersSha256: a.answersSha256 };
}

export function applicationView(a: ApplicationRecord | null | undefined): ApplicationView | null {
  if (!a) return null;
  return {
    state: a.state,
    workflowId: a.workflowId,
    dryRun: a.dryRun,
    submittedAt: a.submittedAt === null ? null : new Date(a.submittedAt).toISOString(),
    confirmation: a.confirmation,
    questions: a.questions,
    screenshots: a.screenshots.map((s) => screenshotUrl(a.jobKey, s.name)),
    reason: a.reason,
    startedAt: new Date(a.startedAt).toISOString(),
    updatedAt: new Date(a.updatedAt).toISOString(),
  };
}

export function screenshotUrl(jobKey: string, name: string): string {
  return `/v1/jobs/${encodeURIComponent(jobKey)}/screenshots/${encodeURIComponent(name)}`;
}
