import type { SettingsKey } from './jobctrl-settings.schema';

/** Settings the worker reads only at start; changing one takes effect after a worker restart. */
export const WORKER_RESTART_KEYS: readonly SettingsKey[] = Object.freeze([
  'worker_activity_slots',
  'app_dir',
  'database_path',
  'temporal_address',
  'temporal_namespace',
  'temporal_task_queue',
  'temporal_dev_server_port',
  'temporal_tls',
  'temporal_tls_ca_path',
  'temporal_tls_cert_path',
  'temporal_tls_key_path',
  'temporal_tls_server_name',
  'temporal_api_key_env',
  'worker_heartbeat_interval_seconds',
  'worker_heartbeat_stale_seconds',
  'llm',
  'browser_executable_path',
  'host_min_spacing_ms',
  'host_max_in_flight',
]);

/** Settings the API reads only at start. temporal_api_key_env is here too: the API's Temporal
 * client authenticates with the same key as the worker's. */
export const API_RESTART_KEYS: readonly SettingsKey[] = Object.freeze([
  'api_host',
  'api_port',
  'app_dir',
  'database_path',
  'temporal_address',
  'temporal_namespace',
  'temporal_tls',
  'temporal_tls_ca_path',
  'temporal_tls_cert_path',
  'temporal_tls_key_path',
  'temporal_tls_server_name',
  'temporal_api_key_env',
]);
