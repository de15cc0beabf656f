import { Injectable, NotFoundException } from '@nestjs/common';
import { compensationView, type CompensationView } from '@jobctrl/compensation';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRecord, JobRepository } from '@jobctrl/shared/jobs';
import type { ListJobsQueryDto } from './pipeline-run.dto';

/** A job as the API shows it: the stored record, its compensation in the API's shape. */
export type JobView = Omit<JobRecord, 'compensation'> & { compensation: CompensationView | null };

/** GET /v1/jobs (filtered, paginated) and GET /v1/jobs/:jobKey. */
@Injectable()
export class JobQueryService {
  private readonly jobs: JobRepository;

  constructor(uow: UnitOfWorkFactory) {
    this.jobs = new JobRepository(uow);
  }

  async list(q: ListJobsQueryDto): Promise<{ items: JobView[]; total: number; limit: number; offset: number }> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const { items, total } = await this.jobs.list({
      stage: q.stage,
      q: q.q,
      company: q.company,
      minScore: q.minScore,
      runId: q.runId,
      minSalary: q.minSalary,
      currency: q.currency,
      includeUnknownSalary: q.includeUnknownSalary,
      sort: q.sort,
      availability: q.availability,
      limit,
      offset,
    });
    return { items: items.map(view), total, limit, offset };
  }

  async get(jobKey: string): Promise<JobView> {
    const job = await this.jobs.get(jobKey);
    if (!job) throw new NotFoundException(`no job ${jobKey}`);
    return view(job);
  }
}

function view(job: JobRecord): JobView {
  return { ...job, compensation: compensationView(job.compensation) };
}
