export { APPLY_WORKFLOW_ID_PREFIX, InvalidWorkflowIdPartError, applyWorkflowId } from './apply-workflow-id.rules';
export {
  decideApplyAdmission,
  type ApplyAdmissionDecision,
  type ApplyAdmissionInput,
  type ApplyDenialCode,
  type BrowserCustody,
  type PostingAvailability,
  type SubmitIntent,
} from './apply-admission.rules';
