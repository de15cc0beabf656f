import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';

export const LLM_PROVIDERS = ['extractive', 'openai', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

// Each key has exactly one rule sentence, shared by all of its decorators, so a ConfigIssue reads
// the same whichever individual check tripped (type, lower bound or upper bound).
const RULE = {
  nonEmptyString: 'must be a non-empty string',
  nonEmptyStringOrNull: 'must be a non-empty string or null',
  hostPortOrNull: 'must be "host:port" (port 1 to 65535) or null',
  boolean: 'must be true or false',
  nonNegativeNumber: 'must be a number >= 0',
  object: 'must be an object',
  provider: `must be one of ${LLM_PROVIDERS.join(', ')}`,
  httpUrl: 'must be an http:// or https:// URL',
  envName: 'must be an environment variable name (letters, digits and _, not starting with a digit)',
  prices: 'must map model names to {"input_usd_per_mtok": number >= 0, "output_usd_per_mtok": number >= 0}',
  hostList: 'must be an array of host names or IP literals (no scheme, port or path)',
  pathListOrNull: 'must be an array of non-empty paths, or null',
  tokenForNonLoopback: 'is required when api_host is not a loopback address (127.0.0.1, ::1 or localhost): name the environment variable holding the API token',
} as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Bracketed IPv6, or a hostname / IPv4 literal; the port is range-checked separately.
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/;

export function isHostPort(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = HOST_PORT.exec(value);
  if (!match) return false;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535;
}

/** A bare host: a DNS name, an IPv4 literal or an IPv6 literal (brackets optional), nothing else. */
const BARE_HOST = /^(\[?[0-9A-Fa-f:.]+\]?|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)$/;

const LOOPBACK_API_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** Whether binding the API to this host keeps it on this machine (the only case that needs no token). */
export function isLoopbackBindHost(host: string): boolean {
  return LOOPBACK_API_HOSTS.has(host.trim().toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host.trim());
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

function applyAll(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

function IntegerRange(min: number, max: number): PropertyDecorator {
  const message = `must be an integer from ${min} to ${max}`;
  return applyAll(IsInt({ message }), Min(min, { message }), Max(max, { message }));
}

function NonEmptyString(message: string = RULE.nonEmptyString): PropertyDecorator {
  return ValidateBy({ name: 'isNonEmptyString', validator: { validate: isNonEmptyString } }, { message });
}

function OptionalNonEmptyString(): PropertyDecorator {
  return applyAll(IsOptional(), NonEmptyString());
}

function HostPort(): PropertyDecorator {
  return ValidateBy({ name: 'isHostPort', validator: { validate: isHostPort } }, { message: RULE.hostPortOrNull });
}

function isPrice(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const price = value as Record<string, unknown>;
  return keys.length === 2 && ok(price['input_usd_per_mtok']) && ok(price['output_usd_per_mtok']);
}

function PriceTableRule(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPriceTable',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isPrice),
      },
    },
    { message: RULE.prices },
  );
}

function EnvVarName(): PropertyDecorator {
  return Matches(ENV_NAME, { message: RULE.envName });
}

function HostList(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHostList',
      validator: { validate: (value: unknown) => Array.isArray(value) && value.every((host) => typeof host === 'string' && BARE_HOST.test(host)) },
    },
    { message: RULE.hostList },
  );
}

function PathList(): PropertyDecorator {
  return ValidateBy(
    { name: 'isPathList', validator: { validate: (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isNonEmptyString) } },
    { message: RULE.pathListOrNull },
  );
}

/** api_token_env may be left out only while the API listens on loopback alone. */
function TokenForNonLoopbackBind(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTokenForNonLoopbackBind',
      validator: {
        validate(value: unknown, args?: ValidationArguments): boolean {
          const host = (args?.object as Partial<JobctrlSettings> | undefined)?.api_host;
          if (value !== undefined && value !== null) return typeof value === 'string' && ENV_NAME.test(value);
          return typeof host !== 'string' || isLoopbackBindHost(host);
        },
        defaultMessage(args?: ValidationArguments): string {
          return args?.value === undefined || args?.value === null ? RULE.tokenForNonLoopback : RULE.envName;
        },
      },
    },
    {},
  );
}

/** null is the value itself for these keys (not "unset"), so only a non-null value is checked. */
function NullOr(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyAll(ValidateIf((_object: object, value: unknown) => value !== null), ...decorators);
}

const HEARTBEAT_INTERVAL = { min: 1, max: 60 } as const;
const HEARTBEAT_STALE = { min: 2, max: 3600 } as const;
/** The most pipeline_internal_concurrency can be: a bound a worker can size fixed resources by. */
export const PIPELINE_INTERNAL_CONCURRENCY_MAX = 32;

function inRange(value: unknown, range: { min: number; max: number }): value is number {
  return Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max;
}

