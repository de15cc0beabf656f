import { Transform } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

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
  // The body's own object, not class-transformer's copy: the copy skips every key that names a method
  // of Object.prototype (toString, valueOf, hasOwnProperty…), and such an answer was lost (#39).
  @Transform(({ obj }) => (obj as { answers?: unknown }).answers)
  @IsObject()
  answers!: Record<string, unknown>;
}

/** POST /v1/jobs/:jobKey/application/verification: what the person found on the board. */
export class VerifyApplicationDto {
  /** true: the board has the application; false: it was not submitted (an apply may run again). */
  @IsBoolean()
  submitted!: boolean;

  /** The board's confirmation, when the person has one (only with `submitted: true`). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  confirmation?: string;
}
