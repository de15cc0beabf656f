import type {
  JobPreparationInput,
  PreparationBatchActivities,
  PreparationCancellationActivities,
  PreparationPoll,
  PreparationSelection,
  PreparationStatusActivities,
  SpendActivities,
  SpendBudget,
} from '@jobctrl/pipeline/contracts';
import { PENDING_STAGE_OF } from '@jobctrl/pipeline/contracts';
import type { PreparationBatchRepository, PreparationRepository, PreparationTarget } from '@jobctrl/shared/jobs';
import { SPEND_CEILING_REACHED_STATUS } from '@jobctrl/shared/jobs';
import { msUntilNextSpendDay, spendCeilingReached, spendDay, type SpendLedgerRepository } from '@jobctrl/shared/llm';

/**
 * Where a batch shows its progress and its spend pause: the run registry of the runs feature (which
 * ignores runs it does not know, e.g. recovery batches). A port, so this domain does not import it.
 */
export interface RunProgressRecorder {
  /** Only moves forward: a retried or replayed write with older counts changes nothing. */
  recordPreparationProgress(runId: string, progress: { selected: number; completed: number; failed: number }): Promise<void>;
  setBlocked(runId: string, reason: string | null): Promise<void>;
}

export interface PreparationActivityDeps {
  prep: PreparationRepository;
  runs: RunProgressRecorder;
  batches: PreparationBatchRepository;
  ledger: SpendLedgerRepository;
  /** Live settings: a raised ceiling or a provider change applies without a restart of the batch. */
  settings: () => { provider: string; dailySpendCeilingUsd: number; recoveryIdleMs: number };
  /** The current profile revision (profile_update batches also take jobs scored against an older one). */
  profileRevision: () => Promise<number>;
  /**
   * Starts a job's preparation workflow (USE_EXISTING; a new execution once the previous one
   * closed). Injected: the worker starts it through the activity's own Temporal client.
   */
  startPreparation: (input: JobPreparationInput) => Promise<void>;
  /** Whether the job's latest prep-{key} execution is closed, and whether it closed other than completed. */
  describePreparation: (job: PreparationTarget) => Promise<{ closed: boolean; failed: boolean }>;
  /** Wakes paused preparations (signal) once the budget is available again; best effort. */
  wakePaused: (jobs: PreparationTarget[]) => Promise<void>;
  /**
   * Cancels the running prep-{key} executions of these jobs that one of `owners` started (none other);
   * returns the ones it cancelled. Injected: through the activity's own Temporal client.
   */
  cancelOwned: (owners: readonly string[], jobs: PreparationTarget[]) => Promise<Array<{ jobKey: string; workflowId: string }>>;
  /**
   * Stops this process's running activities of those executions at once (ActivityStops) and resolves
   * once they have ended (a stopped attempt may finish a stage write it had begun), within a bound.
   */
  stopRunning: (workflowIds: string[]) => Promise<void>;
  clock?: () => number;
}

/**
 * The preparation control activities: the spend preflight (local control lane), a job's pause
 * state, and the short steps of the batch coordinator behind pipeline runs, profile updates and
 * idle recovery (the coordinator itself is JobPipelineWorkflow, which holds no slot while it waits).
 */
