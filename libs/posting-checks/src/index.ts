export * from './posting-check.limits';
export {
  AcquisitionBudget,
  DEFAULT_ACQUISITION_BUDGET_LIMITS,
  type AcquireDenial,
  type AcquireResult,
  type AcquisitionBudgetLimits,
  type AcquisitionBudgetOptions,
  type AcquisitionBudgetState,
  type AcquisitionKind,
  type BudgetRemaining,
  type SweepAdmission,
} from './acquisition.budget';
export * from './availability.model';
export * from './posting-check.repository';
export * from './posting-check.runner';
export * from './posting-check.activities';
export * from './posting-inspector';
export { CheckFetcher, CheckLimitError, type CheckHttpPort, type CheckRendererPort, type CheckUsage } from './check-fetcher';
export { checkPostingAvailability, type PostingFetcher } from './liveness/posting-ladder';
export { readPostingPage } from './liveness/page-reading';
