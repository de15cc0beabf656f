import { RunCommitNotifier } from './run-commit.notifier';

describe('RunCommitNotifier', () => {
  it('wakes a waiter of the committing run, not of another run', async () => {
    const n = new RunCommitNotifier();
    const a = n.wait('run-a', n.count('run-a'), 60_000);
    const b = n.wait('run-b', n.count('run-b'), 50);
    n.notify('run-a');
    await expect(a).resolves.toBe('commit');
    await expect(b).resolves.toBe('timeout');
  });

  it('a commit between reading the counter and waiting is not lost', async () => {
    const n = new RunCommitNotifier();
    const seen = n.count('r');
    n.notify('r'); // lands while the consumer still queries the database
    await expect(n.wait('r', seen, 60_000)).resolves.toBe('commit');
    // Already seen: the next wait only ends on a newer commit (here its timeout).
    await expect(n.wait('r', n.count('r'), 20)).resolves.toBe('timeout');
  });

  it('rejects with the abort reason and forgets the waiter', async () => {
    const n = new RunCommitNotifier();
    const controller = new AbortController();
    const waiting = n.wait('r', 0, 60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await expect(n.wait('r', 0, 60_000, controller.signal)).rejects.toThrow('cancelled');
  });

  it('remembers a bounded number of runs; a forgotten run only falls back to the timeout', async () => {
    const n = new RunCommitNotifier(2);
    n.notify('r1');
    n.notify('r2');
    n.notify('r3');
    expect([n.count('r1'), n.count('r2'), n.count('r3')]).toEqual([0, 1, 1]);
  });
});
