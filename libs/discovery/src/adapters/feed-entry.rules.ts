import type { JsonObject } from './response-shape.reader';
import type { DiscoverContext } from './source-adapter.model';

/**
 * Real feeds carry entries that are no posting: RemoteOK's array holds one whose `position` and
 * `company` are both "". Such an entry is left out with its reason told to the context (discovery
 * records it on the family's result) instead of failing the whole board. A field of the wrong type is
 * still a malformed response: the API changed, which a skip would hide.
 */
export function blankFieldsReason(entry: JsonObject, keys: readonly string[]): string | null {
  const blank = keys.filter((key) => {
    const value = entry[key];
    return value === undefined || value === null || (typeof value === 'string' && !value.trim());
  });
  return blank.length ? `blank ${blank.join(' and ')}` : null;
}

/** The entries whose `keys` all hold text; each other one is reported to ctx.skipped. */
export function entriesWithText<T extends { item: JsonObject; where: string }>(
  entries: readonly T[],
  keys: readonly string[],
  ctx: Pick<DiscoverContext, 'skipped'>,
  idKey?: string,
): T[] {
  return entries.filter((entry) => {
    const reason = blankFieldsReason(entry.item, keys);
    if (!reason) return true;
    const id = idKey ? entry.item[idKey] : undefined;
    ctx.skipped?.({ where: entry.where, externalId: typeof id === 'string' || typeof id === 'number' ? String(id) : null, reason });
    return false;
  });
}

/** The entries of a JSON array, each with where it sits ("jobs[3]"), checked to be objects. */
export function objectEntries(s: { object(value: unknown, where: string): JsonObject }, items: readonly unknown[], prefix: string): Array<{ item: JsonObject; where: string }> {
  return items.map((item, i) => ({ item: s.object(item, `${prefix}[${i}]`), where: `${prefix}[${i}]` }));
}
