import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './config.loader';
import { JOBCTRL_CONFIG } from './config.tokens';
import { JobctrlConfigModule } from './jobctrl-config.module';
import { LiveSettingsReader } from './live-settings.reader';
import { ResolvedConfig } from './resolved-config.model';
import { SettingsService } from './settings.service';

@Injectable()
class Consumer {
  constructor(
    @Inject(JOBCTRL_CONFIG) readonly config: ResolvedConfig,
    readonly settings: SettingsService,
    readonly live: LiveSettingsReader,
  ) {}
}

// A separate module that does not import JobctrlConfigModule: the config must reach it as a global.
@Module({ providers: [Consumer], exports: [Consumer] })
class FeatureModule {}

describe('JobctrlConfigModule', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobctrl-module-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function boot(config: ResolvedConfig): Promise<Consumer> {
    const moduleRef = await Test.createTestingModule({
      imports: [JobctrlConfigModule.forRoot(config), FeatureModule],
    }).compile();
    return moduleRef.get(Consumer);
  }

  it('provides the loaded config globally', async () => {
    const config = loadConfig({ path: join(dir, 'config.json'), env: {} });
    const consumer = await boot(config);
    expect(consumer.config).toBe(config);
    expect(consumer.settings.get()).toMatchObject({ worker_activity_slots: 4 });
  });

  it('SettingsService keeps the latest document while the started config stays as it was', async () => {
    const path = join(dir, 'config.json');
    const config = loadConfig({ path, env: {} });
    const { settings } = await boot(config);

    const result = await settings.patch({ worker_activity_slots: 10 });
    expect(result.restartRequired).toEqual(['worker_activity_slots']);
    expect(result.document['worker_activity_slots']).toBe(10);
    expect(settings.get()['worker_activity_slots']).toBe(10);
    expect(config.workerActivitySlots).toBe(4);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ worker_activity_slots: 10 });

    await expect(settings.patch({ worker_activity_slots: 0 })).rejects.toBeInstanceOf(ConfigError);
    expect(settings.get()['worker_activity_slots']).toBe(10);
  });

  it('one live reader: a PATCH and a hand edit of config.json both reach it without a restart', async () => {
    const path = join(dir, 'config.json');
    const config = loadConfig({ path, env: {} });
    const { settings, live } = await boot(config);
    expect(live.pipelineInternalConcurrency()).toBe(2);

    const result = await settings.patch({ pipeline_internal_concurrency: 5 });
    expect(result.restartRequired).toEqual([]);
    expect(live.pipelineInternalConcurrency()).toBe(5);
    expect(settings.live().pipeline_internal_concurrency).toBe(5);

    writeFileSync(path, JSON.stringify({ pipeline_internal_concurrency: 7 }));
    expect(live.pipelineInternalConcurrency()).toBe(7);
    expect(settings.get()['pipeline_internal_concurrency']).toBe(7);
    expect(config.settings.pipeline_internal_concurrency).toBe(2);
  });

  it('get() returns a copy', async () => {
    const { settings } = await boot(loadConfig({ path: join(dir, 'config.json'), env: {} }));
    (settings.get()['llm'] as Record<string, unknown>)['provider'] = 'openai';
    expect(settings.get()['llm']).toMatchObject({ provider: 'extractive' });
  });
});
