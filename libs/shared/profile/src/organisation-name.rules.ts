/**
 * Organisation-name comparison shared by the cover-letter checks (invented employers, "does the
 * letter name the company?") and the tailoring no-new-facts gate (unknown organisations in a
 * summary). One definition keeps those stages agreeing on when two spellings name the same
 * organisation.
 *
 * nameWords(text) = the words of `text` with accents removed, lower-cased, possessive "'s"
 * dropped and "&" read as "and", split on anything but letters, digits, "+" and "#".
 * nameTokens(name) = nameWords(name) without a leading "the" and without trailing legal suffixes
 * (LEGAL_SUFFIXES: Inc, Ltd, GmbH, AB, …), keeping at least one word: "The Acme Co." and
 * "Acme's" both give ["acme"], while "Co" alone stays ["co"].
 */

/** Legal-form words that may end an organisation's name without changing which organisation it is. */
export const LEGAL_SUFFIXES: ReadonlySet<string> = new Set([
  'inc', 'incorporated', 'llc', 'llp', 'ltd', 'limited', 'plc', 'gmbh', 'ag', 'sa', 'sas', 'srl', 'bv',
  'nv', 'oy', 'ab', 'pty', 'corp', 'corporation', 'co', 'company',
]);

/** Comparable words of any text (a name, a letter, a bullet); see the header. */
export function nameWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean);
}

/** Comparable tokens of an organisation name: nameWords without a leading "the" or trailing legal suffixes. */
export function nameTokens(name: string): string[] {
  const tokens = nameWords(name);
  if (tokens[0] === 'the') tokens.shift();
  while (tokens.length > 1 && LEGAL_SUFFIXES.has(tokens[tokens.length - 1])) tokens.pop();
  return tokens;
}

/** True when `run` occurs in `tokens` as consecutive tokens (an empty run always does). */
export function containsRun(tokens: readonly string[], run: readonly string[]): boolean {
  outer: for (let i = 0; i + run.length <= tokens.length; i++) {
    for (let k = 0; k < run.length; k++) if (tokens[i + k] !== run[k]) continue outer;
    return true;
  }
  return false;
}
