import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from './config.loader';
import { createLiveSettingsReader } from './live-settings.reader';

describe('createLiveSettingsReader', () => {
  it('picks up a changed file and keeps the last valid settings while the file is invalid', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-live-'));
    try {
      const file = path.join(dir, 'config.json');
      fs.writeFileSync(file, JSON.stringify({ daily_spend_ceiling_usd: 1 }));
      const read = createLiveSettingsReader(loadConfig({ path: file, env: {} }));
      expect(read().daily_spend_ceiling_usd).toBe(1);
      fs.writeFileSync(file, JSON.stringify({ daily_spend_ceiling_usd: 2.5 }));
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
      expect(read().daily_spend_ceiling_usd).toBe(2.5);
      fs.writeFileSync(file, '{ "daily_spend_ceiling_usd": ');
      fs.utimesSync(file, new Date(), new Date(Date.now() + 10_000));
      expect(read().daily_spend_ceiling_usd).toBe(2.5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
