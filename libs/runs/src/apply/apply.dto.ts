import { IsBoolean, IsObject, IsOptional } from 'class-validator';

/** POST /v1/jobs/:jobKey/apply */
export class StartApplyDto {
  /** Fill everything and screenshot it, without the final click. */
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}

/** PUT /v1/jobs/:jobKey/answers: `{answers: {[questionKey or label]: string}}`, replacing what was saved. */
export class SaveAnswersDto {
  // Each entry is checked by the service (keys are free text, so class-validator cannot name them).
  @IsObject()
  answers!: Record<string, unknown>;
}
