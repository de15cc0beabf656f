import { DynamicModule, Module } from '@nestjs/common';
import { JOBCTRL_CONFIG } from './config.tokens';
import { LiveSettingsReader } from './live-settings.reader';
import { ResolvedConfig } from './resolved-config.model';
import { SettingsService } from './settings.service';

/**
 * Takes an already loaded config rather than loading it: the app loads it before Nest boots (it
 * needs the port and the worker its slot count first), and tests pass their own.
 */
@Module({})
export class JobctrlConfigModule {
  static forRoot(config: ResolvedConfig): DynamicModule {
    return {
      module: JobctrlConfigModule,
      global: true,
      // One live reader per process: the API's run starts and the worker's activities and recovery
      // all read the live settings through it.
      providers: [{ provide: JOBCTRL_CONFIG, useValue: config }, { provide: LiveSettingsReader, useValue: new LiveSettingsReader(config) }, SettingsService],
      exports: [JOBCTRL_CONFIG, LiveSettingsReader, SettingsService],
    };
  }
}
