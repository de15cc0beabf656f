import { condition, continueAsNew, defineSignal, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type {
  ActivePreparation,
  DiscoverWorkflowResult,
  JobPipelineInput,
  PreparationBatchActivities,
  PreparationBatchResult,
  PreparationBatchState,
  PreparationDone,
  PreparationPoll,
  PreparationSelection,
  PreparationStage,
} from '@jobctrl/pipeline/contracts';
import { activityOptions, EXTRACTIVE_PROVIDER, PENDING_STAGE_OF, PREPARATION_DONE_SIGNAL } from '@jobctrl/pipeline/contracts';
import { checkBudget } from './spend.helpers';
import { PREP_BATCH_OVERLAP_PATCH, PREP_BATCH_PAGED_PATCH, PREP_BATCH_SPEND_FREE_PATCH, PREP_BATCH_THROTTLED_PROGRESS_PATCH } from '@jobctrl/pipeline/contracts';

const control = proxyActivities<PreparationBatchActivities>(activityOptions('preparationBatchControl'));

/** Fallback poll: a started job's own signal usually ends the wait sooner. */
const POLL_MS = 5_000;
/** Continue-as-new before the history gets long (Temporal's hard limit is 51,200 events). */
const HISTORY_LIMIT = 8_000;
/** A job whose execution closed while still in a selected stage is started again at most this often. */
const MAX_STARTS = 3;
/** Targets read from the frozen selection at a time: bounds workflow state and continue-as-new input. */
const PAGE = 100;
/** Least time between two progress writes while jobs keep finishing. */
const PROGRESS_INTERVAL_MS = 1_000;

const preparationDone = defineSignal<[PreparationDone]>(PREPARATION_DONE_SIGNAL);

/**
 * The preparation batch's coordinator: it starts the selected jobs' prep-{key} workflows
 * `concurrency` at a time and waits for them on a timer and their done signals — never inside an
 * activity, so a batch (or several) cannot hold the activity slots its own jobs need. The run shows
 * spend_ceiling_reached while the budget is exhausted; jobs pause in their own workflows.
 */
export async function runPreparationBatch(
  pipeline: JobPipelineInput,
  stages: PreparationStage[],
  discover?: DiscoverWorkflowResult,
  overlapped: () => boolean = () => patched(PREP_BATCH_OVERLAP_PATCH),
  throttled: () => boolean = () => patched(PREP_BATCH_THROTTLED_PROGRESS_PATCH),
  spendFreeAware: () => boolean = () => patched(PREP_BATCH_SPEND_FREE_PATCH),
): Promise<PreparationBatchResult> {
  const { runId, spendRecheckSeconds } = pipeline;
  // A finished job used to cost its lane two activity round trips before the next job started: the
  // progress write, then the start. Overlapped, the write rides along with the start (both at once).
  // Asked once, before the first command, so every execution of the chain decides the same way.
  const overlap = overlapped();
  // Throttled: while jobs keep finishing, at most one progress write per interval instead of one
  // activity per finished job (a fast extractive batch finishes many jobs a second); a write held
  // back goes out at a later round — at the latest after the next poll interval — and the last
  // counts always go out. Workflow time (Date.now() in a workflow) is deterministic.
  const throttle = overlap && throttled();
  const progressEvery = throttle ? (pipeline.batchProgressIntervalMs ?? PROGRESS_INTERVAL_MS) : 0;
  let progressAt = Date.now();
  let progressDue = false;
  // The spend preflight of each round only decides whether the run shows the spend pause. Jobs the
  // last start captured the extractive provider for cannot spend (spendCeilingReached exempts it), so
  // while the run is not shown paused the check could only answer "allowed": skipped, one local
  // activity and one ledger read less per round (per finished job, at one lane). The first round
  // checks, and so does every round after a start that reports another provider (a live provider
  // change) or none (an activity from before this marker). Asked once, as overlapped().
  const skipPreflightWhenSpendFree = spendFreeAware();
  let spendFree = false;
  const resume = pipeline.resume?.batch;
  // How the jobs this batch started ended, as they reported it (a job attached to an execution
  // another path started reports nothing and is found by the poll).
  const reported = new Map<string, PreparationDone>();
  setHandler(preparationDone, (done) => {
    reported.set(done.idempotencyKey, done);
  });

  const selection: PreparationSelection = {
    scope: pipeline.scope,
    stages,
    // A run that discovers prepares its own jobs; otherwise every job pending a selected stage.
    ...(pipeline.stages.includes('discover') ? { discoveryRunId: runId } : {}),
    ...(pipeline.profileRevision !== undefined ? { profileRevision: pipeline.profileRevision } : {}),
  };
  // The batch is the continue-as-new chain: its frozen selection is named by the first execution.
  const batchId = `${workflowInfo().workflowId}/${workflowInfo().firstExecutionRunId}`;
  let state: PreparationBatchState;
  if (resume) {
    state = resume;
  } else {
    const fresh = { active: [], result: { selected: 0, completed: 0, failed: 0, stages: {} }, blocked: false };
    if (patched(PREP_BATCH_PAGED_PATCH)) {
      // The selection lives in SQLite; the workflow holds one page of it at a time.
      const { selected } = await control.freezePreparationTargets({ ...selection, batchId });
      state = { ...fresh, queue: [], cursor: 0, result: { ...fresh.result, selected } };
    } else {
      const queue = await control.selectPreparationTargets(selection);
      state = { ...fresh, queue, result: { ...fresh.result, selected: queue.length } };
    }
    await reportProgress(runId, state);
  }
  const selected = new Set<string>(stages.map((s) => PENDING_STAGE_OF[s]));
  const notifyWorkflowId = workflowInfo().workflowId;

  while (state.queue.length > 0 || state.active.length > 0 || unread(state)) {
    if (!(skipPreflightWhenSpendFree && spendFree && !state.blocked)) {
      const budget = await checkBudget();
      if (budget.allowed === state.blocked) {
        state.blocked = !budget.allowed;
        await control.setRunBlocked({ runId: runId, blocked: state.blocked });
      }
    }

    const room = Math.max(1, pipeline.internalConcurrency) - state.active.length;
    if (state.queue.length < room && unread(state)) {
      const page = await control.readPreparationTargets({ batchId, afterSeq: state.cursor ?? 0, limit: pipeline.batchPageSize ?? PAGE });
      state.queue.push(...page.map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey })));
      // An empty page means the frozen rows are gone (released elsewhere): nothing more to read.
      state.cursor = page.length > 0 ? page[page.length - 1].seq : state.result.selected;
    }
    const starting: ActivePreparation[] = state.queue.splice(0, Math.max(0, room)).map((t) => ({ ...t, starts: 'starts' in t ? (t as ActivePreparation).starts : 0 }));
    for (const job of starting) reported.delete(job.idempotencyKey);
    const writeProgress = progressDue && Date.now() - progressAt >= progressEvery;
    if (writeProgress) progressAt = Date.now();
    const [, started] = await Promise.all([
      writeProgress ? reportProgress(runId, state) : undefined,
      starting.length > 0
        ? control.startPreparations({
            jobs: starting.map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey })),
            stages,
            notifyWorkflowId,
            ...(spendRecheckSeconds !== undefined ? { spendRecheckSeconds } : {}),
          })
        : undefined,
    ]);
    if (starting.length > 0) spendFree = started ? started.provider === EXTRACTIVE_PROVIDER : false;
    if (writeProgress) progressDue = false;
    state.active.push(...starting.map((j) => ({ ...j, starts: j.starts + 1 })));

    const doneBefore = state.result.completed + state.result.failed;
    const isReported = (job: ActivePreparation) => reported.has(job.idempotencyKey);
    const timedOut = !(await condition(() => state.active.some(isReported), POLL_MS));
    const closed = new Map<string, Pick<PreparationPoll, 'failed' | 'stage'>>();
    for (const job of state.active.filter(isReported)) {
      const done = reported.get(job.idempotencyKey) as PreparationDone;
      closed.set(job.idempotencyKey, { failed: done.failed, stage: done.stage ?? 'unknown' });
    }
    // Silence for a whole poll interval: ask Temporal about the jobs that did not report.
    if (timedOut) {
      const silent = state.active.filter((job) => !isReported(job)).map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey }));
      for (const poll of await control.pollPreparations({ jobs: silent })) if (poll.closed) closed.set(poll.idempotencyKey, poll);
    }
    const stillActive: ActivePreparation[] = [];
    for (const job of state.active) {
      const poll = closed.get(job.idempotencyKey);
      if (!poll) {
        stillActive.push(job);
      } else if (!poll.failed && selected.has(poll.stage) && job.starts < MAX_STARTS) {
        // USE_EXISTING attached to an execution another path started (e.g. discovery's score-only
        // handoff); the job still has selected work, so it goes round again under the same id.
        state.queue.unshift(job);
      } else {
        state.result[poll.failed ? 'failed' : 'completed'] += 1;
        state.result.stages[poll.stage] = (state.result.stages[poll.stage] ?? 0) + 1;
      }
    }
    const finished = state.result.completed + state.result.failed;
    state.active = stillActive;
    if (finished !== doneBefore) {
      // Overlapped: written at the top of the next round, beside the starts that refill the lanes
      // (or below, when nothing is left to start).
      if (overlap && (state.queue.length > 0 || unread(state))) progressDue = true;
      else {
        await reportProgress(runId, state);
        progressDue = false;
      }
    }

    if (workflowInfo().historyLength > (pipeline.batchHistoryLimit ?? HISTORY_LIMIT) && (state.queue.length > 0 || state.active.length > 0 || unread(state))) {
      if (progressDue) await reportProgress(runId, state);
      await continueAsNew<(i: JobPipelineInput) => Promise<unknown>>({ ...pipeline, resume: { batch: state, ...(discover ? { discover } : {}) } });
    }
  }
  if (progressDue) await reportProgress(runId, state);
  if (state.blocked) await control.setRunBlocked({ runId: runId, blocked: false });
  if (state.cursor !== undefined) await control.releasePreparationTargets({ batchId });
  return state.result;
}

/** A paged batch has targets in its frozen selection that it has not read yet. */
function unread(state: PreparationBatchState): boolean {
  return state.cursor !== undefined && state.cursor < state.result.selected;
}

function reportProgress(runId: string, state: PreparationBatchState): Promise<void> {
  const { selected, completed, failed } = state.result;
  return control.recordPreparationProgress({ runId, selected, completed, failed });
}
