import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository, readFencedJob, type FencedJob } from './job.repository';
import { PreparationRepository } from './preparation.repository';

/**
 * The job store as ONE attempt of a whole-job preparation activity sees it (prepareJobStages and
 * prepareJobExtractive run a job's stages one after the other in one attempt). After each write of the
 * attempt that applied, the write's own unit of work reads the job back with its new fence (after
 * the commit, outside the writer turn), and the attempt's next stage starts from that instead of
 * opening a connection of its own for the same read: three units of work fewer per prepared job.
 *
 * It is the read the next stage would have made at once, on the same file: the fence is the stage
 * version right after this attempt's own commit, from the same row as the job, so a write by anyone
 * else after it still fails that fence. A snapshot is served once, only for its job, and only to the
 * attempt that wrote it (build one per attempt: never share it between activities, or a late attempt
 * could start from a newer attempt's state).
 */
export function preparationAttempt(uow: UnitOfWorkFactory): { jobs: JobRepository; prep: PreparationRepository } {
  const held: { next?: FencedJob } = {};
  return { jobs: new AttemptJobs(uow, held), prep: new AttemptPreparation(uow, held) };
}

class AttemptJobs extends JobRepository {
  constructor(
    uow: UnitOfWorkFactory,
    private readonly held: { next?: FencedJob },
  ) {
    super(uow);
  }

  override async getFenced(jobKey: string): Promise<FencedJob | null> {
    const next = this.held.next;
    this.held.next = undefined;
    return next && next.job.jobKey === jobKey ? next : super.getFenced(jobKey);
  }
}

class AttemptPreparation extends PreparationRepository {
  constructor(
    uow: UnitOfWorkFactory,
    private readonly held: { next?: FencedJob },
  ) {
    super(uow);
  }

  protected override async afterWrite(manager: EntityManager, jobKey: string, applied: boolean): Promise<void> {
    // A refused write means someone else moved the job: the next stage reads it afresh.
    this.held.next = applied ? ((await readFencedJob(manager, jobKey)) ?? undefined) : undefined;
  }
}
