import { statSync } from 'node:fs';
import { ConfigError } from './config.error';
import { readConfigFileSync } from './config-file.reader';
import type { JobctrlSettings } from './jobctrl-settings.schema';
import type { ResolvedConfig } from './resolved-config.model';
import { validateSettings } from './settings.validation';

/**
 * Settings a long-running process reads live (daily_spend_ceiling_usd, tailor_score_threshold,
 * pipeline_internal_concurrency): the file is re-read when its modification time changes, so a
 * PATCH /v1/settings applies without a restart. A file that stops validating (a hand edit in
 * progress) keeps the last valid settings rather than stopping the worker mid-run.
 */
export function createLiveSettingsReader(config: Pick<ResolvedConfig, 'configPath' | 'settings'>): () => JobctrlSettings {
  let current = config.settings;
  let seenMtimeMs: number | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(config.configPath).mtimeMs;
    } catch {
      return current; // no file: the defaults the process started with
    }
    if (mtimeMs === seenMtimeMs) return current;
    try {
      current = validateSettings(readConfigFileSync(config.configPath) ?? {}, config.configPath);
      seenMtimeMs = mtimeMs;
    } catch (err) {
      if (!(err instanceof ConfigError) && !(err instanceof SyntaxError)) throw err;
    }
    return current;
  };
}
