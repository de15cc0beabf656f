import { Context } from '@temporalio/activity';
import type {
  ExtractivePreparationActivities,
  InlinePreparationResult,
  PreparationDone,
  PreparationStage,
  PreparationSteps,
  PreparationTarget,
  StagedPreparationActivities,
} from '@jobctrl/pipeline/contracts';
import { EXTRACTIVE_PROVIDER, PREPARATION_DONE_SIGNAL, prepareInOrder } from '@jobctrl/pipeline/contracts';
import type { JobRecord } from '@jobctrl/shared/jobs';
import type { StoredProfile } from '@jobctrl/shared/profile';

export interface ExtractivePreparationDeps {
  /** This worker's model provider (fixed at start). */
  provider: () => string;
  /**
   * The stage activities themselves (scoring, tailoring, cover letter), called in-process, built on
   * the profile reader they are given: the activity hands them one read of the profile for the job.
   * Built anew for every attempt, so they may hold that attempt's own state (the worker gives them
   * a preparationAttempt job store: each stage starts from the job its previous stage wrote).
   */
  steps: (profile: () => Promise<StoredProfile>) => PreparationSteps;
  /** Reads the stored profile (one SQLite unit of work). */
  profile: () => Promise<StoredProfile>;
  /** Reads the job (one SQLite unit of work): asked only when an attempt starts at pending_cover. */
  readJob: (jobKey: string) => Promise<Pick<JobRecord, 'stage' | 'coverAttempts' | 'coverLetter' | 'coverReview'> | null>;
  /** Signals a batch coordinator (default: through this activity's Temporal client). */
  signalDone?: (workflowId: string, done: PreparationDone) => Promise<void>;
  /**
   * Classifies one job's compensation as the classifyJobCompensation activity does (the worker hands
   * in that activity's own function, run in this activity's context: its heartbeats and
   * cancellation). Absent: a job asked to classify first is prepared without it (pay unknown).
   */
  classifyCompensation?: (input: { jobKey: string; idempotencyKey: string }) => Promise<unknown>;
}

function signalThroughActivityClient(workflowId: string, done: PreparationDone): Promise<void> {
  return Context.current().client.workflow.getHandle(workflowId).signal(PREPARATION_DONE_SIGNAL, done);
}

/**
 * A job's whole preparation as one activity. `prepareJobExtractive`, for jobs started with the
 * extractive provider: the stage activities run one after the other in this attempt, in the workflow's
 * order (prepareInOrder), each reading its fence, writing its own stage and reporting where the job
 * stands, exactly as when each is its own activity. So the job's stages, artifacts and reviews are the
 * same, and a retry after a crash resumes from the stage the job reached. Nothing is charged, so no
 * spend preflight is needed; a worker that now has a model provider does nothing and lets the workflow
 * go on without it.
 *
 * `prepareJobStages`, the same for any provider (the workflow calls it for a model provider, behind
 * one spend preflight): every model call inside a stage still reserves its worst case against the
 * ceiling before it leaves (the LLM runtime's spend gate), and a refusal fails this activity with
 * spend_ceiling_reached, as it fails a stage activity. What it saves is the slot's round trip between
 * two stages: a workflow task, a spend preflight and an activity dispatch, ~100 ms of a 2-core machine
 * each (tools/bench, bench:prepare), during which the slot would hold no model call.
 */
