// Start a run: the stages to run and, with discover, the sources to crawl (none ticked: every
// enabled source). The API's 400/409 name `stages` or `sourceIds`, shown beside them.
import { type FormEvent, useState } from 'react';
import { api, type Schemas } from '../../api/client';
import { asApiError, type ApiError } from '../../api/http';
import { ErrorBanner, FieldErrors, fieldErrorId } from '../states';

type Stage = Schemas['StartPipelineRunDto']['stages'][number];
const STAGES: Stage[] = ['discover', 'score', 'tailor', 'cover', 'apply'];

export function StartRunForm({ sources, onStarted }: { sources: Schemas['SourceView'][]; onStarted: (runId: string) => void }) {
  const [stages, setStages] = useState<Set<Stage>>(new Set(['discover', 'score', 'tailor', 'cover']));
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = <T,>(set: Set<T>, v: T) => {
    const next = new Set(set);
    if (next.has(v)) next.delete(v);
    else next.add(v);
    return next;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = { stages: STAGES.filter((s) => stages.has(s)), ...(picked.size > 0 ? { sourceIds: [...picked] } : {}) };
      const started = await api.post('/v1/pipeline/runs', { body });
      setError(null);
      onStarted(started.runId);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const placed = (f: string) => f === 'stages' || f.startsWith('stages') || f.startsWith('sourceIds');
  return (
    <form onSubmit={submit} aria-label="Start a run" className="start-run">
      <fieldset aria-describedby={error ? fieldErrorId('stages') : undefined}>
        <legend>Stages</legend>
        {STAGES.map((s) => (
          <label key={s} className="inline">
            <input type="checkbox" name="stage" value={s} checked={stages.has(s)} onChange={() => setStages((x) => toggle(x, s))} /> {s}
          </label>
        ))}
        <FieldErrors error={error} field="stages" />
      </fieldset>
      <fieldset disabled={!stages.has('discover')} aria-describedby={error ? fieldErrorId('sourceIds') : undefined}>
        <legend>Sources {picked.size === 0 && <span className="muted">(none ticked: every enabled source)</span>}</legend>
        {sources.length === 0 && <p className="muted">No sources yet: add one on the Sources page.</p>}
        {sources.map((s) => (
          <label key={s.id} className="inline">
            <input type="checkbox" name="source" value={s.id} checked={picked.has(s.id)} disabled={!s.enabled} onChange={() => setPicked((x) => toggle(x, s.id))} /> {s.name}{' '}
            <span className="muted">
              ({s.kind}
              {s.enabled ? '' : ', disabled'})
            </span>
          </label>
        ))}
        <FieldErrors error={error} field="sourceIds" />
      </fieldset>
      {error && (error.fieldErrors.length === 0 || !error.fieldErrors.every((f) => placed(f.field))) && <ErrorBanner error={error} />}
      <button type="submit" disabled={busy || stages.size === 0}>
        {busy ? 'Starting…' : 'Start run'}
      </button>
    </form>
  );
}
