import { useCallback, useEffect, useState } from 'react';
import { api, type Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/states';
import { liveModeText, useLiveEvents, type LiveEvent } from '../api/live-events';
import { RunList } from '../components/pipelines/run-list';
import { StartRunForm } from '../components/pipelines/start-run-form';
import { SettingsForm, type SaveResult } from '../components/settings/settings-form';
import { GENERAL_FIELDS } from '../components/settings/settings-fields';

type Run = Schemas['PipelineRunView'];
const CONCURRENCY = GENERAL_FIELDS.filter((f) => f.key === 'pipeline_internal_concurrency');

/** Newest first, one entry per run. */
function upsert(runs: Run[], run: Run): Run[] {
  const rest = runs.filter((r) => r.runId !== run.runId);
  return [run, ...rest].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

export function PipelinesPage() {
  const list = useApi((signal) => api.get('/v1/pipeline/runs', { query: { limit: 20 }, signal }), []);
  const sources = useApi((signal) => api.get('/v1/sources', { signal }), []);
  const settings = useApi((signal) => api.get('/v1/settings', { signal }), []);
  const [runs, setRuns] = useState<Run[] | null>(null);
  useEffect(() => {
    if (list.state === 'ok') setRuns((prev) => list.data.items.reduce(upsert, (prev ?? []).filter((r) => list.data.items.some((i) => i.runId === r.runId))));
  }, [list.state, list.data]);

  const onEvent = useCallback((e: LiveEvent) => {
    if (e.type === 'run') setRuns((prev) => upsert(prev ?? [], e.data));
  }, []);
  const mode = useLiveEvents(onEvent, list.reload);

  const saveConcurrency = async (patch: Record<string, unknown>): Promise<SaveResult> => {
    const { changed_keys: _c, restart_required, ...doc } = await api.patch('/v1/settings', { body: patch });
    return { doc, restartRequired: restart_required };
  };

  return (
    <Page title="Pipelines" actions={<span className="muted live-mode">{liveModeText(mode)}</span>}>
      <section aria-labelledby="start-title">
        <h2 id="start-title">Start a run</h2>
        {sources.state === 'error' ? <ErrorBanner error={sources.error} onRetry={sources.reload} /> : !sources.data ? <Loading what="sources" /> : <StartRunForm sources={sources.data} onStarted={list.reload} />}
      </section>
      <section aria-labelledby="concurrency-title">
        <h2 id="concurrency-title">Internal concurrency</h2>
        {settings.state === 'error' ? (
          <ErrorBanner error={settings.error} onRetry={settings.reload} />
        ) : !settings.data ? (
          <Loading what="settings" />
        ) : (
          <SettingsForm title="Internal concurrency" fields={CONCURRENCY} doc={settings.data} save={saveConcurrency} />
        )}
      </section>
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        {list.state === 'error' && <ErrorBanner error={list.error} onRetry={list.reload} />}
        {runs === null ? list.state !== 'error' && <Loading what="runs" /> : runs.length === 0 ? <Empty>No runs yet: start one above.</Empty> : <RunList runs={runs} onChanged={(r) => setRuns((prev) => upsert(prev ?? [], r))} />}
      </section>
    </Page>
  );
}
