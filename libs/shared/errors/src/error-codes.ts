/**
 * The spec's error codes (ARCHITECTURE §4), declared once. Activities raise them as failure types,
 * workflows and the API read them back, so the strings must never drift apart.
 */
export const ErrorCodes = {
  /** An activity returned while its SQLite transaction was still open; its writes were rolled back. */
  activityTransactionUnfinished: 'activity_transaction_unfinished',
  /** A non-allowlisted activity was scheduled on the local control lane. */
  localControlNotAllowed: 'local_control_not_allowed',
  /** A worker-backed API action while no fresh worker heartbeat exists (503). */
  workerNotReady: 'worker_not_ready',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
