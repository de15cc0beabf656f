import { Inject, Injectable } from '@nestjs/common';
import { JOBCTRL_CONFIG } from './config.tokens';
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
 * The Settings API's view of config.json. It tracks the latest written document, while the
 * injected ResolvedConfig stays what the process started with: that is what is actually running,
 * and restartRequired tells the caller when the two differ.
 */
@Injectable()
export class SettingsService {
  private current: Record<string, unknown>;

  constructor(@Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig) {
    this.current = toDocument(config.settings);
  }

  get(): Record<string, unknown> {
    // A copy, so a caller that mutates the response cannot change what the next get() returns.
    return structuredClone(this.current);
  }

  /** Throws ConfigError (the file unchanged) when the patch or the merged result is invalid. */
  async patch(body: unknown): Promise<SettingsServicePatchResult> {
    const result = await patchSettings(this.config.configPath, body);
    this.current = toDocument(result.settings);
    return { document: this.get(), changedKeys: result.changedKeys, restartRequired: result.restartRequired };
  }
}