export function createPreparationActivities(
  deps: PreparationActivityDeps,
): SpendActivities & PreparationStatusActivities & PreparationBatchActivities & PreparationCancellationActivities {
  const now = deps.clock ?? Date.now;

  return {
    async checkSpendBudget(): Promise<SpendBudget> {
      const s = deps.settings();
      const t = now();
      const summary = await deps.ledger.summary(spendDay(t));
      const allowed = !spendCeilingReached(s.provider, summary.totalUsd, s.dailySpendCeilingUsd);
      return { allowed, spentUsd: summary.totalUsd, ceilingUsd: s.dailySpendCeilingUsd, day: summary.day, msUntilReset: msUntilNextSpendDay(t) };
    },

    async setPreparationStatus({ jobKey, status }) {
      await deps.prep.setPrepStatus(jobKey, status);
    },

    async selectPreparationTargets(input) {
      return selectTargets(deps, input, now());
    },

    async freezePreparationTargets({ batchId, ...selection }) {
      return { selected: await deps.batches.freeze(batchId, () => selectTargets(deps, selection, now())) };
    },

    async readPreparationTargets({ batchId, afterSeq, limit }) {
      return deps.batches.page(batchId, afterSeq, limit);
    },

    async releasePreparationTargets({ batchId }) {
      await deps.batches.release(batchId);
    },

    async startPreparations({ jobs, stages, notifyWorkflowId, spendRecheckSeconds }) {
      const mode: JobPreparationInput['mode'] = stages.some((s) => s !== 'score') ? 'full' : 'score';
      // One reading for the whole call: the provider the jobs are started with is the one reported.
      const provider = deps.settings().provider;
      // The starts go out together (each is a round trip to the server, and a batch's first call
      // fills every lane at once). Every start is attempted before a failure fails the call: its
      // retry starts the rest again, and a job already started keeps its one execution
      // (deterministic prep-{key} id, USE_EXISTING).
      const starts = await Promise.allSettled(
        jobs.map((job) =>
          deps.startPreparation({
            jobKey: job.jobKey,
            idempotencyKey: job.idempotencyKey,
            mode,
            stages: [...stages],
            notifyWorkflowId,
            ...(spendRecheckSeconds !== undefined ? { spendRecheckSeconds } : {}),
            // Captured here, in the job's start input, so its workflow decides deterministically
            // whether its stages can run as one activity (the extractive provider).
            provider,
          }),
        ),
      );
      const failed = starts.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      return { provider };
    },

    async pollPreparations({ jobs }): Promise<PreparationPoll[]> {
      const states = await Promise.all(jobs.map((job) => deps.describePreparation(job)));
      // Read after the describes: a closed execution's last stage write is already committed.
      const stages = await deps.prep.stagesOf(jobs.map((job) => job.jobKey));
      return jobs.map((job, i) => ({ ...job, ...states[i], stage: stages.get(job.jobKey) ?? 'missing' }));
    },

    async recordPreparationProgress({ runId, ...progress }) {
      await deps.runs.recordPreparationProgress(runId, progress);
    },

    /**
     * A cancelled coordinator's last control (spec: owner-scoped preparation cancellation, on the local
     * control lane): the preparations it started stop spending. The executions are cancelled first,
     * then this process's activities of them are stopped at once (elsewhere: at their next heartbeat,
     * 2 s at most), so no new model request starts for them; a call already on the wire settles and
     * is charged (the spend gate records it). The jobs the run covered and left waiting are marked, so
     * idle recovery leaves them alone.
     */
    async cancelPreparation({ owners, jobs = [], discoveryRunId, batchId }) {
      const byKey = new Map<string, PreparationTarget>(jobs.map((t) => [t.idempotencyKey, t]));
      if (discoveryRunId) for (const t of await deps.prep.targetsOfDiscoveryRun(discoveryRunId)) byKey.set(t.idempotencyKey, t);
      const cancelled = await deps.cancelOwned(owners, [...byKey.values()]);
      await deps.stopRunning(cancelled.map((c) => c.workflowId));
      // Everything the run covered and left waiting, started or not: the person cancelled that work.
      // After the stopped attempts ended, so a stage write one of them had begun cannot clear the mark.
      await deps.prep.markCancelled({ jobKeys: [...byKey.values()].map((t) => t.jobKey), ...(discoveryRunId ? { discoveryRunId } : {}), ...(batchId ? { batchId } : {}) });
      return { checked: byKey.size, cancelled: cancelled.length };
    },

    async setRunBlocked({ runId, blocked }) {
      await deps.runs.setBlocked(runId, blocked ? SPEND_CEILING_REACHED_STATUS : null);
      // Raised ceiling (or a new day): paused jobs go on now instead of at their next re-check.
      if (!blocked) await deps.wakePaused(await deps.prep.selectPaused());
    },
  };
}

async function selectTargets(
  deps: PreparationActivityDeps,
  input: PreparationSelection,
  t: number,
): Promise<PreparationTarget[]> {
  const stages = input.stages.map((s) => PENDING_STAGE_OF[s]);
  switch (input.scope) {
    case 'run': {
      // A run covers every job of its selection that is not final for its stages. A job scored
      // against an older profile is not final for a full Score → Tailor → Cover run: it is (or will
      // be) re-prepared — possibly by the profile update's own batch, whose prep-{key} execution this
      // run then attaches to and waits for instead of calling the job done. A run without tailor and
      // cover leaves such jobs alone: re-scoring would discard artifacts it could not rebuild.
      const full = input.stages.includes('score') && input.stages.includes('tailor') && input.stages.includes('cover');
      return deps.prep.selectForPreparation({
        stages,
        ...(input.discoveryRunId ? { runId: input.discoveryRunId } : {}),
        ...(full ? { staleBelowRevision: await deps.profileRevision() } : {}),
      });
    }
    case 'profile_update':
      return deps.prep.selectForPreparation({ stages, staleBelowRevision: input.profileRevision ?? (await deps.profileRevision()) });
    case 'idle_recovery':
      return deps.prep.selectStuck({ stages, revision: await deps.profileRevision(), idleSinceMs: t - deps.settings().recoveryIdleMs });
  }
}
