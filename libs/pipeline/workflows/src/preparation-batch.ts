import { CancellationScope, condition, ContinueAsNew, continueAsNew, defineSignal, isCancellation, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type {
  ActivePreparation,
  DiscoverWorkflowResult,
  ExtractivePreparationActivities,
  JobPipelineInput,
  PreparationBatchActivities,
  PreparationBatchResult,
  PreparationBatchState,
  PreparationDone,
  PreparationPoll,
  PreparationSelection,
  PreparationStage,
} from '@jobctrl/pipeline/contracts';
import { activityOptions, discoverWorkflowId, EXTRACTIVE_PROVIDER, PENDING_STAGE_OF, PREPARATION_DONE_SIGNAL } from '@jobctrl/pipeline/contracts';
import { cancelOwnPreparations } from './cancellation.helpers';
import { checkBudget } from './spend.helpers';
import {
  PREP_BATCH_INLINE_EXTRACTIVE_PATCH,
  PREP_BATCH_OVERLAP_PATCH,
  PREP_BATCH_PAGED_PATCH,
  PREP_BATCH_RELEASE_ON_END_PATCH,
  PREP_BATCH_SPEND_FREE_PATCH,
  PREP_BATCH_THROTTLED_PROGRESS_PATCH,
} from '@jobctrl/pipeline/contracts';

const control = proxyActivities<PreparationBatchActivities>(activityOptions('preparationBatchControl'));

const inline = proxyActivities<Pick<ExtractivePreparationActivities, 'prepareTargetsExtractive'>>(activityOptions('prepareTargetsExtractive'));

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
/** An inline call takes no new job after this long, so the run's progress moves at least this often. */
const INLINE_BUDGET_MS = 2_000;
/** Jobs handed to one inline call, per unit of internal concurrency (more than its budget usually allows). */
const INLINE_JOBS_PER_LANE = 32;

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
  inlineAware: () => boolean = () => patched(PREP_BATCH_INLINE_EXTRACTIVE_PATCH),
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
  // A full batch's jobs (score → tailor → cover; profile updates, recovery, manual runs over stored
  // jobs) are prepared inside the batch's own activity while the worker's provider is the extractive
  // one: nothing can be spent, so a workflow per job (a start, two workflow tasks and two activity
  // dispatches, about half the CPU of such a job) buys nothing. Never for a run that discovers: its
  // jobs may still be in the prep-{key} executions its handoff started, which the per-job path joins
  // instead of preparing them a second time. Asked once, as overlapped(); a call that finds a model
  // provider turns it off for this execution, and the per-job path (with its spend preflight) goes on.
  let inlineOn = inlineAware() && !pipeline.stages.includes('discover') && stages.includes('score') && stages.includes('tailor') && stages.includes('cover');
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

  try {
    while (state.queue.length > 0 || state.active.length > 0 || unread(state)) {
      if (!(inlineOn && state.active.length === 0 && (await inlineRound()))) await perJobRound();

      if (workflowInfo().historyLength > (pipeline.batchHistoryLimit ?? HISTORY_LIMIT) && (state.queue.length > 0 || state.active.length > 0 || unread(state))) {
        if (progressDue) await reportProgress(runId, state);
        await continueAsNew<(i: JobPipelineInput) => Promise<unknown>>({ ...pipeline, resume: { batch: state, ...(discover ? { discover } : {}) } });
      }
    }
  } catch (err) {
    // Continue-as-new leaves through this throw too: the chain goes on and keeps its selection.
    if (err instanceof ContinueAsNew) throw err;
    await CancellationScope.nonCancellable(async () => {
      // A cancelled batch stops the jobs it started and is waiting for (its lanes: at most
      // internalConcurrency executions) and, in a run that discovered, what that discovery handed off
      // (its discover-{runId} child ended, its score-only executions may still run); an execution
      // another run or path started is not this run's to stop.
      if (isCancellation(err)) {
        const discovered = pipeline.stages.includes('discover');
        await cancelOwnPreparations({
          jobs: [...state.active, ...state.queue].map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey })),
          ...(state.cursor !== undefined ? { batchId } : {}),
          ...(discovered ? { discoveryRunId: runId, alsoOwners: [discoverWorkflowId(runId)] } : {}),
        });
      }
      // The frozen selection is the batch's alone: a cancelled or failed batch drops it as a finished one does.
      // Its own failure must not replace the batch's (the recovery tick sweeps what is left behind).
      if (state.cursor !== undefined && patched(PREP_BATCH_RELEASE_ON_END_PATCH)) await control.releasePreparationTargets({ batchId }).catch(() => undefined);
    });
    throw err;
  }
  if (progressDue) await reportProgress(runId, state);
  if (state.blocked) await control.setRunBlocked({ runId: runId, blocked: false });
  if (state.cursor !== undefined) await control.releasePreparationTargets({ batchId });
  return state.result;

  /** Tops the queue up from the frozen selection when it holds fewer than `want` targets. */
  async function refill(want: number): Promise<void> {
    if (state.queue.length >= want || !unread(state)) return;
    const page = await control.readPreparationTargets({ batchId, afterSeq: state.cursor ?? 0, limit: pipeline.batchPageSize ?? PAGE });
    state.queue.push(...page.map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey })));
    // An empty page means the frozen rows are gone (released elsewhere): nothing more to read.
    state.cursor = page.length > 0 ? page[page.length - 1].seq : state.result.selected;
  }

  /** Counts a job that left the batch, by how and in which stage it ended. */
  function settle(failed: boolean, stage: string): void {
    state.result[failed ? 'failed' : 'completed'] += 1;
    state.result.stages[stage] = (state.result.stages[stage] ?? 0) + 1;
  }

  /**
   * The queue's leading fresh targets (never started by this batch) prepared in one
   * prepareTargetsExtractive call. False when there were none, or the worker has a model provider
   * (then this execution goes on with a workflow per job).
   */
  async function inlineRound(): Promise<boolean> {
    const lanes = Math.max(1, pipeline.internalConcurrency);
    await refill(lanes * INLINE_JOBS_PER_LANE);
    const fresh = state.queue.findIndex((t) => 'starts' in t);
    const take = Math.min(fresh === -1 ? state.queue.length : fresh, lanes * INLINE_JOBS_PER_LANE);
    if (take === 0) return false;
    const jobs = state.queue.splice(0, take);
    const r = await inline.prepareTargetsExtractive({ jobs, stages, concurrency: lanes, budgetMs: INLINE_BUDGET_MS });
    if (!r.extractive) {
      inlineOn = false;
      state.queue.unshift(...jobs);
      return false;
    }
    // A failed job, or one still waiting for a selected stage (someone else moved it mid-way), gets a
    // workflow of its own: started like any other, counted when it ends. Unstarted ones stay fresh.
    const again: ActivePreparation[] = [
      ...r.deferred.map((t) => ({ ...t, starts: 0 })),
      ...r.done.filter((d) => selected.has(d.stage)).map(({ jobKey, idempotencyKey }) => ({ jobKey, idempotencyKey, starts: 0 })),
    ];
    state.queue.unshift(...r.unstarted, ...again);
    const doneBefore = state.result.completed + state.result.failed;
    for (const d of r.done) if (!selected.has(d.stage)) settle(false, d.stage);
    // Nothing inline can spend: a pause shown for an earlier round is over.
    if (state.blocked) {
      state.blocked = false;
      await control.setRunBlocked({ runId, blocked: false });
    }
    if (state.result.completed + state.result.failed !== doneBefore) {
      progressDue = true;
      if (Date.now() - progressAt >= progressEvery || (state.queue.length === 0 && !unread(state))) {
        progressAt = Date.now();
        progressDue = false;
        await reportProgress(runId, state);
      }
    }
    return true;
  }

  /** Starts jobs into the free lanes and waits for one of them to end (the coordinator's own round). */
  async function perJobRound(): Promise<void> {
    if (!(skipPreflightWhenSpendFree && spendFree && !state.blocked)) {
      const budget = await checkBudget();
      if (budget.allowed === state.blocked) {
        state.blocked = !budget.allowed;
        await control.setRunBlocked({ runId: runId, blocked: state.blocked });
      }
    }

    const room = Math.max(1, pipeline.internalConcurrency) - state.active.length;
    await refill(room);
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
        settle(poll.failed, poll.stage);
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
  }
}

/** A paged batch has targets in its frozen selection that it has not read yet. */
function unread(state: PreparationBatchState): boolean {
  return state.cursor !== undefined && state.cursor < state.result.selected;
}

function reportProgress(runId: string, state: PreparationBatchState): Promise<void> {
  const { selected, completed, failed } = state.result;
  return control.recordPreparationProgress({ runId, selected, completed, failed });
}
