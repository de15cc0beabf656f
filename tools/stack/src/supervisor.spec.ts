import * as path from 'node:path';

// The plain-JS rules start.js supervises with, loaded by path as start.js loads them.
const { RestartBudget, decide } = require(path.join(__dirname, '..', 'supervisor.js')) as {
  RestartBudget: new (o?: { limit?: number; windowMs?: number; now?: () => number }) => { take(): number | null };
  decide(what: string, exit: { code: number | null; signal: string | null }, budget: unknown): { action: string; exitCode?: number; n?: number; delayMs?: number; message: string };
};

describe('npm start supervision rules', () => {
  it('restarts at most 5 times in 10 minutes, numbering each, then stops with exit 1 and says why', () => {
    let now = 0;
    const budget = new RestartBudget({ now: () => now });
    const killed = { code: null, signal: 'SIGKILL' };
    const messages: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const d = decide('temporal dev server', killed, budget);
      expect(d).toMatchObject({ action: 'restart', n: i });
      messages.push(d.message);
      now += 30_000;
    }
    expect(messages[1]).toBe('[jobctrl] temporal dev server exited (signal SIGKILL); restarting (2/5 in the last 10 min)');
    const last = decide('temporal dev server', killed, budget);
    expect(last).toMatchObject({ action: 'stop', exitCode: 1 });
    expect(last.message).toContain('after 5 restarts in the last 10 min; giving up');
    // Ten minutes after the first restart, its slot is free again.
    now = 10 * 60_000;
    expect(decide('temporal dev server', killed, budget)).toMatchObject({ action: 'restart', n: 5 });
  });

  it('waits longer before each restart of the same part', () => {
    const budget = new RestartBudget();
    const delays = [1, 2, 3, 4, 5].map(() => decide('worker', { code: 1, signal: null }, budget).delayMs as number);
    expect([...delays].sort((a, b) => a - b)).toEqual(delays);
    expect(delays[4]).toBeGreaterThan(delays[0]);
  });

  it('never restarts a part that exited with EX_CONFIG (78): it stops at once with 78', () => {
    const budget = new RestartBudget();
    const d = decide('worker', { code: 78, signal: null }, budget);
    expect(d).toMatchObject({ action: 'stop', exitCode: 78 });
    expect(d.message).toContain('invalid configuration');
    // …and it spent no restart.
    expect(budget.take()).toBe(1);
  });
});
