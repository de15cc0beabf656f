import {
  ActivityCancellationType,
  ActivityFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  TimeoutFailure,
} from '@temporalio/workflow';
import type {
  DiscoverWorkflowInput,
  DiscoverWorkflowResult,
  DiscoveryActivities,
  DiscoveryEnrichmentResult,
  EnrichmentActivities,
} from '@jobctrl/pipeline/contracts';
import { activityOptions, FAILED_RUN_STOPS_CONSUMER_PATCH, LIVE_CONSUMER_DRAINS_PATCH, PRODUCERS_FIRST_PATCH, PRODUCERS_FIRST_PRIORITY, TERMINAL_HANDOFF_PATCH } from '@jobctrl/pipeline/contracts';
import { cancelOwnPreparations } from './cancellation.helpers';
import { describeFailure, recordLifecycle } from './lifecycle.helpers';

/** The run's activity proxies, with or without the producers-first priority. */
function proxiesOf(priority: { priorityKey: number } | undefined) {
  const withPriority = <T extends object>(options: T) => (priority ? { ...options, priority } : options);
  const enrichmentOptions = withPriority(activityOptions('discoveryEnrichment'));
  return {
    // Each family is its own activity with its own timeout, heartbeat and retry policy: a family
    // failure is recorded and the run goes on to the next family.
    family: proxyActivities<Pick<DiscoveryActivities, 'discoverySourceFamily'>>({
      // A dead worker's family is retried elsewhere after its heartbeat timeout; a live family
      // heartbeats on the worker's timer, so a host cooldown or Retry-After longer than that does
      // not time it out.
      ...withPriority(activityOptions('discoverySourceFamily')),
      // A cancelled run waits for its families to acknowledge (next heartbeat), so nothing writes to
      // the run after it is recorded cancelled.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    }),
    control: proxyActivities<Omit<DiscoveryActivities, 'discoverySourceFamily'>>(withPriority(activityOptions('discoveryControl'))),
    enrichment: proxyActivities<EnrichmentActivities>(enrichmentOptions),
    // The live consumer runs for the whole crawl and learns of its cancel through a heartbeat.
    // Waiting for the cancel to complete keeps it from overlapping the terminal reconcile (double
    // fetches, double enrichment attempts).
    liveEnrichment: proxyActivities<EnrichmentActivities>({ ...enrichmentOptions, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED }),
  };
}

const FIFO = proxiesOf(undefined);
const PRODUCERS_FIRST = proxiesOf({ priorityKey: PRODUCERS_FIRST_PRIORITY });

/**
 * DiscoverWorkflow: plan once, run source families (one at a time by default, in batches of
 * max_parallel_families otherwise) while one execution-scoped enrichment consumer enriches committed
 * jobs and hands each to its preparation workflow; then wait for the consumer to drain (histories
 * before discover-live-consumer-drains-v1: cancel it) and run the authoritative terminal reconcile
 * and score-only fan-out. Progress (families + terminal) only moves forward.
 */
export async function discoverWorkflow(input: DiscoverWorkflowInput): Promise<DiscoverWorkflowResult> {
  return runDiscovery(input, () => patched(TERMINAL_HANDOFF_PATCH), () => patched(PRODUCERS_FIRST_PATCH), () => patched(LIVE_CONSUMER_DRAINS_PATCH));
}

/**
 * The workflow body. `terminalHandoff` decides the terminal reconcile's input, `producersFirst` the
 * activities' priority and `liveDrains` whether the live consumer ends by itself: the patch markers
 * in production; replay tests pass the pre-marker behaviour to record an old history (the last two
 * default to it).
 */
export async function runDiscovery(
  input: DiscoverWorkflowInput,
  terminalHandoff: () => boolean,
  producersFirst: () => boolean = () => false,
  liveDrains: () => boolean = () => false,
): Promise<DiscoverWorkflowResult> {
  // Asked once, before the first activity, so every activity of a history has the same options.
  const { family, control, enrichment, liveEnrichment } = producersFirst() ? PRODUCERS_FIRST : FIFO;
  await recordLifecycle('started', { runId: input.runId });
  const { runId } = input;
  const familiesFailed: string[] = [];
  const familiesCompleted: string[] = [];
  let live: Promise<unknown> | undefined;
  let liveScope: CancellationScope | undefined;
  try {
    // Inside the try: a run whose planning fails (an unknown or disabled source) ends `failed` with
    // the reason instead of staying `running` with nothing left to run.
    const plan = await control.planDiscoverySources(input);
    // One-time straggler sweep: before any family runs, pending_tailor holds only pre-existing work.
    await control.fanOutPreparation({ includePendingTailor: true });

    // A draining consumer returns once every family is done and nothing is left to select, so the
    // end of the crawl costs no cancel round trip and no capture is interrupted and redone.
    const drains = liveDrains();
    liveScope = new CancellationScope();
    live = liveScope.run(() =>
      liveEnrichment.discoveryEnrichment({
        runId,
        mode: 'live',
        perJobHandoff: true,
        internalConcurrency: plan.internalConcurrency,
        ...(drains ? { drainAfterFamilies: plan.families.length } : {}),
      }),
    );
    // The consumer's own outcome is settled below; keep an unobserved rejection from failing the run.
    live.catch(() => undefined);

    let completed = 0;
    for (let i = 0; i < plan.families.length; i += plan.maxParallelFamilies) {
      const batch = plan.families.slice(i, i + plan.maxParallelFamilies);
      const settled = await Promise.allSettled(batch.map((f) => family.discoverySourceFamily({ runId, family: f, internalConcurrency: plan.internalConcurrency })));
      // Folded in submission order, whatever order they finished in.
      for (let j = 0; j < batch.length; j++) {
        const outcome = settled[j];
        if (outcome.status === 'rejected') {
          if (isCancellation(outcome.reason)) throw outcome.reason; // a cancelled source cancels the whole run
          familiesFailed.push(batch[j].family);
          await control.recordFamilyFailure({ runId, family: batch[j].family, error: describeFailure(outcome.reason) });
        } else {
          familiesCompleted.push(batch[j].family);
        }
      }
      completed += batch.length;
      await control.advanceDiscoveryProgress({ runId, completed });
      // Best-effort backstop for jobs whose per-job handoff failed; progress-silent.
      await control.fanOutPreparation({ runId, includePendingTailor: false });
    }

    if (!drains) liveScope.cancel();
    await live.catch((err: unknown) => {
      // A consumer whose worker died cannot acknowledge the cancel and times out instead; the
      // terminal reconcile below is authoritative either way. Other failures keep the failure path.
      if (isCancellation(err)) return;
      if (err instanceof ActivityFailure && err.cause instanceof TimeoutFailure) return;
      throw err;
    });

    const terminal: DiscoveryEnrichmentResult = terminalHandoff()
      ? await enrichment.discoveryEnrichment({ runId, mode: 'terminal', perJobHandoff: true, internalConcurrency: plan.internalConcurrency })
      : await enrichment.discoveryEnrichment({ runId, mode: 'terminal', perJobHandoff: false, internalConcurrency: plan.internalConcurrency });
    // Final score-only fan-out catches any start the handoffs missed and closes work planning.
    await control.fanOutPreparation({ runId, includePendingTailor: false });
    await control.finishDiscoveryRun({ runId, state: 'completed' });
    const result: DiscoverWorkflowResult = { runId, state: 'completed', familiesFailed, familiesCompleted, enriched: terminal.enriched };
    await recordLifecycle('completed', { ...result });
    return result;
  } catch (err) {
    const state = isCancellation(err) ? 'cancelled' : 'failed';
    // A failing run stops its live consumer too (a cancelled run's scope already did), so nothing
    // keeps enriching for a run that is over.
    if (state === 'failed' && live && patched(FAILED_RUN_STOPS_CONSUMER_PATCH)) liveScope?.cancel();
    await CancellationScope.nonCancellable(async () => {
      // A run cancel reaches the live consumer through its scope; wait for it to acknowledge so no
      // enrichment writes land after the run is recorded cancelled. (No new command: the cancel
      // request was already issued by the scope.)
      if (live && (state === 'cancelled' || liveScope?.consideredCancelled)) await live.catch(() => undefined);
      // The jobs this run handed to their preparations stop spending with it (its consumer and
      // families have stopped starting new ones by now).
      const unstopped = state === 'cancelled' ? await cancelOwnPreparations({ discoveryRunId: runId }) : null;
      await control.finishDiscoveryRun({ runId, state });
      await recordLifecycle(state, { runId, familiesFailed, familiesCompleted, error: describeFailure(err), ...(unstopped ? { preparations: unstopped } : {}) });
    });
    throw err;
  }
}
