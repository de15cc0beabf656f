import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A page of a list: `limit` items (1…the list's own maximum) after skipping `offset`. */
export interface PageQuery {
  limit?: number;
  offset?: number;
}

/**
 * The paging half of a list route's query DTO, as a base class: `class ListXQueryDto extends
 * PageQueryDto(100) {…}`. A function because lists differ in their largest page, and a subclass
 * cannot tighten an inherited property's bound: class-validator lets a subclass's own rules on a
 * property replace (not add to) the inherited ones of the same kind, so `@Max` alone on a
 * redeclared `limit` would drop `@IsInt`/`@Min`. The OpenAPI document reads these rules through
 * the subclass (apps/api/src/openapi/validation-rules.ts follows inheritance).
 */
export function PageQueryDto(maxLimit: number): new () => PageQuery {
  class PageQueryBase implements PageQuery {
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    @Max(maxLimit)
    limit?: number;

    // Bounded so the database gets an integer: past 2^53 a number is a float to SQLite (a 500, #39).
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(0)
    @Max(Number.MAX_SAFE_INTEGER)
    offset?: number;
  }
  return PageQueryBase;
}
