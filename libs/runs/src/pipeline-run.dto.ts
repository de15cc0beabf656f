import { Transform, Type } from 'class-transformer';
import { ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { PIPELINE_STAGES, type PipelineStage } from '@jobctrl/pipeline/contracts';
import { AVAILABILITY_FILTERS, JOB_LIST_SORTS, JOB_STAGES, type AvailabilityFilter, type JobListSort, type JobStage } from '@jobctrl/shared/jobs';
import { PageQueryDto } from './page-query.dto';

/** POST /v1/pipeline/runs */
export class StartPipelineRunDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(PIPELINE_STAGES as unknown as string[], { each: true, message: `each stage must be one of ${PIPELINE_STAGES.join(', ')}` })
  stages!: PipelineStage[];

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsUUID('all', { each: true, message: 'each source id must be a UUID from /v1/sources' })
  sourceIds?: string[];
}

/** GET /v1/pipeline/runs query: a page, newest first. */
export class ListPipelineRunsQueryDto extends PageQueryDto(100) {}

/** GET /v1/jobs query. */
export class ListJobsQueryDto extends PageQueryDto(200) {
  @IsOptional()
  @IsIn(JOB_STAGES as unknown as string[], { message: `stage must be one of ${JOB_STAGES.join(', ')}` })
  stage?: JobStage;

  @IsOptional()
  @IsString()
  q?: string;

  @IsOptional()
  @IsString()
  company?: string;

  @IsOptional()
  @IsUUID()
  runId?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  minScore?: number;

  /** Annualised pay at least this much (the top of a range, else its floor), in `currency`. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  minSalary?: number;

  /** ISO 4217 code of minSalary; USD when absent. Jobs paying in another currency do not match. */
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a 3-letter ISO 4217 code, e.g. USD' })
  currency?: string;

  /** With minSalary/currency: also the jobs that state no figure. */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'includeUnknownSalary must be true or false' })
  includeUnknownSalary?: boolean;

  @IsOptional()
  @IsIn(JOB_LIST_SORTS as unknown as string[], { message: `sort must be one of ${JOB_LIST_SORTS.join(', ')}` })
  sort?: JobListSort;

  /** The last posting check's state, or `unchecked` for jobs never checked. */
  @IsOptional()
  @IsIn(AVAILABILITY_FILTERS as unknown as string[], { message: `availability must be one of ${AVAILABILITY_FILTERS.join(', ')}` })
  availability?: AvailabilityFilter;
}
