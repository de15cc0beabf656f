import type { Schemas } from '../../api/client';
import { fieldLabel } from './config-draft';
import type { SourceKindDescription } from './source-kind.types';

type Source = Schemas['SourceView'];

const shortValue = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The board a source points at, in a few words: its config values in the order the kind describes
 * its fields (unknown keys after), URLs left out (they say where, not what).
 */
function summary(s: Source, kind: SourceKindDescription | undefined): string {
  const urls = new Set((kind?.fields ?? []).filter((f) => f.type === 'url').map((f) => f.name));
  const order = (kind?.fields ?? []).map((f) => f.name);
  const keys = Object.keys(s.config).sort((a, b) => (order.indexOf(a) + 1 || Infinity) - (order.indexOf(b) + 1 || Infinity));
  return keys
    .filter((k) => !urls.has(k) && !/(^|_)urls?$/.test(k) && s.config[k] !== undefined && s.config[k] !== null)
    .map((k) => `${fieldLabel(k).toLowerCase()}: ${shortValue(s.config[k])}`)
    .join(', ');
}

export function SourceTable({
  sources,
  kinds,
  busy,
  onEdit,
  onToggle,
  onDelete,
}: {
  sources: Source[];
  kinds: readonly SourceKindDescription[];
  busy: string | null;
  onEdit: (s: Source) => void;
  onToggle: (s: Source) => void;
  onDelete: (s: Source) => void;
}) {
  return (
    <table className="data" aria-label="Sources">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Kind</th>
          <th scope="col">Family</th>
          <th scope="col">Board</th>
          <th scope="col">Enabled</th>
          <th scope="col" aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {sources.map((s) => {
          const kind = kinds.find((k) => k.kind === s.kind);
          return (
            <tr key={s.id}>
              <th scope="row">{s.name}</th>
              <td>{kind?.label ?? s.kind}</td>
              <td>{s.family}</td>
              <td className="muted">{summary(s, kind)}</td>
              <td>
                <label className="inline">
                  <input type="checkbox" checked={s.enabled} disabled={busy === s.id} onChange={() => onToggle(s)} aria-label={`${s.name} enabled`} />
                  <span className={s.enabled ? 'badge ok' : 'badge'}>{s.enabled ? 'on' : 'off'}</span>
                </label>
              </td>
              <td className="actions">
                <button type="button" className="secondary" onClick={() => onEdit(s)} aria-label={`Edit ${s.name}`}>
                  Edit
                </button>{' '}
                <button type="button" className="danger" disabled={busy === s.id} onClick={() => onDelete(s)} aria-label={`Delete ${s.name}`}>
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
