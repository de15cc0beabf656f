import type { Profile } from './profile.model';

/**
 * The profile's content in one canonical form, so "the same profile" means the same facts however it
 * was written: object keys in a fixed order, strings without surrounding whitespace, and an absent
 * optional field equal to `null`/`undefined` (`end: null` and no `end` both mean "present"). Array
 * order is kept: the order of experience, bullets and skills is the user's word.
 */
export function canonicalProfileContent(profile: Profile): string {
  return JSON.stringify(canonical(profile));
}

export function sameProfileContent(a: Profile, b: Profile): boolean {
  return canonicalProfileContent(a) === canonicalProfileContent(b);
}

function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === null || v === undefined) continue;
      out[key] = canonical(v);
    }
    return out;
  }
  return value;
}
