import type { DiscoveredPosting } from '../source-adapter.model';
import type { BoardSimulator, ManifestJob } from './board-simulator.testing';

const ISO_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Field types every adapter must deliver, whatever the source. */
export function expectNormalized(p: DiscoveredPosting): void {
  expect(p.externalId).toMatch(/\S/);
  expect(p.title).toMatch(/\S/);
  expect(p.title).toBe(p.title.trim());
  expect(typeof p.company).toBe('string');
  expect(() => new URL(p.url)).not.toThrow();
  if (p.applyUrl !== null) expect(() => new URL(p.applyUrl as string)).not.toThrow();
  if (p.postedAt !== null) expect(p.postedAt).toMatch(ISO_RE);
  expect([true, false, null]).toContain(p.remote);
  if (p.descriptionText !== null) {
    expect(p.descriptionText).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(p.descriptionText).not.toMatch(/&(amp|lt|gt|quot);/);
  }
  expect(Array.isArray(p.tags)).toBe(true);
  expect(new Set(p.tags.map((t) => t.toLowerCase())).size).toBe(p.tags.length);
}

/** Ground truth: the jobs a simulated board lists, in its order. */
export function boardJobs(sim: BoardSimulator, key: string): ManifestJob[] {
  const manifest = sim.manifest();
  const board = manifest.boards.find((b) => b.key === key);
  if (!board) throw new Error(`simulator has no board ${key}`);
  const byGid = new Map(manifest.jobs.map((j) => [j.gid, j]));
  return board.listings.map((l) => {
    const job = byGid.get(l.gid);
    if (!job) throw new Error(`manifest misses job ${l.gid}`);
    return job;
  });
}

/** Same instant, compared at whole seconds (some APIs drop milliseconds). */
export function sameSecond(a: string | null, b: string): boolean {
  return a !== null && Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
}

/** Runs discover() and records what was yielded before it threw (or ended). */
export async function drain<T>(items: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const out: T[] = [];
  try {
    for await (const item of items) out.push(item);
    return { items: out, error: null };
  } catch (error) {
    return { items: out, error };
  }
}
