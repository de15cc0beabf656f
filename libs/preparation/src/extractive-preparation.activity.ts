import type { ExtractivePreparationActivities, PreparationSteps } from '@jobctrl/pipeline/contracts';
import { EXTRACTIVE_PROVIDER, prepareInOrder } from '@jobctrl/pipeline/contracts';

export interface ExtractivePreparationDeps {
  /** This worker's model provider (fixed at start). */
  provider: () => string;
  /** The stage activities themselves (scoring, tailoring, cover letter), called in-process. */
  steps: PreparationSteps;
}

/**
 * A job's whole preparation as one activity, for jobs started with the extractive provider: the stage
 * activities run one after the other in this attempt, in the workflow's order (prepareInOrder), each
 * reading its fence, writing its own stage and reporting where the job stands, exactly as when each is
 * its own activity. So the job's stages, artifacts and reviews are the same, and a retry after a crash
 * resumes from the stage the job reached. Nothing is charged, so no spend preflight is needed; a worker
 * that now has a model provider does nothing and lets the workflow go stage by stage behind the preflight.
 */
export function createExtractivePreparationActivities(deps: ExtractivePreparationDeps): ExtractivePreparationActivities {
  return {
    async prepareJobExtractive({ jobKey, stages }) {
      if (deps.provider() !== EXTRACTIVE_PROVIDER) return { extractive: false, stage: 'unknown', score: null };
      const { stage, score } = await prepareInOrder(jobKey, stages, deps.steps);
      return { extractive: true, stage, score };
    },
  };
}
