import { validateSync, ValidationError } from 'class-validator';
import { ConfigError, ConfigIssue } from './config.error';
import {
  JobctrlSettings,
  LLM_SETTINGS_KEYS,
  LlmSettings,
  OPTIONAL_LLM_KEYS,
  OPTIONAL_SETTINGS_KEYS,
  SETTINGS_KEYS,
} from './jobctrl-settings.schema';
import { sharedEnvNameIssues } from './settings-guards';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const UNKNOWN_KEY_RULE = 'is not a known setting';

/** Unknown keys are found by hand (not class-validator's whitelist) so they are never assigned onto
 * the instance: a key such as `__proto__` from JSON.parse must not reach a property write. */
export function unknownKeyIssues(doc: JsonObject): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const known = new Set<string>(SETTINGS_KEYS);
  const knownLlm = new Set<string>(LLM_SETTINGS_KEYS);
  for (const key of Object.keys(doc)) {
    if (!known.has(key)) issues.push({ key, value: doc[key], rule: UNKNOWN_KEY_RULE });
  }
  const llm = doc['llm'];
  if (isJsonObject(llm)) {
    for (const key of Object.keys(llm)) {
      if (!knownLlm.has(key)) issues.push({ key: `llm.${key}`, value: llm[key], rule: UNKNOWN_KEY_RULE });
    }
  }
  return issues;
}

function collectIssues(errors: ValidationError[], prefix: string, out: ConfigIssue[]): void {
  for (const error of errors) {
    const key = `${prefix}${error.property}`;
    const rules = [...new Set(Object.values(error.constraints ?? {}))];
    if (rules.length > 0) out.push({ key, value: error.value, rule: rules.join('; ') });
    if (error.children?.length) collectIssues(error.children, `${key}.`, out);
  }
}

function keyOrder(key: string): number {
  const index = SETTINGS_KEYS.indexOf(key.split('.')[0] as (typeof SETTINGS_KEYS)[number]);
  return index === -1 ? SETTINGS_KEYS.length : index;
}

function buildLlm(raw: JsonObject): LlmSettings {
  const llm = new LlmSettings();
  const target = llm as unknown as JsonObject;
  for (const key of LLM_SETTINGS_KEYS) {
    if (raw[key] !== undefined) target[key] = raw[key];
  }
  return llm;
}

/**
 * Validates a raw config.json / Settings API document and returns a fully defaulted instance.
 * Values are taken exactly as given: no string-to-number or string-to-boolean coercion, because a
 * quoted "4" in config.json is far more often a mistake than an intent.
 */
export function validateSettings(raw: unknown, source = 'config.json'): JobctrlSettings {
  if (!isJsonObject(raw)) {
    throw new ConfigError([{ key: '(document)', value: raw, rule: 'must be a JSON object' }], source);
  }
  const issues = unknownKeyIssues(raw);

  const settings = new JobctrlSettings();
  const target = settings as unknown as JsonObject;
  for (const key of SETTINGS_KEYS) {
    const value = raw[key];
    if (value === undefined) continue;
    // A non-object llm is kept as-is so the validator reports it instead of it being replaced.
    target[key] = key === 'llm' && isJsonObject(value) ? buildLlm(value) : value;
  }

  collectIssues(
    validateSync(settings, { forbidUnknownValues: true, validationError: { target: false, value: true } }),
    '',
    issues,
  );
  issues.push(...sharedEnvNameIssues(settings));
  if (issues.length > 0) {
    issues.sort((a, b) => keyOrder(a.key) - keyOrder(b.key));
    throw new ConfigError(issues, source);
  }

  // In a document null means "unset" for optional keys; the typed instance uses undefined.
  for (const key of OPTIONAL_SETTINGS_KEYS) {
    if (target[key] === null) target[key] = undefined;
  }
  const llm = settings.llm as unknown as JsonObject;
  for (const key of OPTIONAL_LLM_KEYS) {
    if (llm[key] === null) llm[key] = undefined;
  }
  return settings;
}

/** The plain snake_case document: every key present, unset optional keys as null, no class instances. */
export function toDocument(settings: JobctrlSettings): Record<string, unknown> {
  const source = settings as unknown as JsonObject;
  const llmSource = (settings.llm ?? new LlmSettings()) as unknown as JsonObject;
  const doc: Record<string, unknown> = {};
  for (const key of SETTINGS_KEYS) {
    if (key === 'llm') {
      const llm: Record<string, unknown> = {};
      for (const llmKey of LLM_SETTINGS_KEYS) llm[llmKey] = llmSource[llmKey] ?? null;
      doc[key] = llm;
    } else {
      doc[key] = source[key] ?? null;
    }
  }
  return doc;
}

/** The defaults as a document; handy for a "reset" button and for docs. */
export function defaultDocument(): Record<string, unknown> {
  return toDocument(new JobctrlSettings());
}
