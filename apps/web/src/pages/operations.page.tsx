import { useCallback, useEffect, useState } from 'react';
import { api, type Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/states';
import { QueueStatsRow } from '../components/operations/queue-stat';
import { useLiveEvents, type LiveEvent } from '../api/live-events';
import '../components/pipelines/pipelines.css';

const REFRESH_MS = 5000;
const usd = (n: number) => `$${n.toFixed(4).replace(/0{1,2}$/, '')}`;

function Eta({ eta }: { eta: Schemas['Eta'] }) {
  if (eta.status === 'idle') return <p>Idle: nothing left to do.</p>;
  if (eta.status === 'refused') return <p>No estimate: {eta.reason}</p>;
  return (
    <p>
      About {Math.ceil(eta.etaSeconds / 60)} min for {eta.remainingWork} items at {eta.throughputPerMinute.toFixed(1)}/min.
    </p>
  );
}

function Spend({ spend }: { spend: Schemas['SpendView'] }) {
  const ratio = spend.ceilingUsd > 0 ? Math.min(1, spend.spentUsd / spend.ceilingUsd) : 0;
  return (
    <>
      <p>
        {usd(spend.spentUsd)} of {usd(spend.ceilingUsd)} today ({spend.calls} calls, {spend.provider}
        {spend.model ? ` / ${spend.model}` : ''}){spend.ceilingReached && <strong> — ceiling reached, spendful work paused until {new Date(spend.resetsAt).toLocaleString()}</strong>}
      </p>
      {spend.unknownOutcomeCalls > 0 && (
        <p>
          Includes {spend.unknownOutcomeCalls} {spend.unknownOutcomeCalls === 1 ? 'call' : 'calls'} whose outcome is unknown (worker crashed mid-call), charged at their estimate ({usd(spend.unknownOutcomeUsd)}).
        </p>
      )}
      <meter aria-label="Spend against the daily ceiling" min={0} max={1} value={ratio} />
      <table>
        <caption className="sr-only">Spend by lane</caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">USD</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(spend.byLane).map(([lane, v]) => (
            <tr key={lane}>
              <th scope="row">{lane}</th>
              <td>{usd(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function OperationsPage() {
  const ops = useApi((signal) => api.get('/v1/pipeline/operations', { signal }), []);
  const health = useApi((signal) => api.get('/v1/health', { signal }), []);
  const spendLoad = useApi((signal) => api.get('/v1/spend', { signal }), []);
  const [spend, setSpend] = useState<Schemas['SpendView'] | null>(null);
  useEffect(() => {
    if (spendLoad.state === 'ok') setSpend(spendLoad.data);
  }, [spendLoad.state, spendLoad.data]);
  // Capacity and queue stats have no events: they are read again every few seconds.
  useEffect(() => {
    const t = setInterval(() => {
      ops.reload();
      health.reload();
    }, REFRESH_MS);
    return () => clearInterval(t);
  }, [ops.reload, health.reload]);
  const onEvent = useCallback((e: LiveEvent) => e.type === 'spend' && setSpend(e.data), []);
  useLiveEvents(onEvent, spendLoad.reload);

  const snap = ops.data;
  return (
    <Page title="Operations">
      <section aria-labelledby="health-title">
        <h2 id="health-title">Worker health</h2>
        {health.state === 'error' && <ErrorBanner error={health.error} onRetry={health.reload} />}
        {!health.data ? (
          health.state !== 'error' && <Loading what="health" />
        ) : (
          <p>
            <span className={`badge badge-${health.data.worker.status}`}>worker {health.data.worker.status}</span> {health.data.worker.reason} ·{' '}
            <span className={`badge badge-${health.data.temporal.status}`}>Temporal {health.data.temporal.status}</span> {health.data.temporal.address}
          </p>
        )}
      </section>
      {ops.state === 'error' && <ErrorBanner error={ops.error} onRetry={ops.reload} />}
      {!snap ? (
        ops.state !== 'error' && <Loading what="operations" />
      ) : (
        <>
          <section aria-labelledby="capacity-title">
            <h2 id="capacity-title">Capacity</h2>
            <p>
              {snap.capacity.activeSlots} active of {snap.capacity.configuredSlots} slots, {snap.capacity.availableSlots} available ({snap.capacity.status}: {snap.capacity.reason})
            </p>
            {snap.capacity.workers.length === 0 ? (
              <Empty>No worker has a fresh heartbeat.</Empty>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Worker</th>
                    <th scope="col">Configured</th>
                    <th scope="col">Active</th>
                    <th scope="col">Available</th>
                    <th scope="col">Heartbeat age</th>
                  </tr>
                </thead>
                <tbody>
                  {snap.capacity.workers.map((w) => (
                    <tr key={w.workerId}>
                      <th scope="row">
                        {w.host}:{w.pid}
                      </th>
                      <td>{w.configuredSlots}</td>
                      <td>{w.activeSlots}</td>
                      <td>{Math.max(0, w.configuredSlots - w.activeSlots)}</td>
                      <td>{Math.round(w.ageMs / 1000)} s</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="active-title">
            <h2 id="active-title">Active items ({snap.activeItemsTotal})</h2>
            {snap.activeItems.length === 0 ? (
              <Empty>Nothing running.</Empty>
            ) : (
              <ul>
                {snap.activeItems.map((i) => (
                  <li key={`${i.workerId}:${i.workflowId}:${i.activityType}:${i.startedAt}`}>
                    <code>{i.activityType}</code> in {i.workflowId} (attempt {i.attempt}, since {new Date(i.startedAt).toLocaleTimeString()})
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="queue-title">
            <h2 id="queue-title">Task queue</h2>
            {!snap.taskQueueStats ? (
              <p>Task-queue stats: unknown (not reported).</p>
            ) : (
              <table>
                <caption>{snap.taskQueueStats.taskQueue}</caption>
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Backlog</th>
                    <th scope="col">Backlog age (s)</th>
                    <th scope="col">Pollers</th>
                    <th scope="col">Add rate/s</th>
                    <th scope="col">Dispatch rate/s</th>
                  </tr>
                </thead>
                <tbody>
                  <QueueStatsRow name="workflow" q={snap.taskQueueStats.workflow} />
                  <QueueStatsRow name="activity" q={snap.taskQueueStats.activity} />
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="eta-title">
            <h2 id="eta-title">ETA</h2>
            <Eta eta={snap.eta} />
          </section>
        </>
      )}
      <section aria-labelledby="spend-title">
        <h2 id="spend-title">Today&apos;s spend</h2>
        {spendLoad.state === 'error' && <ErrorBanner error={spendLoad.error} onRetry={spendLoad.reload} />}
        {spend ? <Spend spend={spend} /> : spendLoad.state !== 'error' && <Loading what="spend" />}
      </section>
    </Page>
  );
}
