// The worker's single workflowsPath: every workflow is exported from here.
export { smokeWorkflow } from './smoke.workflow';
