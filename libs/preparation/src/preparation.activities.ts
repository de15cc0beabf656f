import { Context } from '@temporalio/activity';
import type {
  JobPreparationInput,
  JobPreparationResult,
  PipelineActivities,
  PreparationBatchInput,
  PreparationBatchResult,
  PreparationStage,
  PreparationStatusActivities,
  SpendActivities,
  SpendBudget,
} from '@jobctrl/pipeline/contracts';
import { SPEND_CEILING_REACHED } from '@jobctrl/pipeline/contracts';
import type { JobStage, PipelineRunRepository, PreparationRepository, PreparationTarget } from '@jobctrl/shared/jobs';
import { PREPARATION_PENDING_STAGES } from '@jobctrl/shared/jobs';
import { msUntilNextSpendDay, spendDay, type SpendLedgerRepository } from '@jobctrl/shared/llm';

export interface PreparationActivityDeps {
  prep: PreparationRepository;
  runs: PipelineRunRepository;
  ledger: SpendLedgerRepository;
  /** Live settings: a raised ceiling or a provider change applies without a restart of the batch. */
  settings: () => { provider: string; dailySpendCeilingUsd: number; recoveryIdleMs: number };
  /** The current profile revision (profile_update batches also take jobs scored against an older one). */
  profileRevision: () => Promise<number>;
  /**
   * Starts (USE_EXISTING, reuse allowed after completion) and awaits one job's preparation workflow.
   * Injected: the worker starts it through the activity's own Temporal client.
   */
  runPreparation: (job: PreparationTarget, input: JobPreparationInput) => Promise<JobPreparationResult>;
  /** Wakes paused preparations (signal) once the budget is available again; best effort. */
  wakePaused: (jobs: PreparationTarget[]) => Promise<void>;
  clock?: () => number;
}

const STAGE_OF: Record<PreparationStage, JobStage> = { score: 'pending_score', tailor: 'pending_tailor', cover: 'pending_cover' };

/** How often a batch re-checks the budget while it is paused or waiting on jobs. */
const BATCH_BUDGET_POLL_MS = 2000;

/**
 * The preparation control activities: the spend preflight (local control lane), a job's pause
 * state, and the bounded preparation batch behind pipeline runs, profile updates and idle recovery.
 */
export function createPreparationActivities(deps: PreparationActivityDeps): SpendActivities & PreparationStatusActivities & PipelineActivities {
  const now = deps.clock ?? Date.now;

  async function checkSpendBudget(): Promise<SpendBudget> {
    const s = deps.settings();
    const t = now();
    const summary = await deps.ledger.summary(spendDay(t));
    // The extractive provider spends nothing, so the ceiling never stops it (even a 0 ceiling).
    const allowed = s.provider === 'extractive' || summary.totalUsd < s.dailySpendCeilingUsd;
    return { allowed, spentUsd: summary.totalUsd, ceilingUsd: s.dailySpendCeilingUsd, day: summary.day, msUntilReset: msUntilNextSpendDay(t) };
  }

  return {
    checkSpendBudget,

    async setPreparationStatus({ jobKey, status }) {
      await deps.prep.setPrepStatus(jobKey, status);
    },

    async runPreparationBatch(input: PreparationBatchInput): Promise<PreparationBatchResult> {
      const ctx = Context.current();
      const targets = await selectTargets(deps, input, now());
      const mode: JobPreparationInput['mode'] = input.stages.some((s) => s !== 'score') ? 'full' : 'score';
      const result: PreparationBatchResult = { selected: targets.length, completed: 0, failed: 0, stages: {} };
      const queue = [...targets];

      // The run shows spend_ceiling_reached while the budget is exhausted (its jobs wait inside their
      // own workflows); the watcher also heartbeats, so a long wait on one job is not a lost worker.
      let blocked = false;
      const watch = async () => {
        const budget = await checkSpendBudget();
        if (!budget.allowed !== blocked) {
          blocked = !budget.allowed;
          await deps.runs.setBlocked(input.runId, blocked ? SPEND_CEILING_REACHED : null);
          // Raised ceiling (or a new day): paused jobs go on now instead of at their next re-check.
          if (!blocked) await deps.wakePaused(await deps.prep.selectPaused());
        }
        ctx.heartbeat({ completed: result.completed, failed: result.failed, selected: result.selected });
      };
      await watch();
      const watcher = setInterval(() => void watch().catch(() => undefined), BATCH_BUDGET_POLL_MS);

      const prepareOne = async (job: PreparationTarget) => {
        const jobInput: JobPreparationInput = {
          jobKey: job.jobKey,
          idempotencyKey: job.idempotencyKey,
          mode,
          stages: [...input.stages],
          ...(input.spendRecheckSeconds !== undefined ? { spendRecheckSeconds: input.spendRecheckSeconds } : {}),
        };
        // USE_EXISTING may attach to a score-only execution a discovery handoff started; when it
        // leaves the job in a stage this batch selected, start again (same id) to carry it on.
        let outcome = await deps.runPreparation(job, jobInput);
        for (let again = 0; again < 2 && input.stages.some((s) => STAGE_OF[s] === outcome.stage); again++) {
          outcome = await deps.runPreparation(job, jobInput);
        }
        return outcome;
      };

      const worker = async () => {
        for (let job = queue.shift(); job && !ctx.cancellationSignal.aborted; job = queue.shift()) {
          try {
            const outcome = await prepareOne(job);
            result.completed += 1;
            result.stages[outcome.stage] = (result.stages[outcome.stage] ?? 0) + 1;
          } catch (err) {
            if (ctx.cancellationSignal.aborted) throw err;
            result.failed += 1;
          }
          ctx.heartbeat({ completed: result.completed, failed: result.failed, selected: result.selected });
        }
      };
      try {
        // pipeline_internal_concurrency (snapshotted at run start) bounds the jobs in preparation at once.
        await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, targets.length)) }, worker));
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? new Error('cancelled');
      } finally {
        clearInterval(watcher);
        if (blocked) await deps.runs.setBlocked(input.runId, null);
      }
      return result;
    },
  };
}

async function selectTargets(deps: PreparationActivityDeps, input: PreparationBatchInput, t: number): Promise<PreparationTarget[]> {
  const stages = input.stages.map((s) => STAGE_OF[s]);
  switch (input.scope) {
    case 'run':
      return deps.prep.selectForPreparation({ stages, ...(input.discoveryRunId ? { runId: input.discoveryRunId } : {}) });
    case 'profile_update':
      return deps.prep.selectForPreparation({ stages, staleBelowRevision: input.profileRevision ?? (await deps.profileRevision()) });
    case 'idle_recovery':
      return deps.prep.selectForPreparation({
        stages: PREPARATION_PENDING_STAGES.filter((s) => stages.includes(s)),
        staleBelowRevision: await deps.profileRevision(),
        idleSinceMs: t - deps.settings().recoveryIdleMs,
      });
  }
}
