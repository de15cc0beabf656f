import * as fs from 'node:fs';
import * as path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { waitFor } from '@jobctrl/tools/processes';
import type { BoardWorld } from './board-world.fixture';
import { SIMULATOR_CONFIG_KEYS } from './simulator-host-policy';
import type { WorkerProcess } from './temporal.harness';

/** Until `probe` returns a truthy value; a worker's growing log counts as progress and extends the wait. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, idleTimeoutMs: number, log?: () => string): Promise<T> {
  return waitFor(
    async () => {
      const value = await probe();
      return value ? { done: value as T } : { progress: log?.().length ?? null };
    },
    { what, idleTimeoutMs, intervalMs: 100 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}${log ? `\n${log()}` : ''}`);
  });
}

/** The identity a worker app prints once it polls its task queue (undefined before). */
export function pollingIdentity(worker: WorkerProcess): string | undefined {
  return /worker (\S+) polling task queue/.exec(worker.log())?.[1];
}

/**
 * The config.json a worker app (spawnWorkerApp) runs on in the kill tests: the world's database and
 * queue, 2 slots, a heartbeat every second, the LLM simulator as an OpenAI-compatible provider with a
 * timeout long enough that only the kill ends a held call, and the simulators' loopback host allowed.
 */
export function writeWorkerAppConfig(world: BoardWorld, llmUrl: string, extra: Record<string, unknown> = {}): string {
  const configPath = path.join(world.dir, 'config.json');
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      app_dir: '.',
      database_path: world.databasePath,
      worker_activity_slots: 2,
      temporal_task_queue: world.taskQueue,
      worker_heartbeat_interval_seconds: 1,
      llm: { provider: 'openai', model: 'sim', base_url: llmUrl, timeout_seconds: 600 },
      ...SIMULATOR_CONFIG_KEYS,
      ...extra,
    }),
  );
  return configPath;
}

/** One enriched Globex posting, `jobKey`, ready for preparation (score, then tailor and cover). */
export async function seedEnrichedJob(world: BoardWorld, jobKey: string, idempotencyKey: string): Promise<void> {
  await world.jobs.recordObservations('r1', 'test', [
    {
      jobKey, idempotencyKey, contentKey: null, canonicalUrl: null, sourceId: 'src', sourceKind: 'greenhouse', externalId: jobKey,
      title: 'Backend Engineer', company: 'Globex', location: null, remote: true, url: `https://jobs.test/${jobKey}`, applyUrl: null,
      descriptionHtml: null, descriptionText: 'TypeScript, Kafka and PostgreSQL.', postedAt: null, salaryText: null, employmentType: null, tags: [],
    },
  ]);
  await world.jobs.recordEnrichment(jobKey, { status: 'enriched' });
}

/** Rejects after `ms` with the worker's log: a bound on recovery, not a timing assertion. */
export async function within<T>(ms: number, what: string, p: Promise<T>, worker: () => WorkerProcess): Promise<T> {
  let deadline: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      deadline = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s\n${worker().log()}`)), ms);
    }),
  ]).finally(() => clearTimeout(deadline));
}

/** kill -9 of a worker app; resolves once the process has exited. */
export async function killWorker(worker: WorkerProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGKILL');
  await exited;
}

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

function eventMs(e: HistoryEvent): number {
  return Number(String(e.eventTime?.seconds ?? 0)) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
}

/** The types of the activities a history scheduled, in order. */
export function scheduledActivityTypes(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
}

/** The activities a history scheduled, in order, each with its first argument (a JSON payload; null without one). */
export function scheduledActivities(events: HistoryEvent[]): Array<{ type: string; input: unknown }> {
  return events.flatMap((e) => {
    const a = e.activityTaskScheduledEventAttributes;
    if (!a) return [];
    const data = a.input?.payloads?.[0]?.data;
    return [{ type: a.activityType?.name ?? '?', input: data ? JSON.parse(Buffer.from(data).toString('utf8')) : null }];
  });
}

/**
 * Per activity type: its scheduled event and the started event of the attempt that closed it. The
 * server writes a retried activity's started event once, for its last attempt, so `attempt` there
 * counts every attempt that ran.
 */
export function activityRuns(events: HistoryEvent[], activityType: string) {
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType)
    .map((scheduled) => {
      const started = events.find((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled.eventId));
      const closed = events.find((e) => {
        const a = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes ?? e.activityTaskCanceledEventAttributes;
        return String(a?.scheduledEventId) === String(scheduled.eventId);
      });
      return {
        heartbeatTimeoutS: Number(String(scheduled.activityTaskScheduledEventAttributes?.heartbeatTimeout?.seconds ?? 0)),
        scheduledAt: eventMs(scheduled),
        attempt: started?.activityTaskStartedEventAttributes?.attempt ?? 0,
        identity: started?.activityTaskStartedEventAttributes?.identity ?? null,
        startedAt: started ? eventMs(started) : NaN,
        closedAt: closed ? eventMs(closed) : NaN,
        cancelRequestedAt: eventMs(events.find((e) => String(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId) === String(scheduled.eventId)) ?? {}),
        outcome: closed?.activityTaskCompletedEventAttributes
          ? 'completed'
          : closed?.activityTaskCanceledEventAttributes
            ? 'cancelled'
            : closed?.activityTaskTimedOutEventAttributes
              ? 'timed out'
              : closed
                ? 'failed'
                : 'open',
      };
    });
}
