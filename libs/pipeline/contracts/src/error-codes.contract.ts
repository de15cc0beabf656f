/** Error codes shared by activities, workflows and the API (the spec's names). */
export const ErrorCodes = {
  /** An activity returned while its SQLite transaction was still open; its writes were rolled back. */
  activityTransactionUnfinished: 'activity_transaction_unfinished',
  /** A non-allowlisted activity was scheduled on the local control lane. */
  localControlNotAllowed: 'local_control_not_allowed',
  workerNotReady: 'worker_not_ready',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
