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
