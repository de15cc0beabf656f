// The runs list: one row per run with its state badge, its Runs bar and a cancel button while it can
// still be cancelled. A run paused by the spend ceiling links to the setting that lifts it.
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Schemas } from '../../api/client';
import { asApiError, type ApiError } from '../../api/http';
import { ErrorBanner } from '../states';
import { RunsBar } from './runs-bar';

type Run = Schemas['PipelineRunView'];
const CANCELLABLE = new Set(['pending', 'running', 'spend_ceiling_reached']);

export function StateBadge({ run }: { run: Run }) {
  if (run.state === 'spend_ceiling_reached') {
    return (
      <Link className="badge badge-spend_ceiling_reached" to="/settings/models" title="Raise the daily spend ceiling, or wait for the day to roll over">
        spend ceiling reached
      </Link>
    );
  }
  return <span className={`badge badge-${run.state}`}>{run.state}</span>;
}

function RunRow({ run, onChanged }: { run: Run; onChanged: (r: Run) => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      onChanged(await api.post('/v1/pipeline/runs/{id}/cancel', { params: { id: run.runId } }));
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="run" aria-label={`Run ${run.runId.slice(0, 8)}`}>
      <div className="run-head">
        <code title={run.runId}>{run.runId.slice(0, 8)}</code> <span>{run.stages.join(' → ')}</span> <StateBadge run={run} />{' '}
        <time dateTime={run.createdAt} className="muted">
          {new Date(run.createdAt).toLocaleString()}
        </time>
        {CANCELLABLE.has(run.state) && (
          <button type="button" onClick={cancel} disabled={busy} aria-label={`Cancel run ${run.runId.slice(0, 8)}`}>
            Cancel
          </button>
        )}
      </div>
      <RunsBar key={run.runId} runId={run.runId} progress={run.progress} />
      {run.preparation && (
        <p className="muted">
          Preparation: {run.preparation.completed} done, {run.preparation.failed} failed of {run.preparation.selected}
        </p>
      )}
      {run.familiesFailed.length > 0 && <p className="muted">Families failed: {run.familiesFailed.join(', ')}</p>}
      {run.error && <p className="field-error">{run.error}</p>}
      {error && <ErrorBanner error={error} />}
    </li>
  );
}

export function RunList({ runs, onChanged }: { runs: Run[]; onChanged: (r: Run) => void }) {
  return (
    <ul className="runs">
      {runs.map((r) => (
        <RunRow key={r.runId} run={r} onChanged={onChanged} />
      ))}
    </ul>
  );
}
