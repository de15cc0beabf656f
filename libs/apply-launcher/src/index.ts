// The id builder lives with the contracts (the pipeline workflow starts apply children by it).
export { APPLY_WORKFLOW_ID_PREFIX, InvalidWorkflowIdPartError, applyWorkflowId } from '@jobctrl/pipeline/contracts';
export {
  decideApplyAdmission,
  type ApplyAdmissionDecision,
  type ApplyAdmissionInput,
  type ApplyDenialCode,
  type BrowserCustody,
  type PostingAvailability,
  type SubmitIntent,
} from './apply-admission.rules';
// The per-attempt Chromium launcher (imports playwright-core; the API uses ./custody instead).
export {
  ApplyLaunchError,
  launchApplyBrowser,
  unverifiedCleanupsOfThisProcess,
  type ApplyBrowser,
  type ApplyLaunchFailure,
  type LaunchApplyBrowserOptions,
  type UnverifiedCleanup,
} from './launcher/apply-browser.launcher';
export type { DevToolsEndpoint } from './launcher/devtools-endpoint';
export * from './custody';
// Approval, answers and the canonical application record (SQL only in the repository).
export { APPLY_DENIAL_REASONS, AVAILABILITY_DENIALS, AVAILABILITY_FRESH_MS } from './apply-admission.rules';
export * from './application/application.model';
export { ApplicationRepository } from './application/application.repository';
// Form filling: read a form by its labels, plan answers (profile, saved answers, documents), fill, submit once.
export * from './forms';
export { createApplyActivities, type ApplyActivityDeps } from './apply.activities';
