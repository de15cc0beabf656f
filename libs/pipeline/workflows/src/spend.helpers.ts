import { ActivityFailure, ApplicationFailure, condition, defineSignal, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { PreparationStatusActivities, SpendActivities } from '@jobctrl/pipeline/contracts';
import { activityOptions, LOCAL_CONTROL_TIMEOUTS, retryPolicy, SPEND_BUDGET_CHANGED_SIGNAL, SPEND_CEILING_REACHED } from '@jobctrl/pipeline/contracts';

// The spend preflight is a short control: it runs in the local control lane, never behind model work.
const { checkSpendBudget } = proxyLocalActivities<SpendActivities>({
  ...LOCAL_CONTROL_TIMEOUTS,
  retry: retryPolicy('checkSpendBudget'),
});

const status = proxyActivities<PreparationStatusActivities>(activityOptions('setPreparationStatus'));

const budgetChanged = defineSignal(SPEND_BUDGET_CHANGED_SIGNAL);

/** Workflow-scoped (each execution has its own module state in the sandbox). */
let budgetSignalled = false;

/** Call once at the start of a spendful workflow: a budget signal ends a pause early. */
export function listenForBudgetChanges(): void {
  setHandler(budgetChanged, () => {
    budgetSignalled = true;
  });
}

function isSpendCeiling(err: unknown): boolean {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure && cause.type === SPEND_CEILING_REACHED;
}

/** The spend preflight, for coordinators that show the pause rather than wait in it. */
export function checkBudget(): ReturnType<SpendActivities['checkSpendBudget']> {
  return checkSpendBudget({});
}

/**
 * Runs one spendful step: the preflight stops it before the model call once today's spend has
 * reached the ceiling, and the job waits in the visible spend_ceiling_reached state, re-checking
 * every `recheckSeconds` (or at the day's rollover if that comes first, or at once when a batch
 * signals that the budget is available again), until the ceiling is raised
 * or the day rolls over. The activity's own spend gate can still refuse (another job spent the rest
 * meanwhile); that refusal lands in the same wait instead of failing the job.
 */
export async function spendful<T>(jobKey: string, recheckSeconds: number, step: () => Promise<T>): Promise<T> {
  let paused = false;
  for (;;) {
    const budget = await checkSpendBudget({});
    if (budget.allowed) {
      try {
        // A successful step clears the pause itself (every stage write resets prep_status).
        return await step();
      } catch (err) {
        if (!isSpendCeiling(err)) throw err;
      }
    }
    if (!paused) {
      await status.setPreparationStatus({ jobKey, status: SPEND_CEILING_REACHED });
      paused = true;
    }
    budgetSignalled = false;
    await condition(() => budgetSignalled, Math.min(recheckSeconds * 1000, Math.max(1000, budget.msUntilReset)));
  }
}