function StaleAfterHeartbeatInterval(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isGreaterThanHeartbeatInterval',
      validator: {
        validate(value: unknown, args?: ValidationArguments): boolean {
          const interval = (args?.object as Partial<JobctrlSettings> | undefined)?.worker_heartbeat_interval_seconds;
          // An out-of-range interval or stale value is already reported under its own key;
          // comparing against it would only add a second, misleading issue.
          if (!inRange(interval, HEARTBEAT_INTERVAL) || !inRange(value, HEARTBEAT_STALE)) return true;
          return value > interval;
        },
        defaultMessage(args?: ValidationArguments): string {
          const interval = (args?.object as Partial<JobctrlSettings> | undefined)?.worker_heartbeat_interval_seconds;
          return `must be greater than worker_heartbeat_interval_seconds (${String(interval)})`;
        },
      },
    },
    {},
  );
}

/** The `llm` block of config.json. */
export class LlmSettings {
  @IsIn(LLM_PROVIDERS as unknown as string[], { message: RULE.provider })
  provider: LlmProvider = 'extractive';

  /** Required by the network providers; the extractive provider has no model. */
  @ValidateIf((o: LlmSettings, value: unknown) => (value !== undefined && value !== null) || o.provider === 'openai' || o.provider === 'anthropic')
  @ValidateBy(
    { name: 'isNonEmptyString', validator: { validate: isNonEmptyString } },
    { message: (args: ValidationArguments) => (args.value === undefined || args.value === null ? `is required when llm.provider is ${String((args.object as LlmSettings).provider)}` : RULE.nonEmptyString) },
  )
  model?: string = undefined;

  // require_tld off: local model servers live at http://localhost:11434 or http://ollama:8080.
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: RULE.httpUrl })
  base_url?: string = undefined;

  @IsOptional()
  @EnvVarName()
  api_key_env?: string = undefined;

  /** Per model request timeout (each attempt, including the repair retry). */
  @IntegerRange(1, 600)
  timeout_seconds = 60;

  /** USD per million tokens by model; a model without a price is free (local servers). */
  @PriceTableRule()
  prices: Record<string, { input_usd_per_mtok: number; output_usd_per_mtok: number }> = {};
}

/**
 * config.json, and the document the Settings HTTP API reads and patches. Property initialisers are
 * the defaults; every property (optional ones included) is initialised so that
 * `Object.keys(new JobctrlSettings())` is the authoritative, ordered list of keys.
 */
export class JobctrlSettings {
  /** Relative paths resolve against the config file's folder. */
  @NonEmptyString()
  app_dir = '.jobctrl';

  /** null means `<app_dir>/jobctrl.sqlite`. */
  @NullOr(NonEmptyString(RULE.nonEmptyStringOrNull))
  database_path: string | null = null;

  @IntegerRange(1, 64)
  worker_activity_slots = 4;

  @IntegerRange(1, PIPELINE_INTERNAL_CONCURRENCY_MAX)
  pipeline_internal_concurrency = 2;

  /** null means the embedded dev server the project starts itself. */
  @NullOr(HostPort())
  temporal_address: string | null = null;

  @NonEmptyString()
  temporal_namespace = 'default';

  @NonEmptyString()
  temporal_task_queue = 'jobctrl-default';

  /** Port of the embedded dev server on 127.0.0.1. */
  @IntegerRange(1, 65535)
  temporal_dev_server_port = 7233;

  @IsBoolean({ message: RULE.boolean })
  temporal_tls = false;

  @OptionalNonEmptyString()
  temporal_tls_ca_path?: string = undefined;

  @OptionalNonEmptyString()
  temporal_tls_cert_path?: string = undefined;

  @OptionalNonEmptyString()
  temporal_tls_key_path?: string = undefined;

  @OptionalNonEmptyString()
  temporal_tls_server_name?: string = undefined;

