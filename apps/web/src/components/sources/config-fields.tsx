// The controls of a source's config, one per field the API describes: text, URL, whole number (with
// its bounds), a select for an enum, a checkbox, a list of texts, and a list of sub-forms for an
// object[] (each item its own fieldset). Each control carries the 400 errors of its own path; a list
// carries only the errors on the list itself (its items' errors sit beside the items).
import type { ReactNode } from 'react';
import type { ApiError } from '../../api/http';
import { FormField } from '../form-field';
import { FieldErrors, fieldErrorId } from '../states';
import { fieldLabel, newItem, type Draft, type DraftItem, type DraftValue } from './config-draft';
import type { KindField } from './source-kind.types';

/** The error reduced to the errors on exactly `path` (so a list does not repeat its items' errors). */
function only(error: ApiError | null, path: string): ApiError | null {
  if (!error) return null;
  const mine = error.fieldErrors.filter((f) => f.field === path);
  return mine.length ? { ...error, fieldErrors: mine } : null;
}

const labelOf = (f: KindField) => `${fieldLabel(f.name)}${f.required ? ' (required)' : ''}`;

function hintOf(f: KindField): string | undefined {
  const bounds = f.type === 'integer' && (f.min !== undefined || f.max !== undefined) ? `(${f.min ?? '…'}–${f.max ?? '…'})` : null;
  const most = f.maxItems !== undefined ? `(at most ${f.maxItems})` : null;
  const text = [f.description, bounds, most].filter(Boolean).join(' ');
  return text || undefined;
}

export function ConfigFields({ fields, draft, path, error, onChange }: { fields: readonly KindField[]; draft: Draft; path: string; error: ApiError | null; onChange: (draft: Draft) => void }) {
  const set = (name: string, value: DraftValue) => onChange({ ...draft, [name]: value });
  return (
    <>
      {fields.map((f) => {
        const at = `${path}.${f.name}`;
        // A key missing from the draft (it was built for other fields) shows as empty, never crashes.
        const value = draft[f.name] ?? (f.type === 'object[]' || f.type === 'string[]' ? [] : f.type === 'boolean' ? false : f.type === 'object' ? {} : '');
        if (f.type === 'object') return <ObjectField key={f.name} field={f} draft={value as Draft} path={at} error={error} onChange={(v) => set(f.name, v)} />;
        if (f.type === 'object[]') return <ItemsField key={f.name} field={f} items={value as DraftItem[]} path={at} error={error} onChange={(v) => set(f.name, v)} />;
        if (f.type === 'string[]') return <TextListField key={f.name} field={f} values={value as string[]} path={at} error={error} onChange={(v) => set(f.name, v)} />;
        return (
          <FormField key={f.name} label={labelOf(f)} field={at} error={error} hint={hintOf(f)}>
            {leafControl(f, value, (v) => set(f.name, v))}
          </FormField>
        );
      })}
    </>
  );
}

function leafControl(f: KindField, value: DraftValue, set: (v: DraftValue) => void) {
  switch (f.type) {
    case 'boolean':
      return <input type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} />;
    case 'enum':
      return (
        <select value={String(value)} onChange={(e) => set(e.target.value)}>
          {/* Empty means "not set": the adapter's default, or the API's "is required" when there is none. */}
          {(!f.required || f.default === undefined) && <option value="">{f.required ? '(choose)' : '(not set)'}</option>}
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'integer':
      return <input type="number" step={1} min={f.min} max={f.max} value={String(value)} onChange={(e) => set(e.target.value)} />;
    case 'url':
      return <input type="url" value={String(value)} onChange={(e) => set(e.target.value)} />;
    default:
      return <input value={String(value)} onChange={(e) => set(e.target.value)} />;
  }
}

/** A field made of controls (a list, an object): legend, description, the errors on the field itself. */
function Group({ field, path, error, className, children }: { field: KindField; path: string; error: ApiError | null; className: string; children: ReactNode }) {
  const own = only(error, path);
  return (
    <fieldset className={className} aria-invalid={own ? true : undefined} aria-describedby={own ? fieldErrorId(path) : undefined}>
      <legend>{labelOf(field)}</legend>
      {hintOf(field) && <p className="hint muted">{hintOf(field)}</p>}
      <FieldErrors error={own} field={path} />
      {children}
    </fieldset>
  );
}

/** A list field: its items, then Add (off once the list holds maxItems). */
function ListFrame({ field, count, path, error, children, onAdd }: { field: KindField; count: number; path: string; error: ApiError | null; children: ReactNode; onAdd: () => void }) {
  return (
    <Group field={field} path={path} error={error} className="config-list">
      {count === 0 && <p className="muted">None.</p>}
      {children}
      <button type="button" className="secondary" onClick={onAdd} disabled={field.maxItems !== undefined && count >= field.maxItems}>
        Add to {fieldLabel(field.name)}
      </button>
    </Group>
  );
}

function TextListField({ field, values, path, error, onChange }: { field: KindField; values: string[]; path: string; error: ApiError | null; onChange: (v: string[]) => void }) {
  const label = fieldLabel(field.name);
  return (
    <ListFrame field={field} count={values.length} path={path} error={error} onAdd={() => onChange([...values, ''])}>
      {values.map((v, i) => (
        <div className="form-row" key={i}>
          <FormField label={`${label} ${i + 1}`} field={`${path}[${i}]`} error={only(error, `${path}[${i}]`)}>
            <input value={v} onChange={(e) => onChange(values.map((x, k) => (k === i ? e.target.value : x)))} />
          </FormField>
          <button type="button" className="secondary" onClick={() => onChange(values.filter((_, k) => k !== i))} aria-label={`Remove ${label} ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
    </ListFrame>
  );
}

function ItemsField({ field, items, path, error, onChange }: { field: KindField; items: DraftItem[]; path: string; error: ApiError | null; onChange: (v: DraftItem[]) => void }) {
  const label = fieldLabel(field.name);
  const sub = field.fields ?? [];
  return (
    <ListFrame field={field} count={items.length} path={path} error={error} onAdd={() => onChange([...items, newItem(sub)])}>
      {items.map((item, i) => {
        const at = `${path}[${i}]`;
        const own = only(error, at);
        const legend = `${label} ${i + 1}`;
        return (
          <fieldset key={item.key} className="list-item form-row" aria-describedby={own ? fieldErrorId(at) : undefined}>
            <legend>{legend}</legend>
            <FieldErrors error={own} field={at} />
            <ConfigFields fields={sub} draft={item.values} path={at} error={error} onChange={(values) => onChange(items.map((x) => (x.key === item.key ? { ...x, values } : x)))} />
            <button type="button" className="secondary" onClick={() => onChange(items.filter((x) => x.key !== item.key))} aria-label={`Remove ${legend}`}>
              Remove
            </button>
          </fieldset>
        );
      })}
    </ListFrame>
  );
}

/** An object with named keys (a base URL per board): its fields in a fieldset of their own. */
function ObjectField({ field, draft, path, error, onChange }: { field: KindField; draft: Draft; path: string; error: ApiError | null; onChange: (v: Draft) => void }) {
  return (
    <Group field={field} path={path} error={error} className="config-object form-row">
      <ConfigFields fields={field.fields ?? []} draft={draft} path={path} error={error} onChange={onChange} />
    </Group>
  );
}
