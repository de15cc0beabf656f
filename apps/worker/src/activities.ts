import { defaultResolvedConfig, liveWorkerSettings, PIPELINE_INTERNAL_CONCURRENCY_MAX, type LiveWorkerSettings } from '@jobctrl/shared/config';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { HostPolicyHttpClient } from '@jobctrl/shared/http';
import { DiscoveryRunRepository, JobRepository, LifecycleProjector, PreparationBatchRepository, PreparationRepository, preparationAttempt } from '@jobctrl/shared/jobs';
import { PipelineRunRepository } from '@jobctrl/runs';
import { LlmRuntime, SpendLedgerRepository, type LlmRuntimeOptions } from '@jobctrl/shared/llm';
import { ProfileRepository } from '@jobctrl/shared/profile';
import type { ActivityGauge, ActivityStops, CpuTaskPool, WorkerExecutors } from '@jobctrl/shared/temporal';
import { createLifecycleActivities, createSmokeActivities, heartbeatLiveness, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { createDiscoveryActivities, DiscoveryRuntimeRepository, postingApiOf, SourceRepository } from '@jobctrl/discovery';
import { ChromiumRenderer, createEnrichmentActivities, RunCommitNotifier } from '@jobctrl/enrichment';
import { createScoringActivities } from '@jobctrl/scoring';
import { createTailoringActivities } from '@jobctrl/tailoring';
import { createCoverLetterActivities, ReviewExecutor } from '@jobctrl/cover-letter';
import { createExtractivePreparationActivities, createPreparationActivities } from '@jobctrl/preparation';
import { CompensationRefreshRepository, createCompensationActivities } from '@jobctrl/compensation';
import { createPostingCheckActivities, createPostingInspector, PostingCheckRepository } from '@jobctrl/posting-checks';
import { ApplicationRepository, createApplyActivities } from '@jobctrl/apply-launcher';
import { cancelOwnedPreparations, describePreparation, startPreparation, startPreparationForBatch, wakePausedPreparations } from '@jobctrl/runs/worker';

export interface PipelineSettings {
  /**
   * pipeline_internal_concurrency: the live reader (the worker app), or a fixed number (tests,
   * benches). Read when a discovery run plans; the run then carries that snapshot.
   */
  internalConcurrency: number | (() => number);
  /**
   * allowedPrivateHosts: allowed_private_hosts, the only private/loopback hosts the crawler, its
   * browser and the apply launcher may reach (harnesses list the simulators' 127.0.0.1 here).
   */
  hostPolicy: { minSpacingMs: number; maxInFlightPerHost: number; allowedPrivateHosts: readonly string[]; maxApiResponseBytes?: number };
  /** file_source_dirs: the only folders file sources are read from (default: the schema's, <app_dir>/imports). */
  fileSourceDirs?: readonly string[];
  /** file_source_max_bytes: the largest file a file source reads (default: the schema's). */
  fileSourceMaxBytes?: number;
  enrichmentPollMs?: number;
  /** Chromium for JavaScript-rendered detail pages (browser_executable_path); none = such pages keep the source text. */
  browserExecutablePath?: string;
  preparation?: PreparationSettings;
  /** availability_sweeps_enabled and availability_recheck_hours, read live (default: the schema's). */
  availability?: () => Pick<LiveWorkerSettings, 'availabilitySweepsEnabled' | 'availabilityRecheckMs'>;
  /** Applying: app_dir (attempt directories live under it) and apply_daily_cap read live (default: the schema's). */
  apply?: { appDir: string; dailyCap: () => number };
}

/** The preparation stage's settings: the model runtime (fixed at start) and the live-read settings. */
export interface PreparationSettings {
  llm: Omit<LlmRuntimeOptions, 'ledger' | 'ceilingUsd'>;
  /** Read on every use, so PATCH /v1/settings applies without a restart. */
  live: () => Pick<LiveWorkerSettings, 'dailySpendCeilingUsd' | 'tailorScoreThreshold' | 'recoveryIdleMs'>;
  /**
   * worker_heartbeat_stale_seconds (ms), when this worker heartbeats (the worker app): the spend
   * ledger then charges another worker's in-flight calls as `unknown` once its heartbeat is stale.
   * Without it (tests, benches: no heartbeat of their own) only the reservation TTL settles them.
   */
  heartbeatStaleMs?: number;
}

/** Without settings (tests, benches) the worker runs with the schema's defaults, stated only there. */
const SCHEMA_DEFAULTS = defaultResolvedConfig();
export const DEFAULT_PIPELINE: PipelineSettings = {
  internalConcurrency: SCHEMA_DEFAULTS.settings.pipeline_internal_concurrency,
  hostPolicy: { ...SCHEMA_DEFAULTS.hostPolicy, allowedPrivateHosts: SCHEMA_DEFAULTS.allowedPrivateHosts },
};
const DEFAULT_PREPARATION: PreparationSettings = { llm: SCHEMA_DEFAULTS.llm, live: () => liveWorkerSettings(SCHEMA_DEFAULTS.settings) };
const DEFAULT_AVAILABILITY = () => liveWorkerSettings(SCHEMA_DEFAULTS.settings);
const DEFAULT_APPLY = { appDir: SCHEMA_DEFAULTS.appDir, dailyCap: () => SCHEMA_DEFAULTS.settings.apply_daily_cap };

export interface ActivityDeps {
  uow: UnitOfWorkFactory;
  executors: WorkerExecutors;
  gauge: ActivityGauge;
  /** This process's running activities by workflow (a cancelled run's control stops its preparations' at once). */
  stops: ActivityStops;
  cpu: CpuTaskPool;
  workerIdentity: string;
  /** worker_activity_slots: also the review executor's running-leaf limit N. */
  activitySlots: number;
  pipeline: PipelineSettings;
  log: (message: string) => void;
}

/**
 * Merges every lib's activity factory into the one activities object the Worker registers, and
 * returns what must be closed when the worker stops (the browser).
 */
export function buildActivities(deps: ActivityDeps) {
  const jobs = new JobRepository(deps.uow);
  const { internalConcurrency } = deps.pipeline;
  const liveConcurrency = typeof internalConcurrency === 'function' ? internalConcurrency : () => internalConcurrency;
  // One Chromium process per worker. Pages at once are bounded per enrichment consumer by its run's
  // snapshot of pipeline_internal_concurrency (the consumer renders at most that many jobs at once);
  // the renderer's own cap is only the ceiling the setting can ever reach, so a run started after
  // the setting was raised gets its pages without a worker restart.
  // One host policy per worker: politeness limits hold across every family and the enrichment consumer.
  // Its address rule (allowed_private_hosts) also guards the browser's requests and the apply launcher's.
  // api_response_max_bytes caps board API documents; pages keep the policy's own smaller cap.
  const { minSpacingMs, maxInFlightPerHost, allowedPrivateHosts, maxApiResponseBytes } = deps.pipeline.hostPolicy;
  const http = new HostPolicyHttpClient({ minSpacingMs, maxInFlightPerHost, allowedPrivateHosts, maxApiResponseBytes });
  const renderer = deps.pipeline.browserExecutablePath
    ? new ChromiumRenderer({ executablePath: deps.pipeline.browserExecutablePath, maxPages: PIPELINE_INTERNAL_CONCURRENCY_MAX, addressGuard: http.guard })
    : undefined;
  // A family's commit wakes this worker's live enrichment consumer of the same run at once.
  const commits = new RunCommitNotifier();
  // The crawl advances the run's progress; the live enrichment consumer reads it to know when to end.
  const discoveryRuns = new DiscoveryRunRepository(deps.uow);
  const prepSettings = deps.pipeline.preparation ?? DEFAULT_PREPARATION;
  const prep = new PreparationRepository(deps.uow);
  // Reservations name this worker, so another process can tell a dead worker's in-flight calls (see SpendLedgerRepository).
  const liveness = prepSettings.heartbeatStaleMs ? heartbeatLiveness(new WorkerHeartbeatRepository(deps.uow), prepSettings.heartbeatStaleMs) : undefined;
  const ledger = new SpendLedgerRepository(deps.uow, { owner: deps.workerIdentity, liveness });
  const profiles = new ProfileRepository(deps.uow);
  const llm = new LlmRuntime({ ...prepSettings.llm, ledger, ceilingUsd: () => prepSettings.live().dailySpendCeilingUsd });
  const reviews = new ReviewExecutor({ leafLimit: deps.activitySlots });
  const checks = new PostingCheckRepository(deps.uow);
  const readProfile = () => profiles.get();
  const stageSteps = (profile: typeof readProfile, store: { jobs: JobRepository; prep: PreparationRepository } = { jobs, prep }) => {
    const stage = { ...store, profile, llm };
    return {
      ...createScoringActivities({ ...stage, threshold: () => prepSettings.live().tailorScoreThreshold }),
      ...createTailoringActivities(stage),
      ...createCoverLetterActivities({ ...stage, reviews, reviewDatabase: deps.uow, processDatabasePath: deps.uow.databasePath }),
    };
  };
  // A refresh's N determinations run inside its one activity: N = this worker's slots.
  const compensation = createCompensationActivities({ repo: new CompensationRefreshRepository(deps.uow), llm, slots: deps.activitySlots });
  // Discovery's per-job handoff captures this worker's provider in the job's input, as a batch's
  // start does: an extractive job is then classified and scored in one activity.
  const handOff = (job: { jobKey: string; idempotencyKey: string }, mode?: 'score' | 'full') => startPreparation(job, mode, llm.provider);
  const preparation = {
    ...stageSteps(readProfile),
    // A whole-job attempt's stages start from the job its previous stage wrote (preparationAttempt):
    // built per attempt, as the steps are.
    ...createExtractivePreparationActivities({
      provider: () => llm.provider,
      steps: (profile) => stageSteps(profile, preparationAttempt(deps.uow)),
      profile: readProfile,
      readJob: (jobKey) => jobs.get(jobKey),
      classifyCompensation: compensation.classifyJobCompensation,
    }),
    ...createPreparationActivities({
      prep,
      runs: new PipelineRunRepository(deps.uow),
      batches: new PreparationBatchRepository(deps.uow),
      ledger,
      settings: () => {
        const live = prepSettings.live();
        return { provider: prepSettings.llm.provider, dailySpendCeilingUsd: live.dailySpendCeilingUsd, recoveryIdleMs: live.recoveryIdleMs };
      },
      profileRevision: async () => (await profiles.get()).revision,
      startPreparation: startPreparationForBatch,
      describePreparation,
      wakePaused: wakePausedPreparations,
      cancelOwned: cancelOwnedPreparations,
      stopRunning: async (workflowIds) => {
        deps.stops.stop(workflowIds, 'its run was cancelled');
        // Well inside the local control's 30 s: an attempt ends at its next await once stopped.
        await deps.stops.settled(workflowIds, 10_000);
      },
    }),
  };
  const activities = {
    ...createLifecycleActivities({ uow: deps.uow, executor: deps.executors.temporalSync, projector: new LifecycleProjector(deps.uow), log: deps.log }),
    ...createSmokeActivities({ uow: deps.uow, gauge: deps.gauge, workerIdentity: deps.workerIdentity }),
    ...compensation,
    ...createDiscoveryActivities({
      sources: new SourceRepository(deps.uow),
      runtime: new DiscoveryRuntimeRepository(deps.uow),
      jobs,
      runs: discoveryRuns,
      http,
      internalConcurrency: liveConcurrency,
      fileSourceDirs: deps.pipeline.fileSourceDirs ?? SCHEMA_DEFAULTS.fileSourceDirs,
      fileSourceMaxBytes: deps.pipeline.fileSourceMaxBytes ?? SCHEMA_DEFAULTS.fileSourceMaxBytes,
      startPreparation: handOff,
      onJobsCommitted: (runId) => commits.notify(runId),
    }),
    ...createEnrichmentActivities({ jobs, runs: discoveryRuns, http, cpu: deps.cpu, renderer, startPreparation: handOff, pollIntervalMs: deps.pipeline.enrichmentPollMs, commits, log: deps.log }),
    ...preparation,
    // Posting checks share the worker's host policy and browser: a board is one host to all of them.
    ...createApplyActivities({
      applications: new ApplicationRepository(deps.uow),
      jobs,
      profile: async () => (await profiles.get()).profile,
      appDir: (deps.pipeline.apply ?? DEFAULT_APPLY).appDir,
      executablePath: deps.pipeline.browserExecutablePath ?? SCHEMA_DEFAULTS.browserExecutablePath,
      owner: deps.workerIdentity,
      dailyCap: (deps.pipeline.apply ?? DEFAULT_APPLY).dailyCap,
      chargeAvailabilityCheck: async () => (await checks.chargeForeground()).acquired,
      addressGuard: http.guard,
      log: deps.log,
    }),
    ...createPostingCheckActivities({
      repository: checks,
      inspect: createPostingInspector({ http, renderer }),
      // Discovery's adapters own the board keys and default hosts; posting checks may not import discovery.
      postingApi: postingApiOf,
      settings: () => {
        const availability = (deps.pipeline.availability ?? DEFAULT_AVAILABILITY)();
        return { sweepsEnabled: availability.availabilitySweepsEnabled, selection: { scoreThreshold: prepSettings.live().tailorScoreThreshold, recheckMs: availability.availabilityRecheckMs } };
      },
    }),
  };
  return {
    activities,
    /** The same detail capture the enrichment activities use, for the worker's retry pass outside runs. */
    enrichment: { jobs, http, cpu: deps.cpu, renderer },
    // Shutdown order (spec): admission stops and reviews drain before the model runtime and the
    // browser go away.
    close: async () => {
      await reviews.shutdown();
      await renderer?.close();
    },
  };
}
