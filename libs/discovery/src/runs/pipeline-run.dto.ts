import { Type } from 'class-transformer';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';

export const PIPELINE_STAGES = ['discover', 'score', 'tailor', 'cover'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

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
  @IsIn(['pending_enrichment', 'pending_score', 'pending_tailor', 'scored'])
  stage?: 'pending_enrichment' | 'pending_score' | 'pending_tailor' | 'scored';

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
