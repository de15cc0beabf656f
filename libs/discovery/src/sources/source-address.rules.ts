import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { defaultResolvedConfig } from '@jobctrl/shared/config';
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

/** The Nest token the API's SourceService reads its policy from (DiscoveryModule builds it from the config). */
export const SOURCE_ADDRESS_POLICY = Symbol('SOURCE_ADDRESS_POLICY');

/** The policy of a resolved config. */
export function sourceAddressPolicyOf(config: { allowedPrivateHosts: readonly string[]; fileSourceDirs: readonly string[] }): SourceAddressPolicy {
  return { allowedPrivateHosts: config.allowedPrivateHosts, fileSourceDirs: config.fileSourceDirs };
}

/** Why a file source was refused; the same file is refused the same way until someone changes it. */
export type FileSourceRefusal = 'file_source_outside_dirs' | 'file_source_not_regular' | 'file_source_too_large' | 'file_source_read_timeout';

/**
 * A file source the rules refuse: outside every file_source_dirs entry, not a regular file, larger
 * than file_source_max_bytes, or not read in time.
 */
export class FileSourceRefusedError extends Error {
  override readonly name = 'FileSourceRefusedError';
  readonly retryable = false;

  constructor(
    readonly requested: string,
    readonly why: string,
    readonly code: FileSourceRefusal = 'file_source_outside_dirs',
  ) {
    super(`file source ${requested} refused: ${why}`);
  }
}

/** How long one file source may take to read (#39): a slow or stalled read frees its activity slot then. */
export const FILE_SOURCE_READ_DEADLINE_MS = 60_000;
/** Bytes per read: the cap and the deadline are checked between reads. */
const READ_CHUNK_BYTES = 64 * 1024;

export interface FileSourceReadOptions {
  /** The activity's cancellation: an abort stops the read between chunks. */
  signal?: AbortSignal;
  /** file_source_max_bytes (default: the schema's). */
  maxBytes?: number;
  /** Default FILE_SOURCE_READ_DEADLINE_MS; tests shorten it. */
  deadlineMs?: number;
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
      const real = await resolveFileSourcePath(config['path'], policy.fileSourceDirs);
      // stat, never open: opening a FIFO to look at it would block the API as it blocked the worker (#39).
      const stats = await stat(real).catch((err: NodeJS.ErrnoException) => {
        throw new FileSourceRefusedError(config['path'] as string, `cannot be examined (${err.code ?? String(err)})`);
      });
      refuseUnlessRegular(config['path'], stats);
    } catch (err) {
      if (!(err instanceof FileSourceRefusedError)) throw err;
      issues.push({ field: 'config.path', value: config['path'], rule: `must be a readable regular file inside file_source_dirs (${policy.fileSourceDirs.join(', ')}): ${err.why}` });
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
 *
 * Nothing in the folder can hold the worker (#39): the open does not wait for a FIFO's writer, only
 * a regular file (by the opened descriptor) is read, at most `maxBytes` of it (by its size first,
 * then while reading, since it may grow), within `deadlineMs`, and an abort stops it between chunks.
 */
export async function readFileSourceInside(requested: string, dirs: readonly string[], options: FileSourceReadOptions = {}): Promise<string> {
  const { signal, maxBytes = defaultMaxBytes(), deadlineMs = FILE_SOURCE_READ_DEADLINE_MS } = options;
  const real = await resolveFileSourcePath(requested, dirs);
  signal?.throwIfAborted();
  // O_NONBLOCK: a FIFO without a writer would otherwise block the open in libuv's thread pool, where
  // no cancel reaches it. A regular file ignores the flag.
  const handle = await open(real, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK).catch((err: NodeJS.ErrnoException) => {
    // ENXIO: a socket, or a device without its driver. ELOOP: swapped for a link since the check.
    if (err.code === 'ENXIO') throw new FileSourceRefusedError(requested, 'is not a regular file (socket or device)', 'file_source_not_regular');
    if (err.code === 'ELOOP') throw new FileSourceRefusedError(requested, `became a symbolic link after it was resolved to ${real}`);
    throw err;
  });
  try {
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    // Without /proc (not Linux) the resolved path above is the check that remains.
    if (opened !== null && !(await isInside(opened, dirs))) throw new FileSourceRefusedError(requested, `opened ${opened}, outside file_source_dirs`);
    const stats = await handle.stat();
    refuseUnlessRegular(requested, stats);
    if (stats.size > maxBytes) throw new FileSourceRefusedError(requested, `is ${stats.size} bytes, more than file_source_max_bytes (${maxBytes})`, 'file_source_too_large');
    return await readBounded(handle, requested, { signal, maxBytes, deadline: Date.now() + deadlineMs, deadlineMs });
  } finally {
    await handle.close();
  }
}

/**
 * The text of an opened file, chunk by chunk: never more than maxBytes + 1 bytes are read (the one
 * beyond tells a file that grew past the cap), and UTF-8 is decoded as it streams so a character
 * split between two chunks comes out whole.
 */
async function readBounded(handle: FileHandle, requested: string, limits: { signal?: AbortSignal; maxBytes: number; deadline: number; deadlineMs: number }): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, limits.maxBytes + 1));
  const parts: string[] = [];
  let total = 0;
  for (;;) {
    limits.signal?.throwIfAborted();
    if (Date.now() >= limits.deadline) throw new FileSourceRefusedError(requested, `was not read within ${limits.deadlineMs / 1000} s`, 'file_source_read_timeout');
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, limits.maxBytes + 1 - total), null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > limits.maxBytes) throw new FileSourceRefusedError(requested, `grew past file_source_max_bytes (${limits.maxBytes}) while it was read`, 'file_source_too_large');
    parts.push(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** Only a regular file is a file source: a FIFO or a device could block a read, or never end one. */
function refuseUnlessRegular(requested: string, stats: Stats): void {
  if (!stats.isFile()) throw new FileSourceRefusedError(requested, `is not a regular file (${kindOf(stats)})`, 'file_source_not_regular');
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symbolic link';
  return 'unknown kind';
}

let schemaMaxBytes: number | undefined;
/** The schema's file_source_max_bytes, for callers without a resolved config (tests, harnesses). */
function defaultMaxBytes(): number {
  schemaMaxBytes ??= defaultResolvedConfig().fileSourceMaxBytes;
  return schemaMaxBytes;
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
