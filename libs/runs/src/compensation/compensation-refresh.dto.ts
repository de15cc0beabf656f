import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsNotEmpty, IsOptional, IsString } from 'class-validator';

/** POST /v1/compensation/refresh: the jobs to refresh, or every stored job when absent. */
export class StartCompensationRefreshDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @ArrayUnique()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  jobKeys?: string[];
}
