// Task-queue numbers as the API gives them: a figure only when the stats are `ok`; otherwise the
// status itself (unavailable / stale / unsupported) and its reason — an unknown is never drawn as 0.
import type { Schemas } from '../../api/client';

type QueueStats = Schemas['QueueStats'];

export function statValue(q: QueueStats, value: number | null): string {
  if (q.status !== 'ok' || value === null) return q.status === 'ok' ? 'unknown' : q.status;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function QueueStatsRow({ name, q }: { name: string; q: QueueStats }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <span className={`badge badge-${q.status}`}>{q.status}</span>
        {q.reason && <span className="muted"> {q.reason}</span>}
      </td>
      <td>{statValue(q, q.backlogCount)}</td>
      <td>{statValue(q, q.backlogAgeSeconds)}</td>
      <td>{statValue(q, q.pollers)}</td>
      <td>{statValue(q, q.addRatePerSecond)}</td>
      <td>{statValue(q, q.dispatchRatePerSecond)}</td>
    </tr>
  );
}
