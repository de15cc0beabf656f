import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { jobCompensationRefreshId, type CompensationActivities } from '@jobctrl/pipeline/contracts';
import { toSpendfulFailure, type LlmClient, type LlmRuntime } from '@jobctrl/shared/llm';
import { CompensationRefreshCoordinator, type CapturedModel } from './compensation-refresh.coordinator';
import type { CompensationRefreshRepository } from './compensation-refresh.repository';
import { compensationRowsOf } from './compensation-rows';

export interface CompensationActivityDeps {
  repo: CompensationRefreshRepository;
  llm: LlmRuntime;
  /** worker_activity_slots of this worker: N, the most determinations one refresh runs at once. */
  slots: number;
}

export function createCompensationActivities(deps: CompensationActivityDeps): CompensationActivities {
  const refresh = async (refreshId: string, jobKeys: string[] | null, restart: boolean) => {
    const ctx = Context.current();
    const jobs = (await deps.repo.inputsFor(jobKeys)).map((job) => ({ jobKey: job.jobKey, rows: compensationRowsOf(job) }));
    // Captured once for the whole refresh: a provider change mid-refresh applies to the next one.
    const model: CapturedModel | null =
      deps.llm.provider === 'extractive' ? null : { model: deps.llm.model, clientFor: (signal) => deps.llm.clientFor({ signal, onWait: () => ctx.heartbeat() }) as LlmClient };
    try {
      const outcome = await new CompensationRefreshCoordinator(deps.repo).run({
        refreshId,
        // A retried attempt is a new owner: the previous attempt's leases are not its own.
        owner: `${refreshId}/${ctx.info.attempt}/${randomUUID()}`,
        jobs,
        slots: deps.slots,
        model,
        signal: ctx.cancellationSignal,
        onProgress: (counts) => ctx.heartbeat(counts),
        restart,
      });
      // A cancelled activity reports the cancel itself, so the workflow sees a cancellation.
      if (outcome.state === 'cancelled' && ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
      return { state: outcome.state, counts: outcome.counts };
    } catch (err) {
      throw toSpendfulFailure(err);
    }
  };
  return {
    refreshCompensation: ({ refreshId, jobKeys }) => refresh(refreshId, jobKeys, false),

    classifyJobCompensation: ({ jobKey, idempotencyKey }) => refresh(jobCompensationRefreshId(idempotencyKey), [jobKey], true),

    async endCompensationRefresh({ refreshId, state, error }) {
      await deps.repo.endRefresh(refreshId, state, error);
    },
  };
}
