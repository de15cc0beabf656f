import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { HostPolicyHttpClient } from '@jobctrl/shared/http';
import { DiscoveryRunRepository, JobRepository, LifecycleProjector } from '@jobctrl/shared/jobs';
import type { ActivityGauge, CpuTaskPool, WorkerExecutors } from '@jobctrl/shared/temporal';
import { createLifecycleActivities, createSmokeActivities } from '@jobctrl/operations';
import { createDiscoveryActivities, DiscoveryRuntimeRepository, SourceRepository } from '@jobctrl/discovery';
import { ChromiumRenderer, createEnrichmentActivities } from '@jobctrl/enrichment';
import { createScoringActivities } from '@jobctrl/scoring';
import { startPreparation } from './preparation-starter';

export interface PipelineSettings {
  internalConcurrency: number;
  hostPolicy: { minSpacingMs: number; maxInFlightPerHost: number };
  enrichmentPollMs?: number;
  /** Chromium for JavaScript-rendered detail pages (browser_executable_path); none = such pages keep the source text. */
  browserExecutablePath?: string;
}

export interface ActivityDeps {
  uow: UnitOfWorkFactory;
  executors: WorkerExecutors;
  gauge: ActivityGauge;
  cpu: CpuTaskPool;
  workerIdentity: string;
  pipeline: PipelineSettings;
  log: (message: string) => void;
}

/**
 * Merges every lib's activity factory into the one activities object the Worker registers, and
 * returns what must be closed when the worker stops (the browser).
 */
export function buildActivities(deps: ActivityDeps) {
  const jobs = new JobRepository(deps.uow);
  // Browsers are bounded by pipeline_internal_concurrency (pages at once, one Chromium process).
  const renderer = deps.pipeline.browserExecutablePath
    ? new ChromiumRenderer({ executablePath: deps.pipeline.browserExecutablePath, maxPages: deps.pipeline.internalConcurrency })
    : undefined;
  // One host policy per worker: politeness limits hold across every family and the enrichment consumer.
  const http = new HostPolicyHttpClient({ minSpacingMs: deps.pipeline.hostPolicy.minSpacingMs, maxInFlightPerHost: deps.pipeline.hostPolicy.maxInFlightPerHost });
  const activities = {
    ...createLifecycleActivities({ uow: deps.uow, executor: deps.executors.temporalSync, projector: new LifecycleProjector(deps.uow), log: deps.log }),
    ...createSmokeActivities({ uow: deps.uow, gauge: deps.gauge, workerIdentity: deps.workerIdentity }),
    ...createDiscoveryActivities({
      sources: new SourceRepository(deps.uow),
      runtime: new DiscoveryRuntimeRepository(deps.uow),
      jobs,
      runs: new DiscoveryRunRepository(deps.uow),
      http,
      internalConcurrency: () => deps.pipeline.internalConcurrency,
      startPreparation,
    }),
    ...createEnrichmentActivities({ jobs, http, cpu: deps.cpu, renderer, startPreparation, pollIntervalMs: deps.pipeline.enrichmentPollMs, log: deps.log }),
    // The profile store arrives with the preparation stage; until then scoring sees an empty profile.
    ...createScoringActivities({ jobs, profile: async () => ({ skills: [] }) }),
  };
  return { activities, close: async () => renderer?.close() };
}
