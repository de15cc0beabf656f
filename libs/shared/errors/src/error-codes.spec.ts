import { ErrorCodes } from './error-codes';

describe('error codes', () => {
  it('are the spec names, each used once', () => {
    expect(ErrorCodes).toEqual({
      activityTransactionUnfinished: 'activity_transaction_unfinished',
      localControlNotAllowed: 'local_control_not_allowed',
      workerNotReady: 'worker_not_ready',
    });
    expect(new Set(Object.values(ErrorCodes)).size).toBe(Object.values(ErrorCodes).length);
  });
});
