import { getMetadataStorage } from 'class-validator';
import type { Schema } from './openapi.types';

/**
 * The request DTOs' class-validator rules as JSON-schema keywords (minimum, pattern, format, …), read
 * from class-validator's own registry at document time, so the bounds a client sees are the ones the
 * ValidationPipe enforces — types say `number`, only the decorators say 1..200.
 */
export type Rule = { name?: string; propertyName: string; constraints?: unknown[]; each?: boolean };
const KEYWORDS: Record<string, (c: unknown[]) => Schema> = {
  isInt: () => ({ type: 'integer' }),
  min: (c) => ({ minimum: c[0] }),
  max: (c) => ({ maximum: c[0] }),
  minLength: (c) => ({ minLength: c[0] }),
  maxLength: (c) => ({ maxLength: c[0] }),
  isNotEmpty: () => ({ minLength: 1 }),
  arrayMinSize: (c) => ({ minItems: c[0] }),
  arrayMaxSize: (c) => ({ maxItems: c[0] }),
  arrayUnique: () => ({ uniqueItems: true }),
  matches: (c) => ({ pattern: c[0] instanceof RegExp ? c[0].source : String(c[0]) }),
  isUuid: () => ({ format: 'uuid' }),
  isUrl: () => ({ format: 'uri' }),
};

function withRule(schema: Schema, rule: Rule): Schema {
  const keywords = KEYWORDS[rule.name ?? '']?.(rule.constraints ?? []);
  if (!keywords) return schema;
  // `each: true` rules apply to the items; isNotEmpty on an array means at least one item.
  if (rule.each && schema['type'] === 'array') return { ...schema, items: { ...(schema['items'] as Schema), ...keywords } };
  if (schema['type'] === 'array' && rule.name === 'isNotEmpty') return { ...schema, minItems: 1 };
  if (!schema['type']) return schema; // a $ref/allOf: the referenced schema carries its own rules
  return { ...schema, ...keywords };
}

type Storage = {
  validationMetadatas: Map<{ name: string }, Rule[]>;
  getTargetValidationMetadatas(target: object, schema: string, always: boolean, strictGroups: boolean): Rule[];
};

/**
 * The rules of each DTO class by name (only classes whose name ends in Dto: request shapes): its own
 * and those it inherits, through class-validator's own lookup (the one the ValidationPipe runs), so
 * a subclass is documented with what is really enforced on it — `class ListJobsQueryDto extends
 * PageQueryDto(200)` has its limit/offset rules on the base. `classes` adds DTOs the registry does
 * not hold because they declare no rule of their own (a query DTO that only extends a base).
 */
export function dtoRules(classes: Iterable<{ name: string }> = []): Map<string, Rule[]> {
  const storage = getMetadataStorage() as unknown as Storage;
  const byName = new Map<string, Rule[]>();
  for (const target of new Set([...storage.validationMetadatas.keys(), ...classes])) {
    if (!target.name.endsWith('Dto')) continue;
    byName.set(target.name, [...(byName.get(target.name) ?? []), ...storage.getTargetValidationMetadatas(target, '', false, false)]);
  }
  return byName;
}

/** Returns `properties` with each property's rules applied. */
export function applyRules(properties: Record<string, Schema>, rules: readonly Rule[]): Record<string, Schema> {
  const out = { ...properties };
  for (const rule of rules) {
    if (out[rule.propertyName]) out[rule.propertyName] = withRule(out[rule.propertyName], rule);
  }
  return out;
}
