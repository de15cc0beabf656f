import type { LlmProvider, JobctrlSettings } from './jobctrl-settings.schema';

export interface ResolvedTemporalTls {
  caPath?: string;
  certPath?: string;
  keyPath?: string;
  serverName?: string;
}

/** The configuration a process runs with: validated, defaulted, paths absolute, env overrides applied. */
export interface ResolvedConfig {
  /** Absolute. */
  configPath: string;
  /** Absolute; relative paths in the file resolve against it. */
  configDir: string;
  /** As validated from the file, before environment overrides. */
  settings: JobctrlSettings;
  appDir: string;
  databasePath: string;
  workerActivitySlots: number;
  temporal: {
    /** null: use the embedded dev server on 127.0.0.1:devServerPort. */
    address: string | null;
    namespace: string;
    taskQueue: string;
    devServerPort: number;
    tls: null | ResolvedTemporalTls;
    apiKey?: string;
  };
  api: {
    host: string;
    port: number;
    /** The variable api_token_env names, when set. */
    tokenEnv?: string;
    /** The token read from that variable (never from config.json); absent when unset or empty. */
    token?: string;
  };
  /** Crawler exceptions to the private-address refusal (lower-cased, IPv6 without brackets). */
  allowedPrivateHosts: string[];
  /** Absolute folders file sources may read inside. */
  fileSourceDirs: string[];
  /** file_source_max_bytes: the largest file a file source reads. */
  fileSourceMaxBytes: number;
  heartbeat: { intervalMs: number; staleMs: number };
  dailySpendCeilingUsd: number;
  llm: {
    provider: LlmProvider;
    model?: string;
    baseUrl?: string;
    apiKeyEnv?: string;
    /** The key from the environment variable api_key_env names (never stored in config.json). */
    apiKey?: string;
    timeoutMs: number;
    prices: Record<string, { input_usd_per_mtok: number; output_usd_per_mtok: number }>;
  };
  tailorScoreThreshold: number;
  preparationRecoveryIdleMs: number;
  browserExecutablePath: string;
  /** The shared host policy; maxApiResponseBytes is api_response_max_bytes. */
  hostPolicy: { minSpacingMs: number; maxInFlightPerHost: number; maxApiResponseBytes: number };
}
