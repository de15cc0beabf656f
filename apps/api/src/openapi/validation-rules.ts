import { getMetadataStorage } from 'class-validator';
import type { Schema } from './openapi.types';

/**
 * The request DTOs' class-validator rules as JSON-schema keywords (minimum, pattern, format, …), read
 * from class-validator's own registry at document time, so the bounds a client sees are the ones the
 * ValidationPipe enforces — types say `number`, only the decorators say 1..200.
 */
type Rule = { name?: string; propertyName: string; constraints?: unknown[]; each?: boolean };
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

/** The rules of each DTO class by name (only classes whose name ends in Dto: request shapes). */
export function dtoRules(): Map<string, Rule[]> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<{ name: string }, Rule[]> };
  const byName = new Map<string, Rule[]>();
  for (const [target, rules] of storage.validationMetadatas) {
    if (target.name.endsWith('Dto')) byName.set(target.name, [...(byName.get(target.name) ?? []), ...rules]);
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
