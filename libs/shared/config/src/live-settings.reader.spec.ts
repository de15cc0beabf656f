import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultResolvedConfig, loadConfig } from './config.loader';
import { writeConfigAtomic } from './config-file.writer';
import { LiveSettingsReader } from './live-settings.reader';

describe('LiveSettingsReader', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-live-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('picks up a changed file and keeps the last valid settings while the file is invalid', () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ daily_spend_ceiling_usd: 1 }));
    const live = new LiveSettingsReader(loadConfig({ path: file, env: {} }));
    expect(live.settings().daily_spend_ceiling_usd).toBe(1);
    fs.writeFileSync(file, JSON.stringify({ daily_spend_ceiling_usd: 2.5 }));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(live.settings().daily_spend_ceiling_usd).toBe(2.5);
    fs.writeFileSync(file, '{ "daily_spend_ceiling_usd": ');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
    expect(live.settings().daily_spend_ceiling_usd).toBe(2.5);
  });

  it('sees an atomic rewrite even when the modification time did not move', async () => {
    const file = path.join(dir, 'config.json');
    await writeConfigAtomic(file, { pipeline_internal_concurrency: 3 });
    const live = new LiveSettingsReader(loadConfig({ path: file, env: {} }));
    expect(live.pipelineInternalConcurrency()).toBe(3);
    const { mtime } = fs.statSync(file);
    await writeConfigAtomic(file, { pipeline_internal_concurrency: 5 });
    fs.utimesSync(file, mtime, mtime); // as on a file system with a coarse clock
    expect(live.pipelineInternalConcurrency()).toBe(5);
  });

  it('answers the started defaults while there is no file', () => {
    const live = new LiveSettingsReader(loadConfig({ path: path.join(dir, 'absent.json'), env: {} }));
    expect(live.pipelineInternalConcurrency()).toBe(2);
  });

  it('gives the worker its live settings in its own units, and the schema defaults without a file', async () => {
    const file = path.join(dir, 'worker.json');
    fs.writeFileSync(file, JSON.stringify({ preparation_recovery_idle_minutes: 3, tailor_score_threshold: 70 }));
    const live = new LiveSettingsReader(loadConfig({ path: file, env: {} }));
    expect(live.worker()).toEqual({ dailySpendCeilingUsd: 5, tailorScoreThreshold: 70, recoveryIdleMs: 180_000, internalConcurrency: 2, availabilityRecheckMs: 86_400_000, availabilitySweepsEnabled: true, applyDailyCap: 10 });
    await writeConfigAtomic(file, { daily_spend_ceiling_usd: 1.5, pipeline_internal_concurrency: 6, apply_daily_cap: 3 });
    expect(live.worker()).toEqual({ dailySpendCeilingUsd: 1.5, tailorScoreThreshold: 60, recoveryIdleMs: 900_000, internalConcurrency: 6, availabilityRecheckMs: 86_400_000, availabilitySweepsEnabled: true, applyDailyCap: 3 });
    // What a worker built without a config runs with: the schema's defaults, resolved the one way.
    const defaults = defaultResolvedConfig();
    expect(defaults.hostPolicy).toEqual({ minSpacingMs: 2000, maxInFlightPerHost: 1, maxApiResponseBytes: 16_777_216 });
    expect(defaults.llm).toEqual({ provider: 'extractive', timeoutMs: 60_000, prices: {} });
  });
});
