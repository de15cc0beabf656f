import { Inject, Injectable } from '@nestjs/common';
import { JOBCTRL_CONFIG } from './config.tokens';
import type { JobctrlSettings } from './jobctrl-settings.schema';
import { LiveSettingsReader } from './live-settings.reader';
import { ResolvedConfig } from './resolved-config.model';
import { FILE_ONLY_REASON, FILE_ONLY_SETTINGS, type FileOnlySetting } from './settings-guards';
import { patchSettings } from './settings.patch';
import { toDocument } from './settings.validation';

/** Which settings the API may change for its callers, and why not (GET /v1/settings/guards). */
export interface SettingsGuards {
  /** True when the API requires a token: its callers proved to be the owner and may change every key. */
  file_only_writable: boolean;
  /** Why the keys below are read-only here (null when they are writable). */
  reason: string | null;
  /** The settings that change only in config.json unless the API requires a token. */
  file_only: FileOnlySetting[];
}

export interface SettingsServicePatchResult {
  /** The whole settings document after the patch (same shape as get()). */
  document: Record<string, unknown>;
  changedKeys: string[];
  restartRequired: string[];
}

/**
 * The Settings API's view of config.json: the document as the live reader sees it now (written by
 * a PATCH or by hand), while the injected ResolvedConfig stays what the process started with: that
 * is what is actually running for the restart keys, and restartRequired tells the caller when the
 * two differ.
 */
@Injectable()
export class SettingsService {
  constructor(
    @Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig,
    private readonly reader: LiveSettingsReader,
  ) {}

  get(): Record<string, unknown> {
    // A deep copy, so a caller that mutates the response (nested prices included) cannot change
    // what the reader holds.
    return structuredClone(toDocument(this.reader.settings()));
  }

  /** The typed settings as configured now (the live keys apply without a restart). */
  live(): JobctrlSettings {
    return this.reader.settings();
  }

  /** Only a caller that proved to be the owner (the API requires a token) changes a file-only key. */
  private ownerProven(): boolean {
    return this.config.api.token !== undefined;
  }

  guards(): SettingsGuards {
    const writable = this.ownerProven();
    return {
      file_only_writable: writable,
      reason: writable ? null : `These settings ${FILE_ONLY_REASON}.`,
      file_only: FILE_ONLY_SETTINGS.map((s) => ({ ...s })),
    };
  }

  /**
   * The environment overrides this process started with, as far as the config reads them: the stack
   * restarts the apps with the same environment, so a patch is checked against what they will see.
   */
  private startEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    const { temporal, settings } = this.config;
    if (temporal.address !== null && temporal.address !== settings.temporal_address) env['TEMPORAL_ADDRESS'] = temporal.address;
    if (temporal.namespace !== settings.temporal_namespace) env['TEMPORAL_NAMESPACE'] = temporal.namespace;
    return env;
  }

  /**
   * Throws ConfigError (the file unchanged) when the patch or the merged result is invalid, and
   * FileOnlySettingsError when it changes a file-only key while the API requires no token.
   */
  async patch(body: unknown): Promise<SettingsServicePatchResult> {
    const result = await patchSettings(this.config.configPath, body, { allowFileOnly: this.ownerProven(), env: this.startEnv() });
    return { document: toDocument(result.settings), changedKeys: result.changedKeys, restartRequired: result.restartRequired };
  }
}
