import type { Schemas } from '../../api/client';
import { SOURCE_KINDS } from './source-kinds';

type Source = Schemas['SourceView'];

/** The board a source points at, in a few words (its token, search or path). */
function summary(s: Source): string {
  const shown = SOURCE_KINDS[s.kind].fields.filter((f) => f.key !== 'base_url' && s.config[f.key] !== undefined && s.config[f.key] !== null);
  return shown.map((f) => `${f.label.toLowerCase()}: ${typeof s.config[f.key] === 'string' ? s.config[f.key] : JSON.stringify(s.config[f.key])}`).join(', ');
}

export function SourceTable({ sources, busy, onEdit, onToggle, onDelete }: { sources: Source[]; busy: string | null; onEdit: (s: Source) => void; onToggle: (s: Source) => void; onDelete: (s: Source) => void }) {
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
        {sources.map((s) => (
          <tr key={s.id}>
            <th scope="row">{s.name}</th>
            <td>{SOURCE_KINDS[s.kind].label}</td>
            <td>{s.family}</td>
            <td className="muted">{summary(s)}</td>
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
        ))}
      </tbody>
    </table>
  );
}