export function createExtractivePreparationActivities(deps: ExtractivePreparationDeps): ExtractivePreparationActivities & StagedPreparationActivities {
  /** A job's stages in order, in this attempt, each a fenced write (see above). */
  const stagesOfJob = async (jobKey: string, stages: PreparationStage[]) => {
    // One read of the profile for the whole job (read when a stage first needs it) instead of one
    // per stage: its stages are then written against one revision, the one its score is for.
    let read: Promise<StoredProfile> | undefined;
    if (stages.includes('score')) {
      // Scoring reads the job (its fence) and then the profile: the profile's read goes out now,
      // beside the job's, instead of after it — one unit of work less on the slot's critical path.
      // Its failure is reported where it is awaited (this branch only keeps it from going unhandled
      // when the attempt ends before scoring asks, e.g. a job that is gone).
      read = deps.profile();
      read.catch(() => undefined);
    }
    const steps = deps.steps(() => (read ??= deps.profile()));
    // An attempt after a crash between a draft and its review (a lost worker, a failed review pair)
    // reviews the draft it finds instead of writing another: no model call and no draft spent twice,
    // as when the review was its own activity and only it was retried. Asked once, only when the
    // attempt started at pending_cover (a job goes there from tailoring with no draft).
    let startedAt: string | undefined;
    let asked = false;
    const draftUnlessUnreviewed = async (i: { jobKey: string }): Promise<{ attempt: number }> => {
      if (!asked && startedAt === 'pending_cover') {
        asked = true;
        const job = await deps.readJob(i.jobKey);
        if (job && job.stage === 'pending_cover' && job.coverAttempts > 0 && job.coverLetter !== null && job.coverReview === null) return { attempt: job.coverAttempts };
      }
      return steps.writeCoverLetter(i);
    };
    return prepareInOrder(jobKey, stages, {
      ...steps,
      scoreJob: async (i) => {
        const scored = await steps.scoreJob(i);
        startedAt = scored.stage;
        return scored;
      },
      writeCoverLetter: draftUnlessUnreviewed,
    });
  };
  const wholeJob = async (jobKey: string, stages: PreparationStage[], notify: { workflowId: string; idempotencyKey: string } | undefined) => {
    const { stage, score } = await stagesOfJob(jobKey, stages);
    // The job's stage is committed: the batch may count it and fill the lane now. Best effort, as
    // the workflow's own signal is (the batch polls a silent job); a retry signals again, which the
    // batch reads as the same report.
    const signal = deps.signalDone ?? signalThroughActivityClient;
    const notified = notify
      ? await signal(notify.workflowId, { idempotencyKey: notify.idempotencyKey, stage, failed: false }).then(
          () => true,
          () => false,
        )
      : false;
    return { stage, score, notified };
  };
  return {
    async prepareJobExtractive({ jobKey, stages, notify, classifyCompensation }) {
      if (deps.provider() !== EXTRACTIVE_PROVIDER) return { extractive: false, stage: 'unknown', score: null, notified: false };
      if (classifyCompensation && deps.classifyCompensation) {
        // As the workflow's own classification step: a failure leaves the pay unknown and the job
        // is scored all the same; only a cancellation of this activity stops it.
        await deps.classifyCompensation({ jobKey, idempotencyKey: classifyCompensation.idempotencyKey }).catch((err: unknown) => {
          if (Context.current().cancellationSignal.aborted) throw err;
        });
      }
      return { extractive: true, ...(await wholeJob(jobKey, stages, notify)) };
    },
    async prepareJobStages({ jobKey, stages, notify }) {
      return wholeJob(jobKey, stages, notify);
    },
    async prepareTargetsExtractive({ jobs, stages, concurrency, budgetMs }) {
      if (deps.provider() !== EXTRACTIVE_PROVIDER) return { extractive: false, done: [], deferred: [], unstarted: jobs };
      return prepareInline(jobs, Math.max(1, concurrency), budgetMs, (job) => stagesOfJob(job.jobKey, stages));
    },
  };
}

/** What a prepareTargetsExtractive attempt heartbeats: the jobs it settled, for a retry to skip. */
type InlineProgress = Pick<InlinePreparationResult, 'done' | 'deferred'>;

/**
 * `concurrency` workers over the jobs, in order, each job prepared by `prepare`. A worker takes no
 * new job once the budget is spent or the activity is cancelled; the jobs it holds finish (their
 * writes are fenced, so a cancelled batch leaves each job in a consistent stage). Each settled job is
 * heartbeated with everything settled so far: a retry of this call (a lost worker) starts from there,
 * and a job that was in flight when the worker died is prepared again from the stage it reached.
 */
async function prepareInline(
  jobs: PreparationTarget[],
  concurrency: number,
  budgetMs: number,
  prepare: (job: PreparationTarget) => Promise<{ stage: string }>,
): Promise<InlinePreparationResult> {
  const ctx = Context.current();
  const previous = ctx.info.heartbeatDetails as InlineProgress | undefined;
  const progress: InlineProgress = { done: [...(previous?.done ?? [])], deferred: [...(previous?.deferred ?? [])] };
  const settled = new Set([...progress.done, ...progress.deferred].map((j) => j.idempotencyKey));
  const queue = jobs.filter((j) => !settled.has(j.idempotencyKey));
  const until = Date.now() + budgetMs;
  const work = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      if (ctx.cancellationSignal.aborted || Date.now() >= until) {
        queue.unshift(job);
        return;
      }
      try {
        const { stage } = await prepare(job);
        progress.done.push({ jobKey: job.jobKey, idempotencyKey: job.idempotencyKey, stage });
      } catch {
        // Whatever failed (a busy database, a job gone, a cancel that reached a stage), the job's
        // own workflow retries it under prepareJobExtractive's policy and reports the outcome.
        progress.deferred.push({ jobKey: job.jobKey, idempotencyKey: job.idempotencyKey });
      }
      ctx.heartbeat(progress);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, work));
  // A cancelled batch is ending: what was settled is heartbeated; the rest is not reported as done.
  if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
  return { extractive: true, ...progress, unstarted: queue };
}
