import { Inject, Injectable, Logger } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { HeartbeatWriter, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { JOBCTRL_CONFIG, LiveSettingsReader, ResolvedConfig } from '@jobctrl/shared/config';
import { PreparationRepository } from '@jobctrl/shared/jobs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { temporalConnectOptions, workerCapacity } from '@jobctrl/shared/temporal';
import { createJobctrlWorker, JobctrlWorker, warmWorkflowSandbox } from './create-worker';
import { createWorkerHeartbeatWriter } from './worker-heartbeat';
import { TemporalProbe } from './temporal-probe';
import { AvailabilitySchedule, PreparationRecovery } from '@jobctrl/runs/worker';

/** The worker process: connects, builds the Worker, heartbeats, runs until a shutdown signal. */
@Injectable()
export class WorkerRuntime {
  private readonly logger = new Logger('worker');

  constructor(
    @Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig,
    private readonly uow: UnitOfWorkFactory,
    private readonly heartbeats: WorkerHeartbeatRepository,
    private readonly live: LiveSettingsReader,
  ) {}

  async run(): Promise<void> {
    const capacity = workerCapacity(this.config.workerActivitySlots);
    const temporal = temporalConnectOptions(this.config.temporal);
    const connection = await connectWithin(() => NativeConnection.connect({ address: temporal.address, tls: temporal.tls, apiKey: temporal.apiKey }), connectWaitMs(), (m) =>
      this.logger.log(m),
    );
    let jw: JobctrlWorker | undefined;
    let writer: HeartbeatWriter | undefined;
    let recovery: PreparationRecovery | undefined;
    let sweeps: AvailabilitySchedule | undefined;
    let clientConnection: Connection | undefined;
    let probe: TemporalProbe | undefined;
    let running: Promise<void> | undefined;
    // Spend ceiling, score threshold, recovery idle time and internal concurrency apply without a
    // restart: everything below reads them through the process's one live reader.
    const preparationLive = () => this.live.worker();
    try {
      jw = await createJobctrlWorker({
        connection,
        namespace: temporal.namespace,
        taskQueue: temporal.taskQueue,
        capacity,
        uow: this.uow,
        // Ready means warm: the heartbeat that makes the API report this worker ready starts below,
        // after the parser threads, the browser and the database are loaded.
        warmUp: true,
        pipeline: {
          // Read when a discovery run plans, never frozen at worker start.
          internalConcurrency: () => this.live.pipelineInternalConcurrency(),
          hostPolicy: { ...this.config.hostPolicy, allowedPrivateHosts: this.config.allowedPrivateHosts },
          fileSourceDirs: this.config.fileSourceDirs,
          fileSourceMaxBytes: this.config.fileSourceMaxBytes,
          browserExecutablePath: this.config.browserExecutablePath,
          preparation: { llm: this.config.llm, live: preparationLive, heartbeatStaleMs: this.config.heartbeat.staleMs },
          availability: preparationLive,
          apply: { appDir: this.config.appDir, dailyCap: () => this.live.worker().applyDailyCap },
        },
      });
      const { identity } = jw;
      // Polling starts here, so the warm-up workflow below can run; the heartbeat that makes the API
      // report this worker ready starts only after it.
      running = jw.worker.run();
      // (Settles either way: the failure itself surfaces from `await running` below.)
      const stopped = running.then(
        () => ({ failed: 'the worker stopped' }),
        (err: unknown) => ({ failed: `the worker stopped: ${String(err)}` }),
      );
      const sandbox = await Promise.race([warmWorkflowSandbox({ connection, namespace: temporal.namespace, taskQueue: temporal.taskQueue, identity }), stopped]);
      if (jw.warmUp) {
        const { ms, cpuThreads, browser } = jw.warmUp;
        const browserText = typeof browser === 'string' ? browser : `failed to launch (${browser.failed}); renders will retry`;
        const sandboxText = 'ms' in sandbox ? `workflow sandbox ${sandbox.ms} ms` : `workflow sandbox not warmed (${sandbox.failed}); the first run pays its cold start`;
        this.logger.log(`warm in ${ms} ms: ${cpuThreads} parser threads, browser ${browserText}; ${sandboxText}`);
      }
      // The client side of the worker (recovery starts, sweeps, the reachability probe). grpc-js backs
      // off up to 120 s between reconnects by default: after a dev server restart the worker would go
      // on reading unreachable (and starting nothing) long after it is back, so a short cap.
      clientConnection = Connection.lazy({
        address: temporal.address,
        tls: temporal.tls,
        apiKey: temporal.apiKey,
        channelArgs: { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 2_000 },
      });
      const probed = clientConnection;
      probe = new TemporalProbe({
        check: (deadlineMs) => probed.withDeadline(Date.now() + deadlineMs, () => probed.workflowService.getSystemInfo({})),
        intervalMs: this.config.heartbeat.intervalMs,
        log: (m) => this.logger.warn(m),
      });
      probe.start();
      writer = createWorkerHeartbeatWriter({
        temporal: probe,
        jw,
        capacity,
        repository: this.heartbeats,
        taskQueue: temporal.taskQueue,
        namespace: temporal.namespace,
        temporalAddress: temporal.address,
        databasePath: this.config.databasePath,
        appDir: this.config.appDir,
        intervalMs: this.config.heartbeat.intervalMs,
        log: (m) => this.logger.warn(m),
      });
      writer.start();
      const profiles = new ProfileRepository(this.uow);
      // (The recovery starter needs a client, opened above: the worker's native connection cannot serve one.)
      recovery = new PreparationRecovery({
        client: new Client({ connection: clientConnection, namespace: temporal.namespace }),
        taskQueue: temporal.taskQueue,
        gauge: jw.gauge,
        prep: new PreparationRepository(this.uow),
        settings: preparationLive,
        profileRevision: async () => (await profiles.get()).revision,
        enrichment: jw.enrichment,
        log: (m) => this.logger.warn(m),
      });
      recovery.start();
      sweeps = new AvailabilitySchedule({
        client: new Client({ connection: clientConnection, namespace: temporal.namespace }),
        taskQueue: temporal.taskQueue,
        enabled: () => this.live.worker().availabilitySweepsEnabled,
        log: (m) => this.logger.warn(m),
      });
      await sweeps.start();
      this.logger.log(
        `worker ${identity} polling task queue ${temporal.taskQueue} on ${temporal.address} (namespace ${temporal.namespace}); ` +
          `${capacity.remoteActivitySlots} remote activity slots, ${capacity.localControlSlots} local control slots, ` +
          `executors ${capacity.executorWidth} wide, ${capacity.cpuThreads} CPU threads, UV_THREADPOOL_SIZE=${process.env['UV_THREADPOOL_SIZE'] ?? 4}`,
      );
      // Resolves after a shutdown signal (the SDK handles SIGINT/SIGTERM) once in-flight work drained.
      await running;
    } finally {
      // A start-up step that failed after polling began: drain the worker before closing what it uses.
      if (running && jw?.worker.getState() === 'RUNNING') jw.worker.shutdown();
      await running?.catch(() => undefined);
      probe?.stop();
      recovery?.stop();
      sweeps?.stop();
      await clientConnection?.close();
      await writer?.stop();
      if (jw) await Promise.all([jw.executors.temporalSync.shutdown(), jw.executors.blockingStage.shutdown(), jw.close()]);
      await connection.close();
      this.logger.log('worker stopped');
    }
  }
}

/**
 * How long the first connection may wait for Temporal to come up: `npm start` starts the worker
 * while its embedded dev server is still starting (the worker loads and migrates meanwhile) and
 * says so in JOBCTRL_TEMPORAL_CONNECT_WAIT_MS; otherwise 0 — an unreachable server fails the start.
 */
function connectWaitMs(): number {
  const ms = Number(process.env['JOBCTRL_TEMPORAL_CONNECT_WAIT_MS'] ?? 0);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** Calls `connect` until it succeeds or `waitMs` has passed (then its last error is thrown). */
export async function connectWithin<T>(connect: () => Promise<T>, waitMs: number, log: (m: string) => void, retryMs = 100): Promise<T> {
  const deadline = Date.now() + waitMs;
  let logged = false;
  for (;;) {
    try {
      return await connect();
    } catch (err) {
      if (Date.now() + retryMs > deadline) throw err;
      if (!logged) log(`Temporal not reachable yet (${err instanceof Error ? err.message : String(err)}); retrying for up to ${Math.round(waitMs / 1000)} s`);
      logged = true;
      await new Promise((r) => setTimeout(r, retryMs));
    }
  }
}
