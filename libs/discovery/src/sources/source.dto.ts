import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { SOURCE_KINDS, SourceKind, type SourceKindInfo } from '../adapters/source-adapter.model';

const FAMILY = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const FAMILY_RULE = 'family must be 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit';

/** POST /v1/sources. `family` defaults to the kind: all sources of one kind form one family. */
export class CreateSourceDto {
  @IsIn(SOURCE_KINDS as unknown as string[], { message: `kind must be one of ${SOURCE_KINDS.join(', ')}` })
  kind!: SourceKind;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @IsOptional()
  @IsString()
  @Matches(FAMILY, { message: FAMILY_RULE })
  family?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsObject({ message: 'config must be an object (e.g. {"board_token": "acme"})' })
  config!: Record<string, unknown>;
}

/** PATCH /v1/sources/:id. The kind cannot change: a different kind is a different source. */
export class UpdateSourceDto {
  /** Accepted only when it equals the current kind (clients often send the whole object back). */
  @IsOptional()
  @IsIn(SOURCE_KINDS as unknown as string[], { message: `kind must be one of ${SOURCE_KINDS.join(', ')}` })
  kind?: SourceKind;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsString()
  @Matches(FAMILY, { message: FAMILY_RULE })
  family?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsObject({ message: 'config must be an object' })
  config?: Record<string, unknown>;
}

export interface SourceView {
  id: string;
  kind: SourceKind;
  name: string;
  family: string;
  enabled: boolean;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** GET /v1/sources/kinds: every kind's config rules, as its adapter declares (and validates) them. */
export interface SourceKindsView {
  kinds: SourceKindInfo[];
}
