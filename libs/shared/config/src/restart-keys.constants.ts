import { TEMPORAL_CONNECTION_KEYS, type SettingsKey } from './jobctrl-settings.schema';

/** Settings the worker reads only at start; changing one takes effect after a worker restart. */
export const WORKER_RESTART_KEYS: readonly SettingsKey[] = Object.freeze([
  'worker_activity_slots',
  'app_dir',
  'database_path',
  ...TEMPORAL_CONNECTION_KEYS,
  'temporal_task_queue',
  'temporal_dev_server_port',
  'worker_heartbeat_interval_seconds',
  'worker_heartbeat_stale_seconds',
  'llm',
  'browser_executable_path',
  'host_min_spacing_ms',
  'host_max_in_flight',
  'api_response_max_bytes',
  'allowed_private_hosts',
  'file_source_dirs',
  'file_source_max_bytes',
]);

/** Settings the API reads only at start. The Temporal connection keys (temporal_api_key_env among
 * them) are here too: the API's Temporal client connects and authenticates like the worker's. */
export const API_RESTART_KEYS: readonly SettingsKey[] = Object.freeze([
  'api_host',
  'api_port',
  'api_token_env',
  'app_dir',
  'database_path',
  ...TEMPORAL_CONNECTION_KEYS,
]);
