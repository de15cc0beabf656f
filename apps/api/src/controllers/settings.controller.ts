import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { forbidden } from '@jobctrl/shared/api-errors';
import { isConfigError, isFileOnlySettingsError, JobctrlSettings, LlmSettings, SettingsGuards, SettingsService } from '@jobctrl/shared/config';
import { configErrorToBadRequest } from '../http/validation';
import { ApiErrors } from '../openapi/api-errors.decorator';

/** A settings class as the document shows it: every key present, an unset optional key as null (toDocument). */
type AsDocument<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] };
/** GET /v1/settings: config.json with every key (the OpenAPI schema is derived from this type). */
export type SettingsDocument = Omit<AsDocument<JobctrlSettings>, 'llm'> & { llm: AsDocument<LlmSettings> };
/** PATCH /v1/settings answer: the new document and what the patch changed. */
export interface SettingsPatchDocument extends SettingsDocument {
  changed_keys: string[];
  /** Changed keys that only take effect after the worker or API restarts. */
  restart_required: string[];
}

/**
 * config.json over HTTP, snake_case, the same document as the file. PATCH answers the new document
 * plus two response-only fields: `changed_keys` and `restart_required` (changed keys that only take
 * effect after the worker or API restarts, e.g. worker_activity_slots).
 */
@ApiTags('settings')
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  async get(): Promise<SettingsDocument> {
    // toDocument writes exactly SettingsDocument; the service types it loosely as a JSON object.
    return (await this.settings.get()) as unknown as SettingsDocument;
  }

  /**
   * The settings only config.json changes while the API requires no token (file_source_dirs, every
   * `*_env`, the Temporal connection, …), and whether this API lets its callers change them.
   */
  @Get('guards')
  guards(): SettingsGuards {
    return this.settings.guards();
  }

  /**
   * A partial document (a JSON merge patch: null clears an optional key); every bad key is named in
   * the 400. Changing a file-only key (GET /v1/settings/guards) without an API token answers 403.
   */
  @Patch()
  @ApiBody({ description: 'Any subset of the settings document; nested `llm` keys merge.', schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(400, 403)
  async patch(@Body() body: unknown): Promise<SettingsPatchDocument> {
    try {
      const result = await this.settings.patch(body);
      const document = result.document as unknown as SettingsDocument;
      return { ...document, changed_keys: result.changedKeys, restart_required: result.restartRequired };
    } catch (err) {
      if (isConfigError(err)) throw configErrorToBadRequest(err);
      if (isFileOnlySettingsError(err)) {
        throw forbidden(
          err.issues.map((i) => ({ field: i.key, value: i.value, rule: i.rule })),
          `file-only settings: ${err.issues.map((i) => i.key).join(', ')} change only in config.json while the API requires no token (api_token_env)`,
        );
      }
      throw err;
    }
  }
}
