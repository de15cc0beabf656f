/**
 * Job-title vocabulary shared by the extractive scorer (title fit), resume tailoring (bullet
 * relevance to the posting's title) and cover-letter reviews (does the letter name the role?).
 * One definition keeps those stages agreeing on what the "core" of a title is.
 *
 * core(title) = the set of lower-cased words of the title after
 *   1. unifying spellings: "front end"/"front-end" → frontend, "back end" → backend, "full stack" → fullstack;
 *   2. splitting on anything but letters, digits, "+" and "#";
 *   3. mapping synonyms (TITLE_SYNONYMS: developer/dev/programmer/swe → engineer, mgr → manager, …);
 *   4. dropping seniority and filler words (TITLE_FILLER: senior, lead, staff, junior, "m/f/d", …),
 *      which say how senior or how phrased a title is, not what the job is.
 */

/** Words that say how senior or how phrased a title is, not what the job is. */
export const TITLE_FILLER: ReadonlySet<string> = new Set([
  'senior', 'sr', 'junior', 'jr', 'lead', 'staff', 'principal', 'head', 'chief', 'associate', 'mid',
  'level', 'entry', 'intern', 'i', 'ii', 'iii', 'iv', 'v', 'the', 'of', 'and', 'a', 'an', 'for', 'to',
  'in', 'at', 'with', 'remote', 'hybrid', 'onsite', 'm', 'f', 'd', 'w', 'x', 'all', 'genders',
]);

export const TITLE_SYNONYMS: Readonly<Record<string, string>> = {
  developer: 'engineer', dev: 'engineer', programmer: 'engineer', eng: 'engineer', swe: 'engineer',
  mgr: 'manager', admin: 'administrator', ops: 'operations',
};

/** core(title) as documented above; also usable on prose (a bullet, a letter) to get comparable words. */
export function titleCoreWords(title: string): Set<string> {
  const unified = title
    .toLowerCase()
    .replace(/\bfront[\s-]+end\b/g, 'frontend')
    .replace(/\bback[\s-]+end\b/g, 'backend')
    .replace(/\bfull[\s-]+stack\b/g, 'fullstack');
  const tokens = unified
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean)
    .map((t) => TITLE_SYNONYMS[t] ?? t)
    .filter((t) => !TITLE_FILLER.has(t));
  return new Set(tokens);
}
