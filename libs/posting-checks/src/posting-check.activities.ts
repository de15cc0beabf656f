import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { PostingCheckActivities } from '@jobctrl/pipeline/contracts';
import { activitiesWaiting } from '@jobctrl/shared/temporal';
import type { PostingCheckRepository, ResolvePostingApi, SweepSelection } from './posting-check.repository';
import { PostingCheckRunner, type InspectPosting } from './posting-check.runner';

/** The live settings a check reads (availability_sweeps_enabled, tailor_score_threshold, availability_recheck_hours). */
export interface PostingCheckSettings {
  sweepsEnabled: boolean;
  selection: SweepSelection;
}

export interface PostingCheckActivityDeps {
  repository: PostingCheckRepository;
  inspect: InspectPosting;
  /** Discovery's postingApiOf: which board API answers for a job's source (see ResolvePostingApi). */
  postingApi: ResolvePostingApi;
  settings: () => PostingCheckSettings;
}

export function createPostingCheckActivities(deps: PostingCheckActivityDeps): PostingCheckActivities {
  const runner = new PostingCheckRunner({ repository: deps.repository, inspect: deps.inspect, postingApi: deps.postingApi });
  // Every attempt is a new owner: a retried attempt must not complete through a lease the lost
  // attempt may still be using (its late verdict is fenced out instead).
  const ownerOf = (ctx: Context) => `${ctx.info.workflowExecution?.workflowId ?? ctx.info.activityId}/${ctx.info.attempt}/${randomUUID()}`;
  return {
    async checkPostingAvailability({ jobKey }) {
      const ctx = Context.current();
      const result = await runner.checkJob(jobKey, ownerOf(ctx), ctx.cancellationSignal);
      // A cancelled activity reports the cancel itself, so the workflow sees a cancellation.
      if (result.outcome === 'refused' && ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      return result;
    },

    async admitAvailabilitySweep() {
      if (!deps.settings().sweepsEnabled) return { admitted: false, reason: 'disabled', retryAfterMs: null };
      const now = Date.now();
      const admission = await deps.repository.admitSweep(now);
      return admission.admitted ? { admitted: true, sweepId: admission.sweepId, admittedAt: now } : { admitted: false, reason: admission.reason, retryAfterMs: admission.retryAfterMs };
    },

    async runAvailabilitySweep({ sweepId, admittedAt }) {
      const ctx = Context.current();
      // Settings are read before each claim: a lowered threshold or a shorter recheck applies to the next job.
      // Before each claim: do activities wait for a slot on this queue? (Unknown counts as no.)
      const othersWaiting = async () => (await activitiesWaiting(ctx.client, ctx.info.namespace, ctx.info.taskQueue)) === true;
      const result = await runner.sweep({ sweepId, admittedAt, owner: ownerOf(ctx), selection: () => deps.settings().selection, othersWaiting }, ctx.cancellationSignal);
      if (result.stoppedBy === 'cancelled' && ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      return result;
    },
  };
}
