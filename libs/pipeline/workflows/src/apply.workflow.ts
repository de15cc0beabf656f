import { ApplicationFailure, CancellationScope, proxyActivities } from '@temporalio/workflow';
import { activityOptions, type ApplyActivities, type ApplyInput, type ApplyResult, type PostingCheckActivities } from '@jobctrl/pipeline/contracts';

const { applyToJob } = proxyActivities<ApplyActivities>(activityOptions('applyToJob'));
const { endApplication } = proxyActivities<ApplyActivities>(activityOptions('applyControl'));
const { checkPostingAvailability } = proxyActivities<PostingCheckActivities>(activityOptions('checkPostingAvailability'));

/**
 * ApplyWorkflow `apply-{tenant}-{jobKey}`: single-flight per job (the id, USE_EXISTING at the API,
 * and applyToJob's one attempt). A posting without a fresh `open` check is checked first; the
 * attempt's own admission, under the writer, then decides. When the attempt is lost (worker killed)
 * or the workflow is cancelled, endApplication records how it ended — `needs_verification` if a
 * submit intent was recorded — and nothing is retried.
 */
export async function applyWorkflow(input: ApplyInput): Promise<ApplyResult> {
  try {
    if (input.checkAvailabilityFirst) await checkPostingAvailability({ jobKey: input.jobKey });
    return await applyToJob(input);
  } catch (err) {
    const reason = err instanceof ApplicationFailure && err.type ? err.type : err instanceof Error ? rootMessage(err) : String(err);
    await CancellationScope.nonCancellable(() => endApplication({ tenant: input.tenant, jobKey: input.jobKey, reason }));
    throw err;
  }
}

function rootMessage(err: Error): string {
  let e: Error = err;
  while ((e as { cause?: unknown }).cause instanceof Error) e = (e as { cause: Error }).cause;
  return e.message;
}
