import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeConfigAtomic } from './config-file.writer';

describe('writeConfigAtomic', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobctrl-write-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes pretty JSON with a trailing newline and leaves no temp file', async () => {
    const path = join(dir, 'config.json');
    await writeConfigAtomic(path, { worker_activity_slots: 6, llm: { provider: 'openai' } });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe('{\n  "worker_activity_slots": 6,\n  "llm": {\n    "provider": "openai"\n  }\n}\n');
    expect(JSON.parse(text)).toEqual({ worker_activity_slots: 6, llm: { provider: 'openai' } });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('replaces an existing file and creates missing folders', async () => {
    const path = join(dir, 'nested', 'deeper', 'config.json');
    await writeConfigAtomic(path, { api_port: 1 });
    await writeConfigAtomic(path, { api_port: 2 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ api_port: 2 });
    expect(readdirSync(join(dir, 'nested', 'deeper'))).toEqual(['config.json']);
  });

  it('removes the temp file and keeps the old file when the rename fails', async () => {
    // A non-empty directory at the target path makes rename fail after the temp file was written.
    const path = join(dir, 'config.json');
    mkdirSync(join(path, 'occupied'), { recursive: true });
    await expect(writeConfigAtomic(path, { api_port: 1 })).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(lstatSync(path).isDirectory()).toBe(true);
  });

  it('writes through a symlink instead of replacing it', async () => {
    const real = join(dir, 'real.json');
    const link = join(dir, 'config.json');
    writeFileSync(real, '{}');
    symlinkSync(real, link);
    await writeConfigAtomic(link, { api_port: 9 });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ api_port: 9 });
  });
});
