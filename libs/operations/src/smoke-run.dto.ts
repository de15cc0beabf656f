import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class StartSmokeRunDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  activities?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  holdMs?: number;
}
