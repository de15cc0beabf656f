// Create or edit one source. The kind's config fields come from the API (GET /v1/sources/kinds, the
// adapters' own rules), so a new adapter or a new key needs no UI change. The API's 400 puts each
// error next to its field (`name`, `family`, `config.<key>`, `config.units[2].board`); an error on a
// path the form does not show stays visible in the banner above it.
import { type FormEvent, useState } from 'react';
import { api, type Schemas } from '../../api/client';
import { asApiError, toApiError, type ApiError } from '../../api/http';
import { FormField } from '../form-field';
import { ErrorBanner } from '../states';
import { ConfigFields } from './config-fields';
import { buildConfig, draftOf, hasUnplacedErrors, placedPaths, type Draft } from './config-draft';
import type { SourceKindDescription } from './source-kind.types';

type Source = Schemas['SourceView'];
type SourceKind = Source['kind'];

const FORM_PATHS = { leaf: ['name', 'kind', 'family', 'enabled'], exact: [] as string[] };

export function SourceForm({ source, kinds, onSaved, onCancel }: { source: Source | null; kinds: readonly SourceKindDescription[]; onSaved: (saved: Source) => void; onCancel: () => void }) {
  const [kind, setKind] = useState<SourceKind>(source?.kind ?? (kinds[0]?.kind as SourceKind));
  const described = kinds.find((k) => k.kind === kind);
  const fields = described?.fields ?? [];
  const [name, setName] = useState(source?.name ?? '');
  const [family, setFamily] = useState(source && source.family !== source.kind ? source.family : '');
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [draft, setDraft] = useState<Draft>(() => draftOf(fields, source?.config ?? {}, source === null));
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);

  const chooseKind = (next: SourceKind) => {
    setKind(next);
    setDraft(draftOf(kinds.find((k) => k.kind === next)?.fields ?? [], {}, true));
    setError(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const built = buildConfig(fields, draft, source?.config);
    if (built.errors.length > 0) {
      setError(toApiError(400, { message: 'Some fields are not valid', errors: built.errors }));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const saved = source
        ? await api.patch('/v1/sources/{id}', { params: { id: source.id }, body: { name, family: family.trim() || source.kind, enabled, config: built.config } })
        : await api.post('/v1/sources', { body: { kind, name, enabled, config: built.config, ...(family.trim() ? { family: family.trim() } : {}) } });
      onSaved(saved);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setSaving(false);
    }
  }

  const placed = placedPaths(fields, draft);
  const unplaced = error !== null && hasUnplacedErrors(error.fieldErrors, { leaf: [...FORM_PATHS.leaf, ...placed.leaf], exact: placed.exact });
  return (
    <form className="panel source-form" onSubmit={submit} aria-label={source ? `Edit source ${source.name}` : 'New source'} noValidate>
      <h2>{source ? `Edit ${source.name}` : 'New source'}</h2>
      {unplaced && <ErrorBanner error={error} />}
      <div className="form-row">
        <FormField label="Kind" field="kind" error={error} hint={source ? 'a source keeps its kind; create a new one to change it' : described?.description}>
          <select value={kind} disabled={source !== null} onChange={(e) => chooseKind(e.target.value as SourceKind)}>
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
            {/* A stored kind the API no longer describes still shows what it is. */}
            {!described && <option value={kind}>{kind}</option>}
          </select>
        </FormField>
        <FormField label="Name" field="name" error={error}>
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </FormField>
        <FormField label="Family" field="family" error={error} hint="sources of one family are crawled together; the kind when empty">
          <input value={family} onChange={(e) => setFamily(e.target.value)} placeholder={kind} />
        </FormField>
        <label className="inline">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
        </label>
      </div>
      <fieldset className="form-row">
        <legend>{described?.label ?? kind} settings</legend>
        {fields.length === 0 && <p className="muted">This kind has no settings.</p>}
        <ConfigFields key={kind} fields={fields} draft={draft} path="config" error={error} onChange={setDraft} />
      </fieldset>
      <div className="form-row">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : source ? 'Save source' : 'Add source'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
