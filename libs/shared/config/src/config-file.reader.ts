import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ConfigError } from './config.error';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

function fileError(path: string, rule: string): ConfigError {
  return new ConfigError([{ key: '(file)', value: path, rule }], path);
}

function parse(text: string, path: string): unknown {
  try {
    // Some Windows editors save a BOM, which JSON.parse rejects with an unhelpful message.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw fileError(path, `is not valid JSON: ${(err as Error).message}`);
  }
}

/** The parsed file, or undefined when it does not exist (a missing config means "all defaults"). */
export function readConfigFileSync(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw fileError(path, `cannot be read: ${(err as Error).message}`);
  }
  return parse(text, path);
}

export async function readConfigFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw fileError(path, `cannot be read: ${(err as Error).message}`);
  }
  return parse(text, path);
}
