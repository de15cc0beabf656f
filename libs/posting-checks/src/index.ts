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
