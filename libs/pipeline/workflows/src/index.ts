// The worker's single workflowsPath: every workflow is exported from here.
export { discoverWorkflow, runDiscovery } from './discover.workflow';
export { jobPreparationWorkflow, runPreparation } from './job-preparation.workflow';
export { smokeWorkflow } from './smoke.workflow';
export { workerWarmUpWorkflow } from './warm-up.workflow';
export { jobPipelineWorkflow, runJobPipeline } from './job-pipeline.workflow';
export { compensationRefreshWorkflow } from './compensation-refresh.workflow';
export { postingCheckWorkflow, availabilitySweepWorkflow } from './posting-check.workflow';
export { applyWorkflow } from './apply.workflow';
