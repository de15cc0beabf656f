import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptors, ActivityInterceptorsFactory } from '@temporalio/worker';
import { ActivityGauge } from './activity-gauge';

export const ACTIVITY_TRANSACTION_UNFINISHED = 'activity_transaction_unfinished';
export const LOCAL_CONTROL_NOT_ALLOWED = 'local_control_not_allowed';

export interface ActivityInterceptorOptions {
  gauge: ActivityGauge;
  /** Activity names allowed on the local control lane (the spec's explicit allowlist). */
  localControlAllowlist: readonly string[];
}

/**
 * One inbound interceptor for every activity on the worker:
 * - counts active remote and local activities (exact, argument-blind);
 * - keeps the local control lane to its allowlist, so model work cannot bypass the remote slot limit;
 * - turns an unfinished SQLite transaction into the non-retryable `activity_transaction_unfinished`
 *   failure instead of letting the activity claim its result was saved.
 */
export function createActivityInterceptors(opts: ActivityInterceptorOptions): ActivityInterceptorsFactory {
  return (ctx: Context): ActivityInterceptors => ({
    inbound: {
      async execute(input, next) {
        const { isLocal, activityType } = ctx.info;
        if (isLocal && !opts.localControlAllowlist.includes(activityType)) {
          throw ApplicationFailure.create({
            type: LOCAL_CONTROL_NOT_ALLOWED,
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
        try {
          return await next(input);
        } catch (err) {
          throw toActivityFailure(err);
        } finally {
          exit();
        }
      },
    },
  });
}

function toActivityFailure(err: unknown): unknown {
  if (err instanceof Error && (err as { code?: unknown }).code === ACTIVITY_TRANSACTION_UNFINISHED) {
    return ApplicationFailure.create({
      type: ACTIVITY_TRANSACTION_UNFINISHED,
      nonRetryable: true,
      message: err.message,
      cause: err,
    });
  }
  return err;
}
