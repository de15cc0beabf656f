import { Context } from '@temporalio/activity';
import type { TailoringActivities } from '@jobctrl/pipeline/contracts';
import { requireFencedJob, type JobRepository, type PreparationRepository } from '@jobctrl/shared/jobs';
import { activityCaller, toSpendfulFailure, type LlmRuntime } from '@jobctrl/shared/llm';
import type { StoredProfile } from '@jobctrl/shared/profile';
import { tailorResumeExtractive } from './extractive-tailor.rules';
import { tailorResumeWithModel } from './model-tailor.generator';
import { renderResumeMarkdown } from './resume-markdown.renderer';

export interface TailoringActivityDeps {
  jobs: JobRepository;
  prep: PreparationRepository;
  profile: () => Promise<StoredProfile>;
  llm: LlmRuntime;
}

/**
 * Tailors the resume for a pending_tailor job from the profile's facts only: the extractive provider
 * selects and reorders; a model rewrites under the checked no-new-facts rule and falls back to the
 * extractive resume when its answer keeps adding facts.
 */
export function createTailoringActivities(deps: TailoringActivityDeps): TailoringActivities {
  return {
    async tailorResume({ jobKey }) {
      try {
        // The job with its fence (one row, one unit): a late attempt's resume must not overwrite a newer state.
        const { fence, job } = await requireFencedJob(deps.jobs, jobKey);
        if (job.stage !== 'pending_tailor') return { stage: job.stage, method: 'none' };
        const { profile, revision } = await deps.profile();
        const posting = { title: job.title, company: job.company, description: job.descriptionText ?? '' };
        const client = deps.llm.clientFor({ jobKey, ...activityCaller(Context.current()) });
        const tailored = client ? await tailorResumeWithModel(client, profile, posting) : { resume: tailorResumeExtractive(profile, posting) };
        const stored = {
          ...tailored.resume,
          markdown: renderResumeMarkdown(tailored.resume, profile.contact),
          provider: client?.provider ?? 'extractive',
          model: client?.model ?? 'extractive',
          profileRevision: revision,
          ...('fallback' in tailored && tailored.fallback ? { fallback: tailored.fallback, violations: tailored.violations ?? [] } : {}),
        };
        const stage = (await deps.prep.recordTailored(jobKey, stored, fence)) ?? job.stage;
        return { stage, method: tailored.resume.method, ...(stored.fallback ? { fallback: stored.fallback } : {}) };
      } catch (err) {
        throw toSpendfulFailure(err);
      }
    },
  };
}
