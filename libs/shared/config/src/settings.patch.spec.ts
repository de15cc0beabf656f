import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './config.loader';
import { API_RESTART_KEYS, WORKER_RESTART_KEYS } from './restart-keys.constants';
import { SETTINGS_KEYS } from './jobctrl-settings.schema';
import { patchSettings } from './settings.patch';

describe('patchSettings', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobctrl-patch-'));
    path = join(dir, 'config.json');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const fileDoc = (): unknown => JSON.parse(readFileSync(path, 'utf8'));

  async function configErrorOf(promise: Promise<unknown>): Promise<ConfigError> {
    try {
      await promise;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  it('restart key lists name only real settings', () => {
    for (const key of [...WORKER_RESTART_KEYS, ...API_RESTART_KEYS]) expect(SETTINGS_KEYS).toContain(key);
    expect(WORKER_RESTART_KEYS).not.toContain('daily_spend_ceiling_usd');
    expect(WORKER_RESTART_KEYS).not.toContain('pipeline_internal_concurrency');
  });

  it('writes a changed slot count and says the worker must restart', async () => {
    const result = await patchSettings(path, { worker_activity_slots: 8 });
    expect(result.changedKeys).toEqual(['worker_activity_slots']);
    expect(result.restartRequired).toEqual(['worker_activity_slots']);
    expect(result.settings.worker_activity_slots).toBe(8);
    expect(fileDoc()).toEqual({ worker_activity_slots: 8 });
    expect(loadConfig({ path, env: {} }).workerActivitySlots).toBe(8);
  });

  it('needs no restart for the spend ceiling', async () => {
    const result = await patchSettings(path, { daily_spend_ceiling_usd: 12.5 });
    expect(result.changedKeys).toEqual(['daily_spend_ceiling_usd']);
    expect(result.restartRequired).toEqual([]);
  });

  it('lists restart keys in schema order for the union of worker and API keys', async () => {
    const result = await patchSettings(path, { api_port: 4000, daily_spend_ceiling_usd: 1, app_dir: 'x', llm: { provider: 'openai', model: 'gpt-4o-mini' } });
    expect(result.changedKeys).toEqual(['app_dir', 'daily_spend_ceiling_usd', 'llm', 'api_port']);
    expect(result.restartRequired).toEqual(['app_dir', 'llm', 'api_port']);
  });

  it('rejects an invalid value and leaves the file byte-for-byte unchanged', async () => {
    const original = '{\n    "worker_activity_slots": 6,   "api_port": 3001\n}';
    writeFileSync(path, original);
    const error = await configErrorOf(patchSettings(path, { worker_activity_slots: 0 }));
    expect(error.issues).toEqual([{ key: 'worker_activity_slots', value: 0, rule: 'must be an integer from 1 to 64' }]);
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('rejects unknown keys by name, even when set to null', async () => {
    writeFileSync(path, '{}');
    const error = await configErrorOf(patchSettings(path, { slots: 2, typo: null, llm: { foo: null } }));
    expect(error.issues.map((i) => i.key)).toEqual(['slots', 'typo', 'llm.foo']);
    expect(readFileSync(path, 'utf8')).toBe('{}');
  });

  it('rejects a patch that is not an object', async () => {
    const error = await configErrorOf(patchSettings(path, [1]));
    expect(error.issues).toEqual([{ key: '(patch)', value: [1], rule: 'must be a JSON object of settings' }]);
    expect(existsSync(path)).toBe(false);
  });

  it('validates the merged whole, including cross-field rules', async () => {
    writeFileSync(path, JSON.stringify({ worker_heartbeat_stale_seconds: 10 }));
    const error = await configErrorOf(patchSettings(path, { worker_heartbeat_interval_seconds: 10 }));
    expect(error.issues[0].key).toBe('worker_heartbeat_stale_seconds');
  });

  it('does not overwrite a file that is not valid JSON', async () => {
    writeFileSync(path, '{ nope');
    const error = await configErrorOf(patchSettings(path, { api_port: 1 }));
    expect(error.issues[0].key).toBe('(file)');
    expect(readFileSync(path, 'utf8')).toBe('{ nope');
  });

  it('can repair an invalid key in the file', async () => {
    writeFileSync(path, JSON.stringify({ worker_activity_slots: '4', api_port: 3001 }));
    const result = await patchSettings(path, { worker_activity_slots: 4 });
    expect(result.changedKeys).toEqual(['worker_activity_slots']);
    expect(fileDoc()).toEqual({ worker_activity_slots: 4, api_port: 3001 });
  });

  it('resets a key to its default with null, but stores null for nullable keys', async () => {
    writeFileSync(path, JSON.stringify({ worker_activity_slots: 9, temporal_address: 'temporal:7233', database_path: 'db.sqlite' }));
    const result = await patchSettings(path, { worker_activity_slots: null, temporal_address: null, database_path: null });
    expect(result.settings.worker_activity_slots).toBe(4);
    expect(result.settings.temporal_address).toBeNull();
    expect(result.changedKeys).toEqual(['database_path', 'worker_activity_slots', 'temporal_address']);
    expect(fileDoc()).toEqual({ temporal_address: null, database_path: null });
  });

  it('merges llm shallowly; null inside llm resets that field', async () => {
    writeFileSync(path, JSON.stringify({ llm: { provider: 'openai', model: 'a', base_url: 'http://localhost:8080' } }));
    const result = await patchSettings(path, { llm: { model: 'b', base_url: null } });
    expect(fileDoc()).toEqual({ llm: { provider: 'openai', model: 'b' } });
    expect(result.settings.llm.base_url).toBeUndefined();
    expect(result.restartRequired).toEqual(['llm']);
  });

  it('reports no change and does not create the file for a no-op patch', async () => {
    const result = await patchSettings(path, { worker_activity_slots: null });
    expect(result).toMatchObject({ changedKeys: [], restartRequired: [] });
    expect(existsSync(path)).toBe(false);
  });

  it('setting a default explicitly is not a change', async () => {
    const result = await patchSettings(path, { worker_activity_slots: 4 });
    expect(result.changedKeys).toEqual([]);
    expect(fileDoc()).toEqual({ worker_activity_slots: 4 });
  });

  it('serialises concurrent patches so neither update is lost', async () => {
    writeFileSync(path, '{}');
    const results = await Promise.all([
      patchSettings(path, { worker_activity_slots: 7 }),
      patchSettings(path, { daily_spend_ceiling_usd: 9 }),
      patchSettings(path, { api_port: 0 }),
    ]);
    expect(results.map((r) => r.changedKeys)).toEqual([['worker_activity_slots'], ['daily_spend_ceiling_usd'], ['api_port']]);
    expect(fileDoc()).toEqual({ worker_activity_slots: 7, daily_spend_ceiling_usd: 9, api_port: 0 });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('keeps the chain going after a failed patch', async () => {
    const [bad, good] = await Promise.allSettled([
      patchSettings(path, { worker_activity_slots: 0 }),
      patchSettings(path, { worker_activity_slots: 2 }),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    expect(fileDoc()).toEqual({ worker_activity_slots: 2 });
  });
});