  /** The NAME of the environment variable holding the key, so the key never lands in config.json. */
  @IsOptional()
  @EnvVarName()
  temporal_api_key_env?: string = undefined;

  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: RULE.nonNegativeNumber })
  @Min(0, { message: RULE.nonNegativeNumber })
  daily_spend_ceiling_usd = 5;

  @IsObject({ message: RULE.object })
  @ValidateNested({ message: RULE.object })
  llm: LlmSettings = new LlmSettings();

  /** A job scoring at least this goes on to tailoring and a cover letter (read live by the worker). */
  @IntegerRange(0, 100)
  tailor_score_threshold = 60;

  /**
   * Idle preparation recovery: when the worker has been idle this long, jobs left this long in a
   * pending preparation stage are started again under their own prep ids.
   */
  @IntegerRange(1, 1440)
  preparation_recovery_idle_minutes = 15;

  /** Saved postings are checked again once their last check is this old (read live by the sweep). */
  @IntegerRange(1, 8760)
  availability_recheck_hours = 24;

  /** The availability sweep schedule runs (true) or is paused (false); foreground checks work either way. */
  @IsBoolean({ message: RULE.boolean })
  availability_sweeps_enabled = true;

  /**
   * Live applications (submit intents) per local day; dry runs do not count. Read live by the API's
   * admission and by each attempt's final-click checkpoint. 0 stops live applying.
   */
  @IntegerRange(0, 1000)
  apply_daily_cap = 10;

  @NonEmptyString()
  api_host = '127.0.0.1';

  /** 0 asks the OS for an ephemeral port (tests). */
  @IntegerRange(0, 65535)
  api_port = 3000;

  /**
   * The NAME of the environment variable holding the API token (never the token itself). When set,
   * every route, the UI and the event stream require it; required to bind api_host off loopback.
   */
  @TokenForNonLoopbackBind()
  api_token_env?: string = undefined;

  /**
   * Hosts the crawler may reach although they resolve to a private, loopback, link-local or metadata
   * address (a self-hosted board on the LAN; the simulators in tests). Exact host names or IP literals.
   */
  @HostList()
  allowed_private_hosts: string[] = [];

  /** Folders file sources may read from (relative to the config file's folder); null means `<app_dir>/imports`. */
  @NullOr(PathList())
  file_source_dirs: string[] | null = null;

  /**
   * The largest file a file source reads, in bytes (default 100 MB): a larger one fails its source
   * unread, as does one that grows past it while it is read. At most 500 MB: a file's text is one
   * string, and V8 cannot make one much longer.
   */
  @IntegerRange(1, 500 * 1024 * 1024)
  file_source_max_bytes = 100 * 1024 * 1024;

  @IntegerRange(HEARTBEAT_INTERVAL.min, HEARTBEAT_INTERVAL.max)
  worker_heartbeat_interval_seconds = 5;

  @IntegerRange(HEARTBEAT_STALE.min, HEARTBEAT_STALE.max)
  @StaleAfterHeartbeatInterval()
  worker_heartbeat_stale_seconds = 30;

  @NonEmptyString()
  browser_executable_path = '/usr/bin/chromium';

  /** Shared host policy: minimum time between request starts to one host (politeness; 0 in tests). */
  @IntegerRange(0, 60_000)
  host_min_spacing_ms = 2000;

  /** Shared host policy: requests in flight per host. */
  @IntegerRange(1, 16)
  host_max_in_flight = 1;

  /**
   * Shared host policy: the largest JSON API response read (a board API's one document for its whole
   * board: Ashby's ramp is 1.8 MB), streamed and never buffered past it. Detail pages and posting
   * checks keep their own smaller cap. At least 1 MB, at most 256 MB.
   */
  @IntegerRange(1_000_000, 256 * 1024 * 1024)
  api_response_max_bytes = 16 * 1024 * 1024;
}

export type SettingsKey = keyof JobctrlSettings;
export type LlmSettingsKey = keyof LlmSettings;

export const SETTINGS_KEYS: readonly SettingsKey[] = Object.freeze(
  Object.keys(new JobctrlSettings()) as SettingsKey[],
);
export const LLM_SETTINGS_KEYS: readonly LlmSettingsKey[] = Object.freeze(
  Object.keys(new LlmSettings()) as LlmSettingsKey[],
);

/** Keys where null is a meaningful value rather than "use the default". */
export const NULLABLE_SETTINGS_KEYS: readonly SettingsKey[] = Object.freeze(['database_path', 'temporal_address', 'file_source_dirs']);

/** The Temporal connection's TLS files and server name, used when temporal_tls is on; each may be absent. */
export const TEMPORAL_TLS_OPTION_KEYS: readonly SettingsKey[] = Object.freeze([
  'temporal_tls_ca_path',
  'temporal_tls_cert_path',
  'temporal_tls_key_path',
  'temporal_tls_server_name',
]);

/**
 * How an app reaches Temporal: address, namespace, TLS and the API key's variable. Both apps open
 * their Temporal client at start, so each of these needs a restart of both.
 */
export const TEMPORAL_CONNECTION_KEYS: readonly SettingsKey[] = Object.freeze([
  'temporal_address',
  'temporal_namespace',
  'temporal_tls',
  ...TEMPORAL_TLS_OPTION_KEYS,
  'temporal_api_key_env',
]);

/** Keys that may be absent; null in a document means the same as absent. */
export const OPTIONAL_SETTINGS_KEYS: readonly SettingsKey[] = Object.freeze([...TEMPORAL_TLS_OPTION_KEYS, 'temporal_api_key_env', 'api_token_env']);
export const OPTIONAL_LLM_KEYS: readonly LlmSettingsKey[] = Object.freeze(['model', 'base_url', 'api_key_env']);
