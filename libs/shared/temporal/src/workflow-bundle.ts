import * as fs from 'node:fs';
import * as path from 'node:path';

type WebpackConfig = { resolve?: { alias?: Record<string, string | false | string[]> } } & Record<string, unknown>;

/**
 * Temporal's workflow bundler (webpack) does not read tsconfig path aliases, so workflows importing
 * `@jobctrl/pipeline/contracts` would not resolve. This hook maps every alias of tsconfig.base.json to
 * its file (exact-match aliases, so `@jobctrl/x/y` never shadows `@jobctrl/x`).
 */
export function tsconfigPathsWebpackHook(tsconfigPath: string): (config: WebpackConfig) => WebpackConfig {
  const alias: Record<string, string> = {};
  for (const [key, file] of Object.entries(readTsconfigAliases(tsconfigPath))) alias[`${key}$`] = file;
  return (config) => ({
    ...config,
    resolve: { ...(config.resolve ?? {}), alias: { ...(config.resolve?.alias ?? {}), ...alias } },
  });
}

/** Resolves a tsconfig path alias (e.g. the workflows lib) to its absolute file. */
export function resolveTsconfigAlias(tsconfigPath: string, alias: string): string {
  const file = readTsconfigAliases(tsconfigPath)[alias];
  if (!file) throw new Error(`${tsconfigPath} has no path alias ${alias}`);
  return file;
}

/** Non-wildcard path aliases of a tsconfig, mapped to absolute files (first target wins). */
function readTsconfigAliases(tsconfigPath: string): Record<string, string> {
  const tsconfig = JSON.parse(fs.readFileSync(tsconfigPath, 'utf8')) as { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } };
  const baseUrl = path.resolve(path.dirname(tsconfigPath), tsconfig.compilerOptions?.baseUrl ?? '.');
  const aliases: Record<string, string> = {};
  for (const [key, targets] of Object.entries(tsconfig.compilerOptions?.paths ?? {})) {
    if (!key.includes('*') && targets.length > 0) aliases[key] = path.resolve(baseUrl, targets[0]);
  }
  return aliases;
}

/** The workspace root: the nearest folder above `from` holding nx.json. */
export function findWorkspaceRoot(from: string = __dirname): string {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'nx.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${from}`);
    dir = parent;
  }
}
