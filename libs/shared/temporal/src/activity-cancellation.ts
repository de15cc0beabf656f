import { CancelledFailure } from '@temporalio/common';

/**
 * What an activity throws once its cancellation signal has fired, whatever the interruption surfaced
 * as (an aborted fetch or host-policy wait, a page render, a sleep): the typed CancelledFailure, so
 * the SDK reports the attempt cancelled and the workflow sees a clean stop, never a failure that
 * would be recorded against the run (e.g. in families_failed) or retried.
 */
export function cancelledFailureOf(err: unknown, message: string): CancelledFailure {
  return err instanceof CancelledFailure ? err : new CancelledFailure(message, [], err instanceof Error ? err : undefined);
}
