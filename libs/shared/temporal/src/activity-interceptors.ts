import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptors, ActivityInterceptorsFactory } from '@temporalio/worker';
import { ErrorCodes } from '@jobctrl/shared/errors';
import { ActivityGauge } from './activity-gauge';
import type { ActivityStops } from './activity-stops';

export interface ActivityInterceptorOptions {
  gauge: ActivityGauge;
  /** Activity names allowed on the local control lane (the spec's explicit allowlist). */
  localControlAllowlist: readonly string[];
  /** Upper bound of the liveness heartbeat period (default 2 s; a third of the heartbeat timeout when shorter). */
  livenessHeartbeatMaxIntervalMs?: number;
  /** This process's stops by workflow id (see ActivityStops); none: activities learn of a cancel by heartbeat only. */
  stops?: ActivityStops;
}

/**
 * Also how soon a cancel reaches an activity that only waits (cancels ride on heartbeat responses), so
 * it matches the worker's maxHeartbeatThrottleInterval: one heartbeat RPC per running activity every 2 s.
 */
const LIVENESS_HEARTBEAT_MAX_INTERVAL_MS = 2_000;

/**
 * One inbound interceptor for every activity on the worker:
 * - counts active remote and local activities (exact, argument-blind);
 * - keeps the local control lane to its allowlist, so model work cannot bypass the remote slot limit;
 * - turns an unfinished SQLite transaction into the non-retryable `activity_transaction_unfinished`
 *   failure instead of letting the activity claim its result was saved;
 * - heartbeats on a timer while a remote activity with a heartbeat timeout runs (see
 *   `startLivenessHeartbeats`), so the heartbeat timeout detects a dead worker, not a slow board;
 * - folds this process's stop of the activity's workflow (ActivityStops) into its cancellation signal.
 */
export function createActivityInterceptors(opts: ActivityInterceptorOptions): ActivityInterceptorsFactory {
  return (ctx: Context): ActivityInterceptors => ({
    inbound: {
      async execute(input, next) {
        const { isLocal, activityType } = ctx.info;
        if (isLocal && !opts.localControlAllowlist.includes(activityType)) {
          throw ApplicationFailure.create({
            type: ErrorCodes.localControlNotAllowed,
            nonRetryable: true,
            message: `activity ${activityType} is not on the local control allowlist (${opts.localControlAllowlist.join(', ')}); schedule it as a remote activity`,
          });
        }
        // Only SDK metadata is passed on: the telemetry never sees activity arguments.
        const exit = opts.gauge.enter({
          isLocal,
          activityType,
          workflowId: ctx.info.workflowExecution?.workflowId,
          runId: ctx.info.workflowExecution?.runId,
          workflowType: ctx.info.workflowType,
          attempt: ctx.info.attempt,
        });
        const stopHeartbeats = startLivenessHeartbeats(ctx, opts.livenessHeartbeatMaxIntervalMs ?? LIVENESS_HEARTBEAT_MAX_INTERVAL_MS);
        const leaveStops = watchLocalStop(ctx, opts.stops);
        try {
          return await next(input);
        } catch (err) {
          throw toActivityFailure(err);
        } finally {
          leaveStops();
          stopHeartbeats();
          exit();
        }
      },
    },
  });
}

/**
 * Liveness heartbeats, independent of progress. Activities used to heartbeat only when they made
 * progress, so a host cooldown, a Retry-After or a slow model call longer than the heartbeat timeout
 * timed a healthy attempt out and started a second one beside it. While the activity runs, this
 * beats every min(heartbeat timeout / 3, maxIntervalMs) — the heartbeat timeout then measures only
 * whether the worker holding the attempt is alive, and the heartbeat responses keep delivering
 * cancellation to `Context.cancellationSignal` even while the activity waits.
 *
 * Each beat re-sends the last details the activity reported itself (at first those of the previous
 * attempt), because the server keeps only the latest details: a bare timer beat would erase the
 * checkpoint a retry resumes from. Beats stop once the attempt is cancelled; what ends it from
 * there is its own completion or its start-to-close timeout.
 */
function startLivenessHeartbeats(ctx: Context, maxIntervalMs: number): () => void {
  const timeoutMs = ctx.info.heartbeatTimeoutMs;
  if (ctx.info.isLocal || !timeoutMs) return () => undefined;
  const send = ctx.heartbeat;
  let details: unknown = ctx.info.heartbeatDetails;
  // Context.heartbeat is readonly in the SDK's types; replacing it on this attempt's own context is
  // the only way to learn the details the activity reports.
  Object.defineProperty(ctx, 'heartbeat', {
    configurable: true,
    value: (next?: unknown) => {
      details = next;
      send(next);
    },
  });
  const timer = setInterval(() => {
    if (!ctx.cancellationSignal.aborted) send(details);
  }, Math.max(1, Math.min(timeoutMs / 3, maxIntervalMs)));
  return () => clearInterval(timer);
}

/**
 * A remote activity's cancellation signal also fires when a control in this process stops its
 * workflow (ActivityStops): the signal every wait and model call of the activity already honours.
 * Local controls are not stopped this way (they are the ones doing the stopping).
 */
function watchLocalStop(ctx: Context, stops: ActivityStops | undefined): () => void {
  const workflowId = ctx.info.workflowExecution?.workflowId;
  if (!stops || ctx.info.isLocal || !workflowId) return () => undefined;
  const entry = stops.enter(workflowId);
  const sdk = ctx.cancellationSignal;
  // Forwarded by hand rather than with AbortSignal.any: a composed signal is held weakly by its
  // sources and its abort did not reliably reach fetch listeners added later (Node 20).
  const either = new AbortController();
  const forward = (from: AbortSignal) => () => either.abort(from.reason);
  const fromSdk = forward(sdk);
  const fromStop = forward(entry.signal);
  if (sdk.aborted) either.abort(sdk.reason);
  sdk.addEventListener('abort', fromSdk, { once: true });
  entry.signal.addEventListener('abort', fromStop, { once: true });
  // Context.cancellationSignal is readonly in the SDK's types; this attempt's own context is the only
  // place every activity reads it from.
  Object.defineProperty(ctx, 'cancellationSignal', { configurable: true, value: either.signal });
  return () => {
    sdk.removeEventListener('abort', fromSdk);
    entry.signal.removeEventListener('abort', fromStop);
    entry.exit();
  };
}

function toActivityFailure(err: unknown): unknown {
  if (err instanceof Error && (err as { code?: unknown }).code === ErrorCodes.activityTransactionUnfinished) {
    return ApplicationFailure.create({
      type: ErrorCodes.activityTransactionUnfinished,
      nonRetryable: true,
      message: err.message,
      cause: err,
    });
  }
  return err;
}
