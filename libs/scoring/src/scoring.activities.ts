import { Context } from '@temporalio/activity';
import type { ScoringActivities } from '@jobctrl/pipeline/contracts';
import { requireFencedJob, requireJob, type JobRecord, type JobRepository, type PreparationRepository } from '@jobctrl/shared/jobs';
import { activityCaller, toSpendfulFailure, type LlmRuntime } from '@jobctrl/shared/llm';
import type { StoredProfile } from '@jobctrl/shared/profile';
import { scoreJobExtractive } from './extractive-score.rules';
import { scoreJobWithModel } from './model-score';
import { scoringProfileFrom } from './scoring-profile.mapper';

export interface ScoringActivityDeps {
  jobs: JobRepository;
  prep: PreparationRepository;
  profile: () => Promise<StoredProfile>;
  llm: LlmRuntime;
  /** tailor_score_threshold, read live. */
  threshold: () => number;
}

/**
 * SCORE_JOB. Scores a job that is pending_score or was scored against an older profile revision;
 * otherwise reports where the job stands, so a re-run continues instead of re-spending. The score
 * is stored with provider, model and formula version.
 */
export function createScoringActivities(deps: ScoringActivityDeps): ScoringActivities {
  return {
    async scoreJob({ jobKey, allowScore = true }) {
      try {
        // The job with its fence (one row, one unit): a late attempt's score must not undo what a newer one did.
        const { fence, job } = await requireFencedJob(deps.jobs, jobKey);
        const { profile, revision } = await deps.profile();
        const stale = job.stage !== 'pending_enrichment' && (job.scoreProfileRevision ?? -1) < revision;
        if (!allowScore || (job.stage !== 'pending_score' && !stale)) return { score: job.score, stage: job.stage, rescored: false };

        const pay = payOf(job);
        const posting = { title: job.title, company: job.company, description: job.descriptionText ?? '', location: job.location ?? undefined, locations: job.locations, remote: job.remote ?? undefined, ...(pay ? { pay } : {}) };
        const client = deps.llm.clientFor({ jobKey, ...activityCaller(Context.current()) });
        const detail = client
          ? { ...(await scoreJobWithModel(client, profile, posting)).result, provider: client.provider, model: client.model }
          : { ...scoreJobExtractive(scoringProfileFrom(profile), posting), provider: 'extractive', model: 'extractive' };
        const write = await deps.prep.recordScore(jobKey, { score: detail.score, detail: { ...detail, profileRevision: revision }, profileRevision: revision, threshold: deps.threshold() }, fence);
        if (write.applied) return { score: detail.score, stage: write.stage ?? job.stage, rescored: true };
        // The job moved on while this attempt scored (a newer attempt got there first): report it as it is.
        const now = await requireJob(deps.jobs, jobKey);
        return { score: now.score, stage: now.stage, rescored: false };
      } catch (err) {
        throw toSpendfulFailure(err);
      }
    },
  };
}

/**
 * The job's annualised pay for the score's pay component: its published compensation's figure (top of
 * the range, else the floor) in its currency; undefined while none is published or it states none.
 */
export function payOf(job: Pick<JobRecord, 'compensation'>): { currency: string; yearly: number } | undefined {
  const summary = job.compensation?.summary;
  const currency = summary?.['currency'];
  const yearly = summary?.['maxYearly'] ?? summary?.['minYearly'];
  return typeof currency === 'string' && typeof yearly === 'number' && Number.isFinite(yearly) ? { currency, yearly } : undefined;
}
