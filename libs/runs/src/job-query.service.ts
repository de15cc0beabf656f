import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ApplicationRepository, type ApplicationRecord, type Approval } from '@jobctrl/apply-launcher/application';
import { compensationView, type CompensationView } from '@jobctrl/compensation';
import { APPLY_TENANT } from '@jobctrl/pipeline/contracts';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRecord, JobRepository } from '@jobctrl/shared/jobs';
import type { ListJobsQueryDto } from './pipeline-run.dto';
import { applicationView, approvalView, type ApplicationView, type ApprovalView } from './apply/apply.view';
import { JobPreparationService, type JobActions } from './preparation/job-preparation.service';

/**
 * A job as the API shows it: the stored record, its compensation in the API's shape, its approval
 * (only while it matches the current artifacts) and its application.
 */
export type JobView = Omit<JobRecord, 'compensation'> & { compensation: CompensationView | null; approval: ApprovalView | null; application: ApplicationView | null };

/** GET /v1/jobs/:jobKey: the job and the actions the API allows on it now. */
export interface JobDetailView extends JobView {
  actions: JobActions;
}

interface Related {
  approvals: Map<string, Approval | null>;
  applications: Map<string, ApplicationRecord>;
}

function view(job: JobRecord, related: Related): JobView {
  return {
    ...job,
    compensation: compensationView(job.compensation),
    approval: approvalView(related.approvals.get(job.jobKey)),
    application: applicationView(related.applications.get(job.jobKey)),
  };
}

/** GET /v1/jobs (filtered, paginated) and GET /v1/jobs/:jobKey. */
@Injectable()
export class JobQueryService {
  private readonly jobs: JobRepository;
  private readonly applications: ApplicationRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(JobPreparationService) private readonly preparation: JobPreparationService,
  ) {
    this.jobs = new JobRepository(uow);
    this.applications = new ApplicationRepository(uow);
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
    const related = await this.related(items);
    return { items: items.map((job) => view(job, related)), total, limit, offset };
  }

  async get(jobKey: string): Promise<JobDetailView> {
    const job = await this.jobs.get(jobKey);
    if (!job) throw new NotFoundException(`no job ${jobKey}`);
    const related = await this.related([job]);
    // The application just read for the view also decides the prepare refusal: read once, not twice.
    return { ...view(job, related), actions: await this.preparation.actionsOf(job, related.applications.get(job.jobKey) ?? null) };
  }

  /** The page's approvals and applications in two reads, not two per job. */
  private async related(jobs: JobRecord[]): Promise<Related> {
    const keys = jobs.map((j) => j.jobKey);
    const [approvals, applications] = await Promise.all([this.applications.approvalsOf(keys), this.applications.applicationsOf(APPLY_TENANT, keys)]);
    return { approvals, applications };
  }
}
