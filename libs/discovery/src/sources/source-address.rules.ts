import { constants as fsConstants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { AddressGuard, HostRefusedError, type ResolveHost } from '@jobctrl/shared/http';
import type { SourceConfigField } from '../adapters/source-adapter.model';

/**
 * Where sources may point (#15): allowed_private_hosts for a base_url, file_source_dirs for a file
 * source. From the resolved config in the API and the worker; harnesses list the simulators.
 */
export interface SourceAddressPolicy {
  allowedPrivateHosts: readonly string[];
  /** Absolute; a relative file path resolves against the first. */
  fileSourceDirs: readonly string[];
  /** Tests inject a resolver (no outside DNS). */
  resolve?: ResolveHost;
}

/** One refused config field, named as the adapters' own errors name theirs (`config.<field>`). */
export interface SourceAddressIssue {
  field: string;
  value: unknown;
  rule: string;
}

/** A file source path the rules refuse (outside every file_source_dirs entry, or unreadable as such). */
/** The Nest token the API's SourceService reads its policy from (DiscoveryModule builds it from the config). */
export const SOURCE_ADDRESS_POLICY = Symbol('SOURCE_ADDRESS_POLICY');

/** The policy of a resolved config. */
export function sourceAddressPolicyOf(config: { allowedPrivateHosts: readonly string[]; fileSourceDirs: readonly string[] }): SourceAddressPolicy {
  return { allowedPrivateHosts: config.allowedPrivateHosts, fileSourceDirs: config.fileSourceDirs };
}

export class FileSourceRefusedError extends Error {
  override readonly name = 'FileSourceRefusedError';
  readonly code = 'file_source_outside_dirs';
  readonly retryable = false;

  constructor(
    readonly requested: string,
    readonly why: string,
  ) {
    super(`file source ${requested} refused: ${why}`);
  }
}

/**
 * Every URL a config holds where its adapter declares a `url` field (base_url, each of JobStreaming's
 * base_urls, a field inside a list's items), with the dotted field that holds it: the save checks
 * exactly the addresses the crawl will be asked to reach, whatever the kind calls them.
 */
export function declaredUrls(fields: readonly SourceConfigField[], config: unknown, prefix = ''): Array<{ field: string; url: string }> {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return [];
  const values = config as Record<string, unknown>;
  return fields.flatMap((f) => {
    const value = Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : undefined;
    const field = `${prefix}${f.name}`;
    if (f.type === 'url') return typeof value === 'string' && value !== '' ? [{ field, url: value }] : [];
    if (f.type === 'object') return declaredUrls(f.fields ?? [], value, `${field}.`);
    if (f.type === 'object[]' && Array.isArray(value)) return value.flatMap((item, i) => declaredUrls(f.fields ?? [], item, `${field}[${i}].`));
    return [];
  });
}

/**
 * The address rules of a source config, checked when it is saved (POST/PUT /v1/sources), with the
 * crawler's own guard (one rule for both moments): every URL field the kind declares (`fields`) on a
 * private/loopback/link-local/metadata/reserved address needs its host listed in
 * allowed_private_hosts, and a file source must lie inside file_source_dirs. A URL whose host does
 * not resolve right now is let through: the crawl checks again on every request anyway.
 */
export async function sourceAddressIssues(
  kind: string,
  config: Record<string, unknown>,
  policy: SourceAddressPolicy,
  fields: readonly SourceConfigField[],
): Promise<SourceAddressIssue[]> {
  const issues: SourceAddressIssue[] = [];
  const guard = new AddressGuard({ allowedPrivateHosts: policy.allowedPrivateHosts, resolve: policy.resolve });
  for (const { field, url } of declaredUrls(fields, config)) {
    try {
      await guard.check(url);
    } catch (err) {
      // Resolver failures pass (see above); an unparsable URL was the adapter's own 400 already.
      if (!(err instanceof HostRefusedError)) continue;
      issues.push({
        field: `config.${field}`,
        value: url,
        rule: `must not point at a private, loopback, link-local, metadata or reserved address (${err.host} → ${err.address}, ${err.addressClass}) unless allowed_private_hosts lists ${err.host}`,
      });
    }
  }
  if (kind === 'file' && typeof config['path'] === 'string' && config['path'] !== '') {
    try {
      await resolveFileSourcePath(config['path'], policy.fileSourceDirs);
    } catch (err) {
      if (!(err instanceof FileSourceRefusedError)) throw err;
      issues.push({ field: 'config.path', value: config['path'], rule: `must be a readable file inside file_source_dirs (${policy.fileSourceDirs.join(', ')}): ${err.why}` });
    }
  }
  return issues;
}

/**
 * The real path of a file source, refused unless it lies inside one of `dirs` (after every symlink,
 * `..` and the dirs' own symlinks are resolved). Relative paths resolve against the first dir.
 */
export async function resolveFileSourcePath(requested: string, dirs: readonly string[]): Promise<string> {
  if (dirs.length === 0) throw new FileSourceRefusedError(requested, 'no file_source_dirs configured');
  const candidate = path.resolve(dirs[0], requested);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (err) {
    throw new FileSourceRefusedError(requested, `cannot be resolved (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (!(await isInside(real, dirs))) throw new FileSourceRefusedError(requested, `resolves to ${real}, outside file_source_dirs`);
  return real;
}

/**
 * Reads a file source, refusing anything outside `dirs` at read time too: the file is opened first
 * and the path of what was actually opened (/proc/self/fd) is checked before a byte is read, so a
 * folder or link swapped between the check and the open cannot redirect the read elsewhere.
 */
export async function readFileSourceInside(requested: string, dirs: readonly string[], signal?: AbortSignal): Promise<string> {
  const real = await resolveFileSourcePath(requested, dirs);
  const handle = await open(real, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    // Without /proc (not Linux) the resolved path above is the check that remains.
    if (opened !== null && !(await isInside(opened, dirs))) throw new FileSourceRefusedError(requested, `opened ${opened}, outside file_source_dirs`);
    if (!(await handle.stat()).isFile()) throw new FileSourceRefusedError(requested, 'is not a regular file');
    return await handle.readFile({ encoding: 'utf8', signal });
  } finally {
    await handle.close();
  }
}

async function isInside(real: string, dirs: readonly string[]): Promise<boolean> {
  for (const dir of dirs) {
    const root = await realpath(dir).catch(() => null);
    if (root === null) continue;
    const relative = path.relative(root, real);
    if (relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)) return true;
  }
  return false;
}
