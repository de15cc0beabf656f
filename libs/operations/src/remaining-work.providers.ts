import type { RemainingWorkRepository, RemainingWorkStage } from '@jobctrl/shared/jobs';
import type { RemainingWorkProvider } from './remaining-work.registry';

/**
 * Remote activity executions a job still needs, at least, from each pending stage. The ETA divides
 * remaining work by remote activity completions, so providers count in that unit: scoreJob (1);
 * tailorResume then one writeCoverLetter + reviewCoverLetter draft (3); a draft and its review (2).
 * Enrichment runs inside one long consumer activity and completes none per job, so a job waiting for
 * it counts its score only. A job scored below the threshold needs nothing after its score and a
 * rejected draft needs another, so the total is a lower bound, not an exact count.
 */
export const ACTIVITIES_AHEAD: Readonly<Record<RemainingWorkStage, number>> = Object.freeze({
  pending_enrichment: 1,
  pending_score: 1,
  pending_tailor: 3,
  pending_cover: 2,
});

/** Discovery: one discoverySourceFamily activity per family a running run has not finished. */
export function discoveryRemainingWork(repo: Pick<RemainingWorkRepository, 'unfinishedDiscoveryFamilies'>): RemainingWorkProvider {
  return { stage: 'discovery', remaining: () => repo.unfinishedDiscoveryFamilies() };
}

/** Preparation: the activities ahead of every job still in a pending stage (paused ones included). */
export function preparationRemainingWork(repo: Pick<RemainingWorkRepository, 'jobsByPendingStage'>): RemainingWorkProvider {
  return {
    stage: 'preparation',
    remaining: async () => {
      const jobs = await repo.jobsByPendingStage();
      return (Object.keys(ACTIVITIES_AHEAD) as RemainingWorkStage[]).reduce((total, stage) => total + jobs[stage] * ACTIVITIES_AHEAD[stage], 0);
    },
  };
}
