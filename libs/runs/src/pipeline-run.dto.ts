import { Type } from 'class-transformer';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';
import { PIPELINE_STAGES, type PipelineStage } from '@jobctrl/pipeline/contracts';
import { JOB_STAGES, type JobStage } from '@jobctrl/shared/jobs';

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

/** GET /v1/jobs query. */
export class ListJobsQueryDto {
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

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;
}
