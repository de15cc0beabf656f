import { Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRecord, JobRepository } from '@jobctrl/shared/jobs';
import type { ListJobsQueryDto } from './pipeline-run.dto';

/** GET /v1/jobs (filtered, paginated) and GET /v1/jobs/:jobKey. */
@Injectable()
export class JobQueryService {
  private readonly jobs: JobRepository;

  constructor(uow: UnitOfWorkFactory) {
    this.jobs = new JobRepository(uow);
  }

  async list(q: ListJobsQueryDto): Promise<{ items: JobRecord[]; total: number; limit: number; offset: number }> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const { items, total } = await this.jobs.list({ stage: q.stage, q: q.q, company: q.company, minScore: q.minScore, runId: q.runId, limit, offset });
    return { items, total, limit, offset };
  }

  async get(jobKey: string): Promise<JobRecord> {
    const job = await this.jobs.get(jobKey);
    if (!job) throw new NotFoundException(`no job ${jobKey}`);
    return job;
  }
}
