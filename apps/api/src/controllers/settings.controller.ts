import { Body, Controller, Get, Patch } from '@nestjs/common';
import { isConfigError, SettingsService } from '@jobctrl/shared/config';
import { configErrorToBadRequest } from '../http/validation';

/**
 * config.json over HTTP, snake_case, the same document as the file. PATCH answers the new document
 * plus two response-only fields: `changed_keys` and `restart_required` (changed keys that only take
 * effect after the worker or API restarts, e.g. worker_activity_slots).
 */
@Controller('v1/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  get() {
    return this.settings.get();
  }

  @Patch()
  async patch(@Body() body: unknown) {
    try {
      const result = await this.settings.patch(body);
      return { ...result.document, changed_keys: result.changedKeys, restart_required: result.restartRequired };
    } catch (err) {
      if (isConfigError(err)) throw configErrorToBadRequest(err);
      throw err;
    }
  }
}
