import { useEffect, useState } from 'react';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { api, type Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { ErrorBanner, Loading } from '../components/states';
import { DISCOVERY_FIELDS, GENERAL_FIELDS, HOST_FIELDS, MODEL_FIELDS, WORKER_FIELDS } from '../components/settings/settings-fields';
import { type ReadOnlyFields, SettingsForm, type SaveResult, type SettingField } from '../components/settings/settings-form';
import '../components/pipelines/pipelines.css';

type Doc = Record<string, unknown>;

const TABS = [
  { path: 'general', label: 'General' },
  { path: 'worker', label: 'Worker' },
  { path: 'models', label: 'Models & spend' },
  { path: 'discovery', label: 'Discovery runtime' },
  { path: 'host', label: 'Host policy' },
];

/**
 * The file-only settings (GET /v1/settings/guards) as read-only fields, each saying why, while the API
 * requires no token: the API refuses them with 403 anyway, the page says so before a Save fails.
 */
function readOnlyFields(guards: Schemas['SettingsGuards'] | null): ReadOnlyFields {
  if (!guards || guards.file_only_writable) return {};
  return Object.fromEntries(guards.file_only.map((s) => [s.key, `Read-only here: it ${s.why}. ${guards.reason ?? ''}`.trim()]));
}

/** A tab over GET/PATCH /v1/settings (config.json). */
function ConfigTab({
  title,
  fields,
  doc,
  onSaved,
  readOnly,
}: {
  title: string;
  fields: readonly SettingField[];
  doc: Schemas['SettingsDocument'];
  onSaved: (d: Schemas['SettingsDocument']) => void;
  readOnly: ReadOnlyFields;
}) {
  const save = async (patch: Doc): Promise<SaveResult> => {
    const result = await api.patch('/v1/settings', { body: patch });
    const { changed_keys: _changed, restart_required, ...next } = result;
    onSaved(next);
    return { doc: next as Doc, restartRequired: restart_required };
  };
  return <SettingsForm title={title} fields={fields} doc={doc as unknown as Doc} save={save} readOnly={readOnly} />;
}

/** Discovery runtime lives in SQLite (GET/PATCH /v1/discovery/runtime), not config.json. */
function DiscoveryTab() {
  const runtime = useApi((signal) => api.get('/v1/discovery/runtime', { signal }), []);
  if (runtime.state === 'error') return <ErrorBanner error={runtime.error} onRetry={runtime.reload} />;
  if (!runtime.data) return <Loading what="discovery runtime" />;
  const save = async (patch: Doc): Promise<SaveResult> => ({ doc: (await api.patch('/v1/discovery/runtime', { body: patch as Schemas['UpdateDiscoveryRuntimeDto'] })) as Doc });
  return <SettingsForm title="Discovery runtime" fields={DISCOVERY_FIELDS} doc={runtime.data as Doc} save={save} />;
}

export function SettingsPage() {
  const settings = useApi((signal) => api.get('/v1/settings', { signal }), []);
  const guards = useApi((signal) => api.get('/v1/settings/guards', { signal }), []);
  const [doc, setDoc] = useState<Schemas['SettingsDocument'] | null>(null);
  useEffect(() => {
    if (settings.state === 'ok') setDoc(settings.data);
  }, [settings.state, settings.data]);

  const body = () => {
    if (settings.state === 'error') return <ErrorBanner error={settings.error} onRetry={settings.reload} />;
    if (guards.state === 'error') return <ErrorBanner error={guards.error} onRetry={guards.reload} />;
    if (!doc || !guards.data) return <Loading what="settings" />;
    const readOnly = readOnlyFields(guards.data);
    const tab = (title: string, fields: readonly SettingField[]) => <ConfigTab title={title} fields={fields} doc={doc} onSaved={setDoc} readOnly={readOnly} />;
    return (
      <Routes>
        <Route index element={<Navigate to="/settings/general" replace />} />
        <Route path="general" element={tab('General', GENERAL_FIELDS)} />
        <Route path="worker" element={tab('Worker', WORKER_FIELDS)} />
        <Route path="models" element={tab('Models & spend', MODEL_FIELDS)} />
        <Route path="discovery" element={<DiscoveryTab />} />
        <Route path="host" element={tab('Host policy', HOST_FIELDS)} />
        <Route path="*" element={<Navigate to="/settings/general" replace />} />
      </Routes>
    );
  };

  return (
    <Page title="Settings">
      <nav aria-label="Settings sections" className="tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.path}>
              {/* Absolute: inside the settings/* splat route a relative link resolves against the whole
                  current URL (React Router 7), so "general" from /settings/general kept appending itself. */}
              <NavLink to={`/settings/${t.path}`}>{t.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {body()}
    </Page>
  );
}
