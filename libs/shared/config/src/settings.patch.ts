import { resolve } from 'node:path';
import { ConfigError, ConfigIssue } from './config.error';
import { readConfigFile } from './config-file.reader';
import { writeConfigAtomic } from './config-file.writer';
import { JobctrlSettings, NULLABLE_SETTINGS_KEYS, SETTINGS_KEYS, SettingsKey } from './jobctrl-settings.schema';
import { resolveSettings } from './config.loader';
import { API_RESTART_KEYS, WORKER_RESTART_KEYS } from './restart-keys.constants';
import { fileOnlyChanges } from './settings-guards';
import { defaultDocument, isJsonObject, JsonObject, toDocument, unknownKeyIssues, validateSettings } from './settings.validation';

export interface SettingsPatchOptions {
  /**
   * Whether the caller may change the file-only settings (FILE_ONLY_SETTINGS): true only when the
   * caller proved to be the owner (the API requires a token). Default false.
   */
  allowFileOnly?: boolean;
  /** The environment the next start will see (TEMPORAL_ADDRESS and the like); default none. */
  env?: NodeJS.ProcessEnv;
}

/**
 * A patch that would change file-only settings without the owner's proof (#39): the API answers 403
 * naming each key and why. The file is untouched.
 */
export class FileOnlySettingsError extends Error {
  override readonly name = 'FileOnlySettingsError';

  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map((i) => `${i.key}: ${i.rule}`).join('; '));
  }
}

export function isFileOnlySettingsError(err: unknown): err is FileOnlySettingsError {
  return err instanceof FileOnlySettingsError;
}

export interface SettingsPatchResult {
  settings: JobctrlSettings;
  /** Top-level keys whose effective value changed, in schema order. */
  changedKeys: string[];
  /** The changed keys that only take effect after a worker or API restart, in schema order. */
  restartRequired: string[];
}

const RESTART_KEYS = new Set<string>([...WORKER_RESTART_KEYS, ...API_RESTART_KEYS]);
const NULLABLE = new Set<string>(NULLABLE_SETTINGS_KEYS);

// One chain per file: a patch is read-modify-write, so two interleaved PATCHes would each merge
// into the same old document and the second write would drop the first one's change.
const chains = new Map<string, Promise<unknown>>();

function serialise<T>(path: string, task: () => Promise<T>): Promise<T> {
  const previous = chains.get(path) ?? Promise.resolve();
  const run = previous.then(task, task);
  chains.set(path, run);
  const cleanup = (): void => {
    if (chains.get(path) === run) chains.delete(path);
  };
  run.then(cleanup, cleanup);
  return run;
}

/** Shallow merge of one object level; null removes the key, i.e. falls back to the default. */
function mergeLevel(base: JsonObject, patch: JsonObject, keepNull: ReadonlySet<string>): JsonObject {
  const next: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null && !keepNull.has(key)) delete next[key];
    else next[key] = value;
  }
  return next;
}

function mergePatch(base: JsonObject, patch: JsonObject): JsonObject {
  const llmPatch = patch['llm'];
  const next = mergeLevel(base, patch, NULLABLE);
  if (isJsonObject(llmPatch)) {
    const llmBase = isJsonObject(base['llm']) ? base['llm'] : {};
    next['llm'] = mergeLevel(llmBase, llmPatch, new Set());
  }
  return next;
}

/** The effective document before the patch. A file that does not validate (hand-edited while the
 * process ran) still gets a best-effort view, so a PATCH can be the way to repair it. */
function effectiveBefore(current: JsonObject | undefined, path: string): JsonObject {
  try {
    return toDocument(validateSettings(current ?? {}, path));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { ...defaultDocument(), ...(current as JsonObject | undefined) };
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function applyPatch(path: string, patch: unknown, opts: SettingsPatchOptions): Promise<SettingsPatchResult> {
  if (!isJsonObject(patch)) {
    throw new ConfigError([{ key: '(patch)', value: patch, rule: 'must be a JSON object of settings' }], path);
  }
  // Checked on the patch itself, before merging: `{"typo": null}` would otherwise merge away to
  // nothing and pass silently.
  const unknown: ConfigIssue[] = unknownKeyIssues(patch);
  if (unknown.length > 0) throw new ConfigError(unknown, path);

  const current = await readConfigFile(path);
  if (current !== undefined && !isJsonObject(current)) {
    // Nothing in a non-object file can be merged into; replacing it wholesale needs a human.
    throw new ConfigError([{ key: '(document)', value: current, rule: 'must be a JSON object' }], path);
  }
  const base: JsonObject = current ?? {};
  const next = mergePatch(base, patch);
  const settings = validateSettings(next, path);
  const before = effectiveBefore(current, path);
  const after = toDocument(settings);
  if (!opts.allowFileOnly) {
    const guarded = fileOnlyChanges(before, after);
    if (guarded.length > 0) throw new FileOnlySettingsError(guarded);
  }
  // The checks the next start makes across keys (an API key for the embedded server, …): a patch the
  // apps would refuse to start with is refused now, naming the key, instead of exiting 78 later.
  resolveSettings(settings, path, opts.env ?? {});
  const changedKeys = SETTINGS_KEYS.filter((key: SettingsKey) => !sameValue(before[key], after[key]));
  const restartRequired = changedKeys.filter((key) => RESTART_KEYS.has(key));

  // Only the keys the user set are written, not the whole defaulted document, so a later change
  // of a default still reaches keys the user never touched.
  const fileChanged = current === undefined ? Object.keys(next).length > 0 : !sameValue(current, next);
  if (fileChanged) await writeConfigAtomic(path, next);

  return { settings, changedKeys, restartRequired };
}

/**
 * Merges `patch` into the config file at `path`, validates the whole result and only then writes
 * it atomically. On any error a ConfigError (a FileOnlySettingsError for a guarded key without
 * `allowFileOnly`) is thrown and the file is untouched. Concurrent calls
 * for the same file run one after another.
 */
export function patchSettings(path: string, patch: unknown, opts: SettingsPatchOptions = {}): Promise<SettingsPatchResult> {
  const absolute = resolve(path);
  return serialise(absolute, () => applyPatch(absolute, patch, opts));
}
