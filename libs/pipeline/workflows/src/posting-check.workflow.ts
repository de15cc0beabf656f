import { proxyActivities } from '@temporalio/workflow';
import {
  activityOptions,
  type AvailabilitySweepResult,
  type PostingCheckActivities,
  type PostingCheckInput,
  type PostingCheckResult,
} from '@jobctrl/pipeline/contracts';

const { checkPostingAvailability } = proxyActivities<PostingCheckActivities>(activityOptions('checkPostingAvailability'));
const { runAvailabilitySweep } = proxyActivities<PostingCheckActivities>(activityOptions('runAvailabilitySweep'));
const { admitAvailabilitySweep } = proxyActivities<PostingCheckActivities>(activityOptions('availabilityControl'));

/** A foreground check of one job (its acquisition was charged by the API that started it). */
export async function postingCheckWorkflow(input: PostingCheckInput): Promise<PostingCheckResult> {
  return checkPostingAvailability(input);
}

/**
 * One scheduled sweep. Admission is its own short activity so that the sweep id and its admission
 * time are in the history: a retried sweep activity continues the same sweep (its job count and
 * work budget), instead of being refused as a second sweep within the minute.
 */
export async function availabilitySweepWorkflow(): Promise<AvailabilitySweepResult> {
  const admission = await admitAvailabilitySweep();
  if (!admission.admitted) return { sweepId: null, claimed: 0, recorded: 0, rejected: 0, refused: 0, stoppedBy: admission.reason };
  return runAvailabilitySweep({ sweepId: admission.sweepId, admittedAt: admission.admittedAt });
}
