import type { ConfigIssue } from './config.error';
import { JobctrlSettings, LLM_SETTINGS_KEYS, SETTINGS_KEYS, TEMPORAL_CONNECTION_KEYS } from './jobctrl-settings.schema';

/**
 * Settings that widen what jobctrl may read, run or reach, or where it sends a credential (#39).
 * Through the Settings API they change only when the API requires a token — the caller has then
 * proved to be the owner. Without a token any local user (another account, a process in a
 * container sharing the loopback) can reach the API, so these are changed in config.json by hand:
 * writing that file already needs the owner's file permissions.
 *
 * A key is guarded when its effective value changes; sending a key unchanged (a form that posts its
 * whole tab) is not a change and passes.
 */
export interface FileOnlySetting {
  /** Dotted path in the settings document (`llm.base_url`). */
  key: string;
  why: string;
}

const TEMPORAL_CONNECTION_WHY = 'decides which Temporal server the apps connect to and which credentials they present';

const NAMED: readonly FileOnlySetting[] = [
  { key: 'app_dir', why: 'decides where the database, logs and browser profiles are written' },
  { key: 'database_path', why: 'decides which database file the apps open and migrate' },
  ...TEMPORAL_CONNECTION_KEYS.map((key) => ({
    key,
    why: key === 'temporal_api_key_env' ? 'names the environment variable whose secret is sent to the Temporal server' : TEMPORAL_CONNECTION_WHY,
  })),
  { key: 'llm.base_url', why: 'decides where model requests, and the model API key with them, are sent' },
  { key: 'llm.api_key_env', why: 'names the environment variable whose secret is sent to the model server' },
  { key: 'api_host', why: 'decides which network interfaces the API listens on' },
  { key: 'api_token_env', why: 'names the environment variable holding the API token' },
  { key: 'allowed_private_hosts', why: 'lets the crawler reach private, loopback and metadata addresses' },
  { key: 'file_source_dirs', why: 'decides which folders file sources may read from' },
  { key: 'browser_executable_path', why: 'decides which program the worker runs as its browser' },
];

/** Every dotted key that names an environment variable (by the house rule its key ends in `_env`). */
const ENV_NAME_KEYS: readonly string[] = [...SETTINGS_KEYS.filter((key) => key.endsWith('_env')), ...LLM_SETTINGS_KEYS.filter((key) => key.endsWith('_env')).map((key) => `llm.${key}`)];

/** The named keys, then any `*_env` key added later: each names a secret's variable, so each is file-only. */
export const FILE_ONLY_SETTINGS: readonly FileOnlySetting[] = Object.freeze([
  ...NAMED,
  ...ENV_NAME_KEYS.filter((key) => !NAMED.some((s) => s.key === key)).map((key) => ({ key, why: 'names an environment variable whose secret jobctrl sends somewhere' })),
]);

/** Why a guarded change was refused: the same sentence for the 403 and the Settings page. */
export const FILE_ONLY_REASON =
  'can be changed through the API only when the API requires a token (api_token_env); without one, any local user could change it, so edit config.json by hand and restart';

function valueAt(doc: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((at, part) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), doc);
}

/**
 * The file-only settings whose effective value differs between two documents (both from
 * toDocument, so an absent optional key and null compare equal).
 */
export function fileOnlyChanges(before: Record<string, unknown>, after: Record<string, unknown>): ConfigIssue[] {
  return FILE_ONLY_SETTINGS.filter(({ key }) => JSON.stringify(valueAt(before, key) ?? null) !== JSON.stringify(valueAt(after, key) ?? null)).map(({ key, why }) => ({
    key,
    value: valueAt(after, key) ?? null,
    rule: `${why}: it ${FILE_ONLY_REASON}`,
  }));
}

/**
 * Two `*_env` settings naming one variable would hand one secret to a second recipient (the API
 * token or the Temporal key sent to a model server as its Bearer). Refused whoever writes it: the
 * file at start-up and the API at any time.
 */
export function sharedEnvNameIssues(settings: JobctrlSettings): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Map<string, string>();
  for (const key of ENV_NAME_KEYS) {
    const name = valueAt(settings as unknown as Record<string, unknown>, key);
    if (typeof name !== 'string' || name === '') continue;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, key);
    else issues.push({ key, value: name, rule: `must not name the variable that ${first} already names: each secret goes to one recipient only` });
  }
  return issues;
}
