/**
 * The smoke workflow proves the deployed worker end to end: the task queue, the remote activity slot
 * limit and the local control lane. It fans out `activities` remote holds at once; Temporal may only
 * run `worker_activity_slots` of them concurrently per worker, and each hold reports how many remote
 * activities were running on its worker when it started.
 */
export const SMOKE_WORKFLOW_TYPE = 'smokeWorkflow';

export interface SmokeWorkflowInput {
  /** How many remote activities to start at once (1..64). */
  activities: number;
  /** How long each activity holds its slot while heartbeating, in ms (0..60000). */
  holdMs: number;
  tenant?: string;
}

export interface SmokeHoldInput {
  index: number;
  holdMs: number;
}

export interface SmokeHoldResult {
  index: number;
  /** Remote activities running on this worker (this one included) when the hold started. */
  observedActive: number;
  /** Peak remote activities running on this worker while this hold held its slot. */
  peakActive: number;
  workerIdentity: string;
}

export interface SmokeWorkflowResult {
  completed: number;
  /** Highest concurrency any hold observed on its worker: at most worker_activity_slots. */
  maxObservedActive: number;
  workers: string[];
}

export interface SmokeActivities {
  smokeHold(input: SmokeHoldInput): Promise<SmokeHoldResult>;
}

export function validateSmokeInput(input: SmokeWorkflowInput): string[] {
  const errors: string[] = [];
  if (!Number.isInteger(input.activities) || input.activities < 1 || input.activities > 64) {
    errors.push(`activities = ${JSON.stringify(input.activities)}: must be an integer from 1 to 64`);
  }
  if (!Number.isInteger(input.holdMs) || input.holdMs < 0 || input.holdMs > 60_000) {
    errors.push(`holdMs = ${JSON.stringify(input.holdMs)}: must be an integer from 0 to 60000`);
  }
  return errors;
}
