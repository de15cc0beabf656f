import { ErrorCodes as SharedErrorCodes } from '@jobctrl/shared/errors';
import { ErrorCodes } from './index';

describe('error codes in the contracts', () => {
  it('are the one declaration the shared libs use, not a copy', () => {
    expect(ErrorCodes).toBe(SharedErrorCodes);
  });
});
