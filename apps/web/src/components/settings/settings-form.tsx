// One form over a flat list of settings fields. Keys are dotted paths into the document
// ('llm.model'), which is also how the API names a bad field in its 400 — so each error lands next
// to the control it belongs to. Only changed fields are sent (a JSON merge patch), so saving one
// tab never rewrites another's values.
import { type FormEvent, useEffect, useState } from 'react';
import { asApiError, type ApiError } from '../../api/http';
import { FormField } from '../form-field';
import { ErrorBanner } from '../states';

export type SettingKind = 'int' | 'number' | 'bool' | 'text' | 'nullable-text' | 'json' | { options: readonly string[] };

export interface SettingField {
  /** Dotted path in the document, e.g. 'llm.base_url'. */
  key: string;
  label: string;
  kind: SettingKind;
  hint?: string;
}

type Doc = Record<string, unknown>;

export function getPath(doc: Doc, key: string): unknown {
  return key.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Doc)[k] : undefined), doc);
}

function setPath(doc: Doc, key: string, value: unknown): void {
  const parts = key.split('.');
  let at = doc;
  for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Doc;
  at[parts[parts.length - 1]] = value;
}

/** The text a control shows for a value. */
function toText(kind: SettingKind, value: unknown): string {
  if (kind === 'json') return JSON.stringify(value ?? {}, null, 2);
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The value sent for a control's text. A number field sends what the user typed when it is not a
 * number, so the API's 400 names it beside the field (the API is the one place rules live).
 */
export function fromText(kind: SettingKind, text: string): unknown {
  if (kind === 'int' || kind === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (kind === 'nullable-text') return text.trim() === '' ? null : text;
  if (kind === 'json') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The merge patch of the fields whose text changed; a read-only field is never sent. */
export function settingsPatch(fields: readonly SettingField[], doc: Doc, texts: Record<string, string>, bools: Record<string, boolean>, readOnly: ReadOnlyFields = {}): Doc {
  const patch: Doc = {};
  for (const f of fields) {
    if (readOnly[f.key] !== undefined) continue;
    if (f.kind === 'bool') {
      if (bools[f.key] !== Boolean(getPath(doc, f.key))) setPath(patch, f.key, bools[f.key]);
    } else if (texts[f.key] !== toText(f.kind, getPath(doc, f.key))) setPath(patch, f.key, fromText(f.kind, texts[f.key]));
  }
  return patch;
}

/**
 * Fields this API will not change for its callers, each with why (file-only settings while the API
 * requires no token, GET /v1/settings/guards): shown, not editable, never sent.
 */
export type ReadOnlyFields = Readonly<Record<string, string>>;

export interface SaveResult {
  doc: Doc;
  /** Keys the answer says take effect only after a restart. */
  restartRequired?: string[];
}

export function SettingsForm({
  title,
  fields,
  doc,
  save,
  readOnly = {},
}: {
  title: string;
  fields: readonly SettingField[];
  doc: Doc;
  save: (patch: Doc) => Promise<SaveResult>;
  readOnly?: ReadOnlyFields;
}) {
  const init = () => ({
    texts: Object.fromEntries(fields.filter((f) => f.kind !== 'bool').map((f) => [f.key, toText(f.kind, getPath(doc, f.key))])),
    bools: Object.fromEntries(fields.filter((f) => f.kind === 'bool').map((f) => [f.key, Boolean(getPath(doc, f.key))])),
  });
  const [values, setValues] = useState(init);
  const [base, setBase] = useState(doc);
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<{ changed: number; restartRequired: string[] } | null>(null);
  // A newer document from outside (another tab, the Pipelines page) replaces the form's values.
  useEffect(() => {
    setBase(doc);
    setValues(init());
  }, [doc]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const patch = settingsPatch(fields, base, values.texts, values.bools, readOnly);
    setSaved(null);
    if (Object.keys(patch).length === 0) {
      setSaved({ changed: 0, restartRequired: [] });
      return;
    }
    setSaving(true);
    try {
      const result = await save(patch);
      setError(null);
      setBase(result.doc);
      setSaved({ changed: Object.keys(patch).length, restartRequired: result.restartRequired ?? [] });
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setSaving(false);
    }
  };

  const hintOf = (f: SettingField): string | undefined => (readOnly[f.key] !== undefined ? [readOnly[f.key], f.hint].filter(Boolean).join(' ') : f.hint);
  const unplaced = error ? error.fieldErrors.filter((f) => !fields.some((d) => f.field === d.key || f.field.startsWith(`${d.key}.`))) : [];
  return (
    <form className="settings-form" onSubmit={onSubmit} aria-label={title} noValidate>
      {fields.map((f) =>
        f.kind === 'bool' ? (
          <FormField key={f.key} label={f.label} field={f.key} error={error} hint={hintOf(f)}>
            <input
              type="checkbox"
              name={f.key}
              checked={values.bools[f.key]}
              disabled={readOnly[f.key] !== undefined}
              onChange={(e) => setValues((v) => ({ ...v, bools: { ...v.bools, [f.key]: e.target.checked } }))}
            />
          </FormField>
        ) : (
          <FormField key={f.key} label={f.label} field={f.key} error={error} hint={hintOf(f)}>
            {typeof f.kind === 'object' ? (
              <select name={f.key} value={values.texts[f.key]} disabled={readOnly[f.key] !== undefined} onChange={(e) => setValues((v) => ({ ...v, texts: { ...v.texts, [f.key]: e.target.value } }))}>
                {f.kind.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : f.kind === 'json' ? (
              <textarea name={f.key} rows={5} value={values.texts[f.key]} readOnly={readOnly[f.key] !== undefined} onChange={(e) => setValues((v) => ({ ...v, texts: { ...v.texts, [f.key]: e.target.value } }))} />
            ) : (
              <input
                name={f.key}
                type="text"
                readOnly={readOnly[f.key] !== undefined}
                inputMode={f.kind === 'int' ? 'numeric' : f.kind === 'number' ? 'decimal' : undefined}
                value={values.texts[f.key]}
                onChange={(e) => setValues((v) => ({ ...v, texts: { ...v.texts, [f.key]: e.target.value } }))}
              />
            )}
          </FormField>
        ),
      )}
      {error && (error.fieldErrors.length === 0 || unplaced.length > 0) && <ErrorBanner error={error} />}
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {saved && (
          <span role="status" className="muted">
            {saved.changed === 0 ? 'Nothing changed.' : 'Saved.'}
            {saved.restartRequired.length > 0 && (
              <strong className="restart-required">
                {' '}
                Restart required for: {saved.restartRequired.join(', ')} (restart `npm start` for them to take effect).
              </strong>
            )}
          </span>
        )}
      </div>
    </form>
  );
}
