import type { MigrationClass } from '../data-source.factory';
import { Foundation1764400000000 } from './1764400000000-foundation.migration';
import { LifecycleProjections1764500000000 } from './1764500000000-lifecycle-projections.migration';
import { Sources1764600000000 } from './1764600000000-sources.migration';
import { Jobs1764700000000 } from './1764700000000-jobs.migration';
import { PipelineRuns1764800000000 } from './1764800000000-pipeline-runs.migration';
import { Preparation1764900000000 } from './1764900000000-preparation.migration';
import { RunPreparationProgress1765000000000 } from './1765000000000-run-preparation-progress.migration';
import { EnrichmentRetry1765200000000 } from './1765200000000-enrichment-retry.migration';
import { StageVersion1765300000000 } from './1765300000000-stage-version.migration';
import { PreparationBatchTargets1765600000000 } from './1765600000000-preparation-batch-targets.migration';
import { Compensation1765800000000 } from './1765800000000-compensation.migration';
import { ScaleIndexes1765900000000 } from './1765900000000-scale-indexes.migration';
import { RunningRunsIndex1766000000000 } from './1766000000000-running-runs-index.migration';
import { PageCompensation1766100000000 } from './1766100000000-page-compensation.migration';
import { PostingAvailability1766200000000 } from './1766200000000-posting-availability.migration';
import { Applications1766300000000 } from './1766300000000-applications.migration';
import { SpendReservationOwner1766400000000 } from './1766400000000-spend-reservation-owner.migration';
import { RevokedSessions1766500000000 } from './1766500000000-revoked-sessions.migration';
import { RealBoardFields1766600000000 } from './1766600000000-real-board-fields.migration';

/**
 * Every migration of the app database, oldest first. Listed explicitly rather than globbed from
 * disk so the same list works under ts-jest, ts-node and a bundled build.
 */
export const ALL_MIGRATIONS: MigrationClass[] = [Foundation1764400000000, LifecycleProjections1764500000000, Sources1764600000000, Jobs1764700000000, PipelineRuns1764800000000, Preparation1764900000000, RunPreparationProgress1765000000000, EnrichmentRetry1765200000000, StageVersion1765300000000, PreparationBatchTargets1765600000000, Compensation1765800000000, ScaleIndexes1765900000000, RunningRunsIndex1766000000000, PageCompensation1766100000000, PostingAvailability1766200000000, Applications1766300000000, SpendReservationOwner1766400000000, RevokedSessions1766500000000, RealBoardFields1766600000000];

export { Foundation1764400000000, Jobs1764700000000, LifecycleProjections1764500000000, PipelineRuns1764800000000, Preparation1764900000000, RunPreparationProgress1765000000000, Sources1764600000000, StageVersion1765300000000 };
