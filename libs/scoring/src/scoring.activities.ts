import { ApplicationFailure } from '@temporalio/common';
import type { ScoringActivities } from '@jobctrl/pipeline/contracts';
import type { JobRepository } from '@jobctrl/shared/jobs';
import { scoreJobExtractive, ScoringProfile } from './extractive-score.rules';

export interface ScoringActivityDeps {
  jobs: JobRepository;
  /** The user's profile as scoring needs it (the profile store arrives with the preparation stage). */
  profile: () => Promise<ScoringProfile>;
}

/** SCORE_JOB: the extractive scorer over the job's stored text; stores score, rationale and formula version. */
export function createScoringActivities(deps: ScoringActivityDeps): ScoringActivities {
  return {
    async scoreJob({ jobKey }) {
      const job = await deps.jobs.get(jobKey);
      if (!job) throw ApplicationFailure.nonRetryable(`no job ${jobKey}`, 'job_not_found');
      const result = scoreJobExtractive(await deps.profile(), {
        title: job.title,
        description: job.descriptionText ?? '',
        location: job.location ?? undefined,
        remote: job.remote ?? undefined,
      });
      await deps.jobs.recordScore(jobKey, result.score, { ...result, provider: 'extractive' });
      return { score: result.score };
    },
  };
}
