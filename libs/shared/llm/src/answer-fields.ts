/**
 * Readers for a model's structured answer. Every message starts with the field's path ("score:",
 * "experience[1].start:"), because it goes back to the model in the client's repair retry and must
 * say exactly what to fix.
 */
type AnswerRecord = Record<string, unknown>;

/** An object with only the allowed keys; `path` "answer" names the top level. */
export function answerObject(value: unknown, allowed: readonly string[], path = 'answer'): AnswerRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${path}: must be a JSON object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new Error(`${path === 'answer' ? key : `${path}.${key}`}: unexpected property (allowed: ${allowed.join(', ')})`);
  }
  return value as AnswerRecord;
}

export function requiredField(parent: AnswerRecord, key: string, path = key): unknown {
  const value = parent[key];
  if (value === undefined || value === null) throw new Error(`${path}: is required`);
  return value;
}

/** A non-empty string, trimmed. */
export function requiredText(parent: AnswerRecord, key: string, path = key): string {
  const value = requiredField(parent, key, path);
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`${path}: must be a non-empty string`);
  return value.trim();
}

/** A string or null; absent, null or blank → undefined. */
export function optionalText(parent: AnswerRecord, key: string, path = key): string | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`${path}: must be a string or null`);
  return value.trim() === '' ? undefined : value.trim();
}

export function requiredList(parent: AnswerRecord, key: string, path = key): unknown[] {
  const value = requiredField(parent, key, path);
  if (!Array.isArray(value)) throw new Error(`${path}: must be an array`);
  return value;
}

/** An array of non-empty strings, each trimmed. */
export function textList(parent: AnswerRecord, key: string, path = key): string[] {
  const value = requiredField(parent, key, path);
  if (!Array.isArray(value)) throw new Error(`${path}: must be an array of strings`);
  return value.map((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') throw new Error(`${path}[${i}]: must be a non-empty string`);
    return item.trim();
  });
}
