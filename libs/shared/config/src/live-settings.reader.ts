import { statSync } from 'node:fs';
import { ConfigError } from './config.error';
import { readConfigFileSync } from './config-file.reader';
import type { JobctrlSettings } from './jobctrl-settings.schema';
import type { ResolvedConfig } from './resolved-config.model';
import { validateSettings } from './settings.validation';

/** The live settings the worker applies without a restart, in the units its code uses. */
export interface LiveWorkerSettings {
  dailySpendCeilingUsd: number;
  tailorScoreThreshold: number;
  recoveryIdleMs: number;
  internalConcurrency: number;
  availabilityRecheckMs: number;
  availabilitySweepsEnabled: boolean;
  applyDailyCap: number;
}

export function liveWorkerSettings(s: JobctrlSettings): LiveWorkerSettings {
  return {
    dailySpendCeilingUsd: s.daily_spend_ceiling_usd,
    tailorScoreThreshold: s.tailor_score_threshold,
    recoveryIdleMs: s.preparation_recovery_idle_minutes * 60_000,
    internalConcurrency: s.pipeline_internal_concurrency,
    availabilityRecheckMs: s.availability_recheck_hours * 3_600_000,
    availabilitySweepsEnabled: s.availability_sweeps_enabled,
    applyDailyCap: s.apply_daily_cap,
  };
}

/**
 * The one reader of the settings a long-running process applies without a restart
 * (daily_spend_ceiling_usd, tailor_score_threshold, preparation_recovery_idle_minutes,
 * pipeline_internal_concurrency): both apps get it from JobctrlConfigModule, so the API, the
 * worker's activities and its recovery loop can never disagree about the value "now".
 *
 * The file is re-read when it changes, so a PATCH /v1/settings — or a hand edit of config.json —
 * applies without a restart. A file that stops validating (a hand edit in progress) keeps the last
 * valid settings rather than stopping the worker mid-run.
 *
 * Whoever starts a piece of work (a run, a batch, a discovery plan) reads the value once and carries
 * that snapshot; work already running is not resized by a later change.
 */
export class LiveSettingsReader {
  private current: JobctrlSettings;
  private seen: string | undefined;

  constructor(private readonly config: Pick<ResolvedConfig, 'configPath' | 'settings'>) {
    this.current = config.settings;
  }

  settings(): JobctrlSettings {
    let version: string;
    try {
      const st = statSync(this.config.configPath);
      // The inode is part of the version: the atomic writer renames a new file into place, so two
      // writes within one mtime tick (coarse file systems) still read as a change.
      version = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return this.current; // no file: the defaults the process started with
    }
    if (version === this.seen) return this.current;
    try {
      this.current = validateSettings(readConfigFileSync(this.config.configPath) ?? {}, this.config.configPath);
      this.seen = version;
    } catch (err) {
      if (!(err instanceof ConfigError) && !(err instanceof SyntaxError)) throw err;
    }
    return this.current;
  }

  /** The worker's live settings as configured now. */
  worker(): LiveWorkerSettings {
    return liveWorkerSettings(this.settings());
  }

  /** pipeline_internal_concurrency as configured now: what a run, batch or plan starting now snapshots. */
  pipelineInternalConcurrency(): number {
    return this.settings().pipeline_internal_concurrency;
  }
}
