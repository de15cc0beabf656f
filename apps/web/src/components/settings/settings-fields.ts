// The settings tabs: which config.json keys each shows (spec names kept; labels for people).
import type { SettingField } from './settings-form';

export const GENERAL_FIELDS: readonly SettingField[] = [
  { key: 'pipeline_internal_concurrency', label: 'Pipeline internal concurrency', kind: 'int', hint: 'Families and jobs a run works on at once (the same value as the Pipelines page field); a run keeps the value it started with.' },
  { key: 'tailor_score_threshold', label: 'Tailor score threshold', kind: 'int', hint: 'A job scoring at least this gets a tailored resume and a cover letter.' },
  { key: 'preparation_recovery_idle_minutes', label: 'Preparation recovery idle minutes', kind: 'int' },
  { key: 'availability_recheck_hours', label: 'Availability recheck hours', kind: 'int' },
  { key: 'availability_sweeps_enabled', label: 'Availability sweeps enabled', kind: 'bool' },
  { key: 'apply_daily_cap', label: 'Apply daily cap', kind: 'int', hint: 'Live applications per day; 0 stops live applying.' },
];

export const WORKER_FIELDS: readonly SettingField[] = [
  { key: 'worker_activity_slots', label: 'Worker activity slots', kind: 'int' },
  { key: 'worker_heartbeat_interval_seconds', label: 'Heartbeat interval (seconds)', kind: 'int' },
  { key: 'worker_heartbeat_stale_seconds', label: 'Heartbeat stale after (seconds)', kind: 'int' },
  { key: 'file_source_max_bytes', label: 'File source size cap (bytes)', kind: 'int', hint: 'A file source larger than this fails unread (default 104857600, 100 MB).' },
];

export const MODEL_FIELDS: readonly SettingField[] = [
  { key: 'llm.provider', label: 'Provider', kind: { options: ['extractive', 'openai', 'anthropic'] } },
  { key: 'llm.model', label: 'Model', kind: 'nullable-text' },
  { key: 'llm.base_url', label: 'Base URL', kind: 'nullable-text', hint: 'Any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp, LM Studio); empty for the provider default.' },
  { key: 'llm.api_key_env', label: 'API key environment variable', kind: 'nullable-text', hint: 'The NAME of the variable holding the key: the key itself never goes into config.json.' },
  { key: 'llm.prices', label: 'Prices (USD per million tokens, by model)', kind: 'json', hint: '{"model": {"input_usd_per_mtok": 0.15, "output_usd_per_mtok": 0.6}}' },
  { key: 'daily_spend_ceiling_usd', label: 'Daily spend ceiling (USD)', kind: 'number' },
];

export const DISCOVERY_FIELDS: readonly SettingField[] = [
  { key: 'max_parallel_families', label: 'Max parallel families', kind: 'int', hint: 'Families crawled at once per discovery run.' },
];

export const HOST_FIELDS: readonly SettingField[] = [
  { key: 'host_min_spacing_ms', label: 'Minimum spacing per host (ms)', kind: 'int' },
  { key: 'host_max_in_flight', label: 'Requests in flight per host', kind: 'int' },
  { key: 'api_response_max_bytes', label: 'Largest board API response (bytes)', kind: 'int', hint: 'A board API answers its whole board in one JSON document; pages keep their own 1 MB cap.' },
  {
    key: 'allowed_private_hosts',
    label: 'Allowed private hosts',
    kind: 'json',
    hint: 'The crawler refuses private, loopback, link-local and metadata addresses; list a host here (e.g. ["board.lan"]) to let it reach one.',
  },
];
