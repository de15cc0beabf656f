// A run's progress bar. Updates reach it from several places — the live event stream, the polling
// fallback, a reload of the list — and they can arrive late or out of order, so the bar keeps the
// high-water mark of everything it has shown for this run and never draws less (the spec's
// monotonic Runs bar). The API's numbers only move forward too; this guards the path to the screen.
import { useRef } from 'react';
import type { Schemas } from '../../api/client';
import './pipelines.css';

type Progress = Schemas['PipelineRunView']['progress'];

/** What the bar shows: each number the highest seen so far for this run. */
export interface ShownProgress {
  completed: number;
  total: number;
  /** Percent 0–100, itself a high-water mark (a total that grows never pulls the bar back). */
  percent: number;
  detail: { jobsCommitted: number; jobsEnriched: number; jobsScored: number } | null;
}

const pct = (completed: number, total: number) => (total > 0 ? Math.min(100, Math.floor((completed / total) * 100)) : 0);

/** The next shown progress: the element-wise maximum of what was shown and what arrived. */
export function advanceProgress(shown: ShownProgress | null, next: Progress): ShownProgress {
  const completed = Math.max(shown?.completed ?? 0, next.completed);
  const total = Math.max(shown?.total ?? 0, next.total);
  const d = next.detail;
  const detail =
    d || shown?.detail
      ? {
          jobsCommitted: Math.max(shown?.detail?.jobsCommitted ?? 0, d?.jobsCommitted ?? 0),
          jobsEnriched: Math.max(shown?.detail?.jobsEnriched ?? 0, d?.jobsEnriched ?? 0),
          jobsScored: Math.max(shown?.detail?.jobsScored ?? 0, d?.jobsScored ?? 0),
        }
      : null;
  return { completed, total, percent: Math.max(shown?.percent ?? 0, pct(next.completed, next.total)), detail };
}

/** The bar for one run; give it `key={runId}` so another run starts from nothing. */
export function RunsBar({ runId, progress }: { runId: string; progress: Progress }) {
  const shown = useRef<ShownProgress | null>(null);
  shown.current = advanceProgress(shown.current, progress);
  const p = shown.current;
  return (
    <div className="runs-bar">
      <div
        className="runs-bar-track"
        role="progressbar"
        aria-label={`Progress of run ${runId.slice(0, 8)}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p.percent}
        aria-valuetext={`${p.completed} of ${p.total} (${p.percent} %)`}
      >
        <div className="runs-bar-fill" style={{ width: `${p.percent}%` }} />
      </div>
      <div className="runs-bar-label">
        <span data-testid="runs-bar-spine">
          {p.completed} / {p.total}
        </span>{' '}
        <span>{p.percent} %</span>
      </div>
      {p.detail && (
        <dl className="runs-bar-detail">
          <dt>committed</dt>
          <dd data-testid="jobs-committed">{p.detail.jobsCommitted}</dd>
          <dt>enriched</dt>
          <dd data-testid="jobs-enriched">{p.detail.jobsEnriched}</dd>
          <dt>scored</dt>
          <dd data-testid="jobs-scored">{p.detail.jobsScored}</dd>
        </dl>
      )}
    </div>
  );
}
