import { CancelledFailure } from '@temporalio/common';
import { ActivityStops } from './activity-stops';

describe('ActivityStops', () => {
  it('stops only the named workflows’ running attempts, with a CancelledFailure, and forgets attempts that ended', () => {
    const stops = new ActivityStops();
    const a1 = stops.enter('prep-a');
    const a2 = stops.enter('prep-a');
    const b = stops.enter('prep-b');
    a2.exit();
    expect(stops.stop(['prep-a', 'prep-missing'], 'its run was cancelled')).toBe(1);
    expect(a1.signal.aborted).toBe(true);
    expect(a1.signal.reason).toBeInstanceOf(CancelledFailure);
    expect(a2.signal.aborted).toBe(false);
    expect(b.signal.aborted).toBe(false);
    // A second stop finds nothing new to stop.
    expect(stops.stop(['prep-a'], 'again')).toBe(0);
    a1.exit();
    b.exit();
    expect(stops.size()).toBe(0);
  });

  it('settled waits for the stopped attempts to end, within its bound', async () => {
    const stops = new ActivityStops();
    const a = stops.enter('prep-a');
    stops.stop(['prep-a'], 'cancelled');
    setTimeout(a.exit, 60);
    expect(await stops.settled(['prep-a'], 5_000)).toBe(true);
    const stuck = stops.enter('prep-b');
    expect(await stops.settled(['prep-b'], 50)).toBe(false);
    stuck.exit();
  });
});
