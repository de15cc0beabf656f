// `@jobctrl/apply-launcher/application`: approval, answers, the application record and admission,
// without Playwright (the API composes these; only the worker launches browsers).
export * from './application.model';
export { ApplicationRepository } from './application.repository';
export {
  APPLY_DENIAL_REASONS,
  AVAILABILITY_DENIALS,
  AVAILABILITY_FRESH_MS,
  decideApplyAdmission,
  type ApplyAdmissionDecision,
  type ApplyAdmissionInput,
  type ApplyDenialCode,
} from '../apply-admission.rules';
