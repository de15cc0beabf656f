import { connectWithin } from './worker-runtime';

describe('connectWithin (the worker waits for a Temporal that npm start is still starting)', () => {
  it('retries until the connection succeeds, logging once', async () => {
    let calls = 0;
    const logs: string[] = [];
    const value = await connectWithin(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('connection refused');
        return 'connected';
      },
      10_000,
      (m) => logs.push(m),
      1,
    );
    expect(value).toBe('connected');
    expect(calls).toBe(3);
    expect(logs).toEqual([expect.stringContaining('connection refused')]);
  });

  it('without a wait the first failure is the answer (an unreachable server fails the start)', async () => {
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('connection refused');
    };
    await expect(connectWithin(failing, 0, () => undefined)).rejects.toThrow('connection refused');
    expect(calls).toBe(1);
  });

  it('gives up with the last error once the wait is spent', async () => {
    await expect(connectWithin(() => Promise.reject(new Error('still down')), 30, () => undefined, 5)).rejects.toThrow('still down');
  });
});
