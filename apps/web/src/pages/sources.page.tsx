// Sources: the boards and files discovery crawls. List, add, edit, enable/disable, delete
// (GET/POST /v1/sources, PATCH/DELETE /v1/sources/:id), with each kind's form built from the fields
// the API describes (GET /v1/sources/kinds).
import { useState } from 'react';
import { api, type Schemas } from '../api/client';
import { asApiError, type ApiError } from '../api/http';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/states';
import { SourceForm } from '../components/sources/source-form';
import { SourceTable } from '../components/sources/source-table';

type Source = Schemas['SourceView'];

export function SourcesPage() {
  const sources = useApi((signal) => api.get('/v1/sources', { signal }), []);
  const kinds = useApi((signal) => api.get('/v1/sources/kinds', { signal }), []);
  const kindList = kinds.data?.kinds ?? [];
  // null: no form; 'new': the add form; a source: its edit form.
  const [editing, setEditing] = useState<Source | 'new' | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function act(id: string, what: string, action: () => Promise<unknown>) {
    setBusy(id);
    setActionError(null);
    setNotice(null);
    try {
      await action();
      setNotice(what);
      sources.reload();
    } catch (err) {
      setActionError(asApiError(err));
    } finally {
      setBusy(null);
    }
  }

  const toggle = (s: Source) => act(s.id, `${s.name} ${s.enabled ? 'disabled' : 'enabled'}.`, () => api.patch('/v1/sources/{id}', { params: { id: s.id }, body: { enabled: !s.enabled } }));
  const remove = (s: Source) => {
    if (!window.confirm(`Delete the source ${s.name}? Jobs it found stay.`)) return;
    void act(s.id, `${s.name} deleted.`, () => api.delete('/v1/sources/{id}', { params: { id: s.id } }));
  };

  const list = sources.data;
  return (
    <Page
      title="Sources"
      actions={
        editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            Add source
          </button>
        )
      }
    >
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {actionError && <ErrorBanner error={actionError} />}
      {editing !== null && kinds.state === 'error' && <ErrorBanner error={kinds.error} onRetry={kinds.reload} />}
      {editing !== null && kinds.state === 'loading' && <Loading what="the kinds of source" />}
      {editing !== null && kinds.data && (
        <SourceForm
          key={editing === 'new' ? 'new' : editing.id}
          source={editing === 'new' ? null : editing}
          kinds={kindList}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setNotice(`${saved.name} saved.`);
            sources.reload();
          }}
        />
      )}
      {sources.state === 'error' && <ErrorBanner error={sources.error} onRetry={sources.reload} />}
      {list === null ? (
        sources.state === 'loading' && <Loading what="sources" />
      ) : list.length === 0 ? (
        <Empty>No sources yet. Add a job board (Greenhouse, Lever, Ashby, …) or a file so discovery has something to crawl.</Empty>
      ) : (
        <SourceTable sources={list} kinds={kindList} busy={busy} onEdit={(s) => setEditing(s)} onToggle={(s) => void toggle(s)} onDelete={remove} />
      )}
    </Page>
  );
}
