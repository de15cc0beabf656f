/**
 * ETA = remaining domain work ÷ observed throughput — and a refusal, with the reason, whenever that
 * division would be a guess (spec: the estimator "refuses to divide domain work by nominal slots when
 * runtime telemetry is stale or shared queue contention cannot be bounded").
 */
export interface EtaInput {
  capacityStatus: 'fresh' | 'stale' | 'missing';
  /** Remote activities our fresh workers completed in their trailing windows, and those windows. */
  completed: number;
  windowSeconds: number;
  /** Remaining work items reported by the pipeline stages; null when no stage reports any. */
  remainingWork: number | null;
  activityQueue: { status: string; pollerIdentities: string[] };
  /** Identities of our fresh workers (a poller that is not one of them is a contender we cannot bound). */
  workerIdentities: string[];
}

export type Eta =
  | { status: 'estimated'; remainingWork: number; throughputPerMinute: number; etaSeconds: number }
  | { status: 'idle'; remainingWork: 0; etaSeconds: 0 }
  | { status: 'refused'; reason: string; remainingWork: number | null };

/** Below this window the completion rate is noise, not a throughput. */
const MIN_WINDOW_SECONDS = 60;

export function estimateEta(input: EtaInput): Eta {
  const refuse = (reason: string): Eta => ({ status: 'refused', reason, remainingWork: input.remainingWork });
  if (input.capacityStatus !== 'fresh') return refuse(`runtime telemetry is ${input.capacityStatus}: no fresh worker heartbeat`);
  if (input.activityQueue.status !== 'ok') {
    return refuse(`task-queue statistics are ${input.activityQueue.status}: shared queue contention cannot be bounded`);
  }
  if (input.remainingWork === null) return refuse('no pipeline stage reports remaining work');
  if (input.remainingWork === 0) return { status: 'idle', remainingWork: 0, etaSeconds: 0 };
  const ours = new Set(input.workerIdentities);
  const foreign = input.activityQueue.pollerIdentities.filter((id) => !ours.has(id));
  if (foreign.length > 0) {
    return refuse(`the activity queue has ${foreign.length} poller(s) without a fresh heartbeat for this database: shared queue contention cannot be bounded`);
  }
  if (input.windowSeconds < MIN_WINDOW_SECONDS) return refuse(`throughput has been observed for only ${input.windowSeconds} s`);
  if (input.completed === 0) return refuse('no activity completed in the observation window');
  const perSecond = input.completed / input.windowSeconds;
  return {
    status: 'estimated',
    remainingWork: input.remainingWork,
    throughputPerMinute: Math.round(perSecond * 60 * 100) / 100,
    etaSeconds: Math.ceil(input.remainingWork / perSecond),
  };
}
