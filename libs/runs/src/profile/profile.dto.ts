import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { Profile } from '@jobctrl/shared/profile';

// Resume dates as people write them: 2021, 2021-03. Anything else would make ordering and the
// no-new-facts checks guess.
const YEAR_MONTH = /^\d{4}(-(0[1-9]|1[0-2]))?$/;
const DATE_RULE = { message: 'must be YYYY or YYYY-MM' };
const TEXT = 2000;

class ContactDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @IsEmail({}, { message: 'must be an email address' })
  email!: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  location?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  links?: string[];
}

class ExperienceDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  employer!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title!: string;

  @Matches(YEAR_MONTH, DATE_RULE)
  start!: string;

  /** null or absent: present. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(YEAR_MONTH, DATE_RULE)
  end?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  location?: string;

  @IsArray()
  @ArrayMaxSize(30)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(TEXT, { each: true })
  bullets!: string[];
}

class EducationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  school!: string;

  @IsOptional()
  @IsString()
  degree?: string;

  @IsOptional()
  @IsString()
  field?: string;

  @IsOptional()
  @Matches(YEAR_MONTH, DATE_RULE)
  start?: string;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(YEAR_MONTH, DATE_RULE)
  end?: string | null;
}

class PreferencesDto {
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  titles!: string[];

  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  locations!: string[];

  @IsOptional()
  @IsBoolean()
  remote?: boolean;

  @IsOptional()
  @IsInt()
  @Min(0)
  minimumSalary?: number;

  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as USD' })
  salaryCurrency?: string;
}

/** PUT /v1/profile: the whole profile (a PUT replaces it). */
export class ProfileDto implements Profile {
  @ValidateNested()
  @Type(() => ContactDto)
  contact!: ContactDto;

  @IsString()
  @MaxLength(TEXT)
  summary!: string;

  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  skills!: string[];

  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ExperienceDto)
  experience!: ExperienceDto[];

  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => EducationDto)
  education!: EducationDto[];

  @ValidateNested()
  @Type(() => PreferencesDto)
  preferences!: PreferencesDto;

  /** Accepted (and ignored) so a document read with GET can be sent back as it is. */
  @IsOptional()
  @IsInt()
  revision?: number;

  @IsOptional()
  @IsString()
  updatedAt?: string;
}
