// Create or edit one source: the kind picks the config fields (source-kinds.ts); the API's 400 puts
// each error next to its field (`name`, `family`, `config.<key>`), and an error on a key the form does
// not show stays visible in the banner above it.
import { type FormEvent, useState } from 'react';
import { api, type Schemas } from '../../api/client';
import { asApiError, errorsFor, toApiError, type ApiError } from '../../api/http';
import { FormField } from '../form-field';
import { ErrorBanner } from '../states';
import { buildConfig, fieldText, KIND_NAMES, SOURCE_KINDS, type SourceKind } from './source-kinds';

type Source = Schemas['SourceView'];

const FORM_FIELDS = ['name', 'kind', 'family', 'enabled'];

/** The field errors no control of this form shows (they would be lost below the banner otherwise). */
function unplacedErrors(error: ApiError, kind: SourceKind): boolean {
  const placed = [...FORM_FIELDS, ...SOURCE_KINDS[kind].fields.map((f) => `config.${f.key}`)];
  return error.fieldErrors.length === 0 || error.fieldErrors.some((f) => !placed.some((p) => errorsFor({ ...error, fieldErrors: [f] }, p).length > 0));
}

export function SourceForm({ source, onSaved, onCancel }: { source: Source | null; onSaved: (saved: Source) => void; onCancel: () => void }) {
  const [kind, setKind] = useState<SourceKind>(source?.kind ?? 'greenhouse');
  const [name, setName] = useState(source?.name ?? '');
  const [family, setFamily] = useState(source && source.family !== source.kind ? source.family : '');
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(SOURCE_KINDS[source?.kind ?? 'greenhouse'].fields.map((f) => [f.key, fieldText(f, source?.config[f.key])])),
  );
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const built = buildConfig(kind, texts, source?.config);
    const local = Object.entries(built.errors).map(([field, rule]) => ({ field, value: texts[field.slice('config.'.length)], rule }));
    if (local.length > 0) {
      setError(toApiError(400, { message: 'Some fields are not valid', errors: local }));
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

  return (
    <form className="panel source-form" onSubmit={submit} aria-label={source ? `Edit source ${source.name}` : 'New source'} noValidate>
      <h2>{source ? `Edit ${source.name}` : 'New source'}</h2>
      {error && unplacedErrors(error, kind) && <ErrorBanner error={error} />}
      <div className="form-row">
        <FormField label="Kind" field="kind" error={error} hint={source ? 'a source keeps its kind; create a new one to change it' : undefined}>
          <select value={kind} disabled={source !== null} onChange={(e) => setKind(e.target.value as SourceKind)}>
            {KIND_NAMES.map((k) => (
              <option key={k} value={k}>
                {SOURCE_KINDS[k].label}
              </option>
            ))}
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
        <legend>{SOURCE_KINDS[kind].label} settings</legend>
        {SOURCE_KINDS[kind].fields.map((f) => {
          const value = texts[f.key] ?? '';
          const set = (v: string) => setTexts((t) => ({ ...t, [f.key]: v }));
          const label = f.required ? `${f.label} (required)` : f.label;
          return (
            <FormField key={`${kind}-${f.key}`} label={label} field={`config.${f.key}`} error={error} hint={f.hint}>
              {f.type === 'select' ? (
                <select value={value} onChange={(e) => set(e.target.value)}>
                  <option value="">(automatic)</option>
                  {f.options?.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : f.type === 'json' ? (
                <textarea value={value} rows={4} cols={50} spellCheck={false} onChange={(e) => set(e.target.value)} />
              ) : (
                <input type={f.type === 'url' ? 'url' : 'text'} value={value} onChange={(e) => set(e.target.value)} />
              )}
            </FormField>
          );
        })}
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
