import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { WorkerOptions } from '@temporalio/worker';
import type { JobPipelineInput, PipelineStage } from '@jobctrl/pipeline/contracts';
import { PIPELINE_WORKFLOW_TYPE, pipelineWorkflowId } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRecord, JobRepository } from '@jobctrl/shared/jobs';
import { PipelineRunRepository } from '@jobctrl/runs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import type { PreparationSettings } from '../activities';
import { FAMILIES, setupBoardWorld, worldWorker } from './board-world.fixture';
import type { SuiteTemporal } from './temporal.harness';

/** Live settings a test can change while the worker runs (as PATCH /v1/settings would). */
export interface LivePreparationSettings {
  dailySpendCeilingUsd: number;
  tailorScoreThreshold: number;
  recoveryIdleMs: number;
}

export interface PreparationWorldOptions {
  jobsPerBoard: number;
  llm?: PreparationSettings['llm'];
  live?: Partial<LivePreparationSettings>;
  slots?: number;
  workflowBundle?: WorkerOptions['workflowBundle'];
  families?: ReadonlyArray<(typeof FAMILIES)[number]>;
  /** Board simulator knobs (latency, faults). */
  knobs?: object;
}

/**
 * A board world (simulator, migrated database, unique task queue) with the sample profile saved and a
 * real worker built by the worker app's own factory: the world the preparation integration suites run in.
 */
export async function setupPreparationWorld(suite: SuiteTemporal, opts: PreparationWorldOptions) {
  const world = await setupBoardWorld(opts.jobsPerBoard, { families: opts.families ?? [{ kind: 'greenhouse', token: 'acme' }, { kind: 'lever', token: 'globex' }], knobs: opts.knobs });
  const live: LivePreparationSettings = { dailySpendCeilingUsd: 5, tailorScoreThreshold: 50, recoveryIdleMs: 3600_000, ...opts.live };
  await new ProfileRepository(world.uow).put(sampleProfile());
  const jw = await worldWorker(suite, world, {
    ...(opts.slots !== undefined ? { slots: opts.slots } : {}),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : {}),
    pipeline: { preparation: { llm: opts.llm ?? { provider: 'extractive', prices: {}, timeoutMs: 10_000 }, live: () => live } },
  });
  const cleanup = async () => {
    await world.sim.stop();
    await jw.close();
    fs.rmSync(world.dir, { recursive: true, force: true });
  };
  return { ...world, jw, live, cleanup };
}

/** Starts a JobPipelineWorkflow as the Runs API does: the run row first, then the workflow. */
export async function startPipeline(suite: SuiteTemporal, uow: UnitOfWorkFactory, taskQueue: string, stages: PipelineStage[], extra: Partial<JobPipelineInput> = {}) {
  const runId = randomUUID();
  await new PipelineRunRepository(uow).create({ runId, workflowId: pipelineWorkflowId(runId), stages, sourceIds: null });
  const input: JobPipelineInput = { runId, stages, scope: 'run', internalConcurrency: 4, spendRecheckSeconds: 1, ...extra };
  const handle = await suite.client.workflow.start(PIPELINE_WORKFLOW_TYPE, { taskQueue, workflowId: pipelineWorkflowId(runId), args: [input] });
  return { runId, handle };
}

export async function allJobs(jobs: JobRepository): Promise<JobRecord[]> {
  return (await jobs.list({ limit: 1000, offset: 0 })).items;
}
