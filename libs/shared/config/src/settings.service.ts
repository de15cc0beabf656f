import { Inject, Injectable } from '@nestjs/common';
import { JOBCTRL_CONFIG } from './config.tokens';
import type { JobctrlSettings } from './jobctrl-settings.schema';
import { LiveSettingsReader } from './live-settings.reader';
import { ResolvedConfig } from './resolved-config.model';
import { patchSettings } from './settings.patch';
import { toDocument } from './settings.validation';

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

  /** Throws ConfigError (the file unchanged) when the patch or the merged result is invalid. */
  async patch(body: unknown): Promise<SettingsServicePatchResult> {
    const result = await patchSettings(this.config.configPath, body);
    return { document: toDocument(result.settings), changedKeys: result.changedKeys, restartRequired: result.restartRequired };
  }
}
