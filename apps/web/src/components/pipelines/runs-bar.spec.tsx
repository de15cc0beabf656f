import { render, screen } from '@testing-library/react';
import { advanceProgress, RunsBar } from './runs-bar';

const progress = (completed: number, total: number, detail: [number, number, number] | null = null) => ({
  completed,
  total,
  detail: detail ? { jobsCommitted: detail[0], jobsEnriched: detail[1], jobsScored: detail[2] } : null,
});

const bar = () => screen.getByRole('progressbar');
const shown = () => ({
  now: bar().getAttribute('aria-valuenow'),
  spine: screen.getByTestId('runs-bar-spine').textContent,
  committed: screen.queryByTestId('jobs-committed')?.textContent ?? null,
  enriched: screen.queryByTestId('jobs-enriched')?.textContent ?? null,
  scored: screen.queryByTestId('jobs-scored')?.textContent ?? null,
});

describe('RunsBar', () => {
  it('moves forward with each update', () => {
    const { rerender } = render(<RunsBar runId="r1" progress={progress(1, 4, [3, 1, 0])} />);
    expect(shown()).toEqual({ now: '25', spine: '1 / 4', committed: '3', enriched: '1', scored: '0' });
    rerender(<RunsBar runId="r1" progress={progress(4, 4, [9, 9, 9])} />);
    expect(shown()).toEqual({ now: '100', spine: '4 / 4', committed: '9', enriched: '9', scored: '9' });
  });

  it('never moves back when a late or reordered update arrives', () => {
    const { rerender } = render(<RunsBar runId="r1" progress={progress(3, 4, [20, 12, 7])} />);
    // An older snapshot (e.g. a poll answer that left before the last event) arrives after it.
    rerender(<RunsBar runId="r1" progress={progress(1, 4, [5, 2, 1])} />);
    expect(shown()).toEqual({ now: '75', spine: '3 / 4', committed: '20', enriched: '12', scored: '7' });
    // A mixed one: only the numbers that grew move.
    rerender(<RunsBar runId="r1" progress={progress(2, 4, [25, 11, 8])} />);
    expect(shown()).toEqual({ now: '75', spine: '3 / 4', committed: '25', enriched: '12', scored: '8' });
    // Detail missing from an update keeps what was shown.
    rerender(<RunsBar runId="r1" progress={progress(0, 0)} />);
    expect(shown()).toEqual({ now: '75', spine: '3 / 4', committed: '25', enriched: '12', scored: '8' });
  });

  it('never pulls the bar back when the total grows', () => {
    const { rerender } = render(<RunsBar runId="r1" progress={progress(3, 4)} />);
    rerender(<RunsBar runId="r1" progress={progress(4, 8)} />);
    expect(shown()).toMatchObject({ now: '75', spine: '4 / 8' });
    rerender(<RunsBar runId="r1" progress={progress(8, 8)} />);
    expect(shown()).toMatchObject({ now: '100', spine: '8 / 8' });
  });

  it('starts from nothing for another run (keyed by run id)', () => {
    const { rerender } = render(<RunsBar key="r1" runId="r1" progress={progress(4, 4)} />);
    rerender(<RunsBar key="r2" runId="r2" progress={progress(1, 4)} />);
    expect(shown()).toMatchObject({ now: '25', spine: '1 / 4', committed: null });
  });

  it('a sequence of random updates shows the running maximum of each number', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let state = advanceProgress(null, progress(0, 10, [0, 0, 0]));
    let max = { completed: 0, committed: 0 };
    for (let i = 0; i < 200; i++) {
      const next = progress(rand(11), 10, [rand(50), rand(50), rand(50)]);
      const before = state;
      state = advanceProgress(state, next);
      max = { completed: Math.max(max.completed, next.completed), committed: Math.max(max.committed, next.detail?.jobsCommitted ?? 0) };
      expect(state.percent).toBeGreaterThanOrEqual(before.percent);
      expect(state.completed).toBe(max.completed);
      expect(state.detail?.jobsCommitted).toBe(max.committed);
    }
  });
});
