import { ErrorCodes } from '@jobctrl/shared/errors';

/**
 * A unit of work returned successfully but left a transaction open. Its writes were rolled back, so
 * reporting success would claim a result that was never saved; the spec's error code lets the
 * activity layer classify it like any other activity failure.
 */
export class TransactionUnfinishedError extends Error {
  override readonly name = 'TransactionUnfinishedError';
  readonly code = ErrorCodes.activityTransactionUnfinished;

  constructor(readonly databasePath: string) {
    super(
      `unit of work on ${databasePath} returned with an open transaction; its uncommitted writes were rolled back and its result was not saved`,
    );
  }
}
