import {
  SKILL_VOCABULARY,
  containsRun,
  defaultSkillIndex,
  isOngoing,
  nameTokens,
  profileMonth,
  stemWord,
  type Profile,
  type ProfileEducation,
  type ProfileExperience,
} from '@jobctrl/shared/profile';
import type { BulletSource, TailoredExperience, TailoredResume } from './tailored-resume.types';

/**
 * The no-new-facts gate every tailored resume passes before anyone sees it. A model may rephrase,
 * but a resume that claims an employer, title, date, school, skill or number the user never gave is
 * worse than no tailoring at all, so model output that fails here is retried once and otherwise
 * replaced by the extractive resume.
 *
 * Rules (each violation names the field and the offending value):
 *  1. Experience: every entry's employer, title, start and end equal one profile entry's (text
 *     compared trimmed, case- and whitespace-insensitively; dates by month, "2021" = "2021" only;
 *     null/absent/"Present" ends are all "ongoing"); a stated location must equal that entry's.
 *  2. Skills ⊆ profile skills, compared by the skill vocabulary's canonical key ("k8s" = "Kubernetes").
 *  3. Education: every entry's school is a profile school, and each field it states (degree, field,
 *     start, end) equals that profile entry's; leaving a field out is not a new fact.
 *  4. Bullets: each bullet of an entry is traceable to a bullet of the SAME profile entry:
 *        overlap(b, p) = |C(b) ∩ C(p)| / |C(b)| ≥ TRACE_THRESHOLD (0.5) for some profile bullet p,
 *     where C(x) is the set of content words of x: lower-cased, accents removed, split on anything
 *     but letters, digits and "+#.%$", stop words (STOP_WORDS) removed, plurals folded (stemWord).
 *     A bullet with no content words must equal a profile bullet. The best-overlapping bullet is the
 *     bullet's provenance (ties: the earlier bullet).
 *  5. Numbers: every number in a bullet — plain, decimal, with thousands separators, a percentage,
 *     a multiplier ("3x"), a money amount ("$120k", "€2.5M"), with k/m/bn/thousand/million/billion
 *     scales applied — must appear among the numbers of that profile entry's bullets. A currency
 *     the bullet states must be the profile's; dropping one is allowed. Spelled-out numbers ("five")
 *     are not read: the overlap rule is what guards them.
 *  6. Summary: must not name an organisation absent from the profile. An organisation is a run of
 *     capitalised words (joined by "of", "&", "de") that follows "at", "for", "with", "from", "by",
 *     "joined" or "including", or that contains an organisation marker (Inc, Labs, Bank, University,
 *     …). It is present when its words (legal suffixes and "The" removed) occur in that order in any
 *     profile text, or it is a skill-vocabulary name, or the target company passed in `options`.
 */
export const TRACE_THRESHOLD = 0.5;

export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'nor', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by', 'from',
  'as', 'into', 'onto', 'over', 'under', 'per', 'via', 'than', 'then', 'that', 'this', 'these', 'those',
  'which', 'who', 'whom', 'whose', 'while', 'across', 'through', 'throughout', 'within', 'is', 'are',
  'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'it', 'its', 'their', 'our', 'my', 'we',
  'i', 'they', 'them', 'his', 'her', 'all', 'also', 'so', 'such', 'both', 'each', 'up', 'out', 'about',
]);

export interface NoNewFactsOptions {
  /** The company the resume is for; naming it in the summary is not a new fact. */
  targetCompany?: string;
}

export interface NoNewFactsResult {
  passed: boolean;
  violations: string[];
}

export interface TraceResult extends NoNewFactsResult {
  /** Best-matching source of each bullet (meaningful where the bullet has no violation). */
  provenance: BulletSource[][];
}

export function checkNoNewFacts(profile: Profile, resume: Pick<TailoredResume, 'summary' | 'skills' | 'experience' | 'education'>, options: NoNewFactsOptions = {}): NoNewFactsResult {
  const { passed, violations } = traceResume(profile, resume, options);
  return { passed, violations };
}

/** checkNoNewFacts plus the traced provenance of every bullet; used to stamp model resumes. */
export function traceResume(profile: Profile, resume: Pick<TailoredResume, 'summary' | 'skills' | 'experience' | 'education'>, options: NoNewFactsOptions = {}): TraceResult {
  const violations: string[] = [];
  const provenance: BulletSource[][] = [];

  resume.experience.forEach((entry, i) => {
    const match = matchExperience(profile.experience, entry, i, violations);
    provenance.push(match === undefined ? entry.bullets.map(() => ({ experienceIndex: -1, bulletIndex: -1 })) : traceBullets(profile.experience[match], match, entry, i, violations));
  });

  const index = defaultSkillIndex();
  const profileSkillKeys = new Set(profile.skills.map((s) => index.keyOf(s)));
  resume.skills.forEach((skill, i) => {
    if (!profileSkillKeys.has(index.keyOf(skill))) violations.push(`skills[${i}]: "${skill}" is not a skill in the profile`);
  });

  resume.education.forEach((entry, i) => checkEducation(profile.education, entry, i, violations));

  for (const name of unknownOrganisations(resume.summary, profile, options.targetCompany)) {
    violations.push(`summary: names "${name}", an organisation that appears nowhere in the profile`);
  }

  return { passed: violations.length === 0, violations, provenance };
}

// ---------------------------------------------------------------------------------------------
// Experience entries

const EXPERIENCE_FIELDS = ['title', 'start', 'end'] as const;

function matchExperience(profileEntries: readonly ProfileExperience[], entry: TailoredExperience, i: number, violations: string[]): number | undefined {
  const candidates = profileEntries.map((p, index) => ({ p, index })).filter(({ p }) => sameText(p.employer, entry.employer));
  if (candidates.length === 0) {
    violations.push(`experience[${i}].employer: "${entry.employer}" is not an employer in the profile`);
    return undefined;
  }
  const differing = (p: ProfileExperience) => EXPERIENCE_FIELDS.filter((field) => !experienceFieldEqual(field, p, entry));
  // Fewest differing fields wins; ties go to the earlier profile entry.
  let best = candidates[0];
  for (const candidate of candidates) if (differing(candidate.p).length < differing(best.p).length) best = candidate;
  for (const field of differing(best.p)) {
    const empty = field === 'end' ? 'ongoing' : 'none';
    violations.push(`experience[${i}].${field}: ${show(entry[field], empty)} does not match the profile (${show(best.p[field], empty)} at ${best.p.employer})`);
  }
  if (entry.location !== undefined && entry.location.trim() !== '' && !sameText(entry.location, best.p.location ?? '')) {
    violations.push(`experience[${i}].location: ${show(entry.location, 'none')} does not match the profile (${show(best.p.location, 'none')} at ${best.p.employer})`);
  }
  return best.index;
}

function experienceFieldEqual(field: (typeof EXPERIENCE_FIELDS)[number], p: ProfileExperience, entry: TailoredExperience): boolean {
  if (field === 'title') return sameText(p.title, entry.title);
  if (field === 'start') return sameDate(p.start, entry.start, 'start');
  return sameEnd(p.end, entry.end);
}

function traceBullets(source: ProfileExperience, experienceIndex: number, entry: TailoredExperience, i: number, violations: string[]): BulletSource[] {
  const sourceWords = source.bullets.map(contentWords);
  const sourceNumbers = source.bullets.flatMap(numbersIn);
  return entry.bullets.map((bullet, j) => {
    const words = contentWords(bullet);
    let best = { bulletIndex: -1, overlap: 0 };
    if (words.size === 0) {
      const exact = source.bullets.findIndex((b) => normaliseSpace(b) === normaliseSpace(bullet));
      if (exact >= 0) best = { bulletIndex: exact, overlap: 1 };
    } else {
      sourceWords.forEach((candidate, bulletIndex) => {
        const shared = [...words].filter((w) => candidate.has(w)).length;
        const overlap = shared / words.size;
        if (overlap > best.overlap) best = { bulletIndex, overlap };
      });
    }
    if (best.overlap < TRACE_THRESHOLD) {
      violations.push(
        `experience[${i}].bullets[${j}]: ${show(bullet, 'empty')} is not traceable to a bullet of ${source.employer} (best overlap ${Math.round(best.overlap * 100)}%)`,
      );
    }
    for (const number of numbersIn(bullet)) {
      if (!sourceNumbers.some((known) => sameNumber(number, known))) {
        violations.push(`experience[${i}].bullets[${j}]: number "${number.text}" does not appear in the profile's bullets for ${source.employer}`);
      }
    }
    return { experienceIndex, bulletIndex: best.bulletIndex };
  });
}

// ---------------------------------------------------------------------------------------------
// Education

const EDUCATION_FIELDS = ['degree', 'field', 'start', 'end'] as const;

function checkEducation(profileEntries: readonly ProfileEducation[], entry: ProfileEducation, i: number, violations: string[]): void {
  const candidates = profileEntries.filter((p) => sameText(p.school, entry.school));
  if (candidates.length === 0) {
    violations.push(`education[${i}].school: "${entry.school}" is not a school in the profile`);
    return;
  }
  const stated = EDUCATION_FIELDS.filter((field) => entry[field] !== undefined && entry[field] !== null && String(entry[field]).trim() !== '');
  const differing = (p: ProfileEducation) =>
    stated.filter((field) => {
      if (field === 'start' || field === 'end') return !sameDate(p[field], entry[field], field);
      return !sameText(p[field] ?? '', entry[field] ?? '');
    });
  let best = candidates[0];
  for (const candidate of candidates) if (differing(candidate).length < differing(best).length) best = candidate;
  for (const field of differing(best)) {
    violations.push(`education[${i}].${field}: ${show(entry[field], 'none')} does not match the profile (${show(best[field], 'none')} at ${best.school})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Content words and numbers

/** C(x): see rule 4 in the header. */
export function contentWords(text: string): Set<string> {
  const tokens = stripAccents(text.toLowerCase()).match(/[a-z0-9$][a-z0-9+#.%$]*/g) ?? [];
  const words = new Set<string>();
  for (const token of tokens) {
    const word = token.replace(/\.+$/, '');
    if (word === '' || STOP_WORDS.has(word)) continue;
    words.add(stemWord(word));
  }
  return words;
}

interface FoundNumber {
  text: string;
  value: number;
  unit: '' | '%' | 'x';
  currency: string;
}

const SCALES: Readonly<Record<string, number>> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

const NUMBER_RE =
  /(?<![\p{L}\p{N}.])([$€£¥])?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|percent\b|x\b|k\b|mm\b|m\b|bn\b|b\b|thousand\b|million\b|billion\b))?/giu;

/** Numbers in `text` with scales applied (rule 5). "EC2" and "p99" are names, not numbers: a digit run glued to a preceding letter is skipped. */
export function numbersIn(text: string): FoundNumber[] {
  const found: FoundNumber[] = [];
  for (const match of text.matchAll(NUMBER_RE)) {
    const [whole, currency = '', integer, fraction, suffixRaw] = match;
    const suffix = (suffixRaw ?? '').toLowerCase();
    let value = Number(`${integer.replace(/,/g, '')}${fraction ? `.${fraction}` : ''}`);
    let unit: FoundNumber['unit'] = '';
    if (suffix === '%' || suffix === 'percent') unit = '%';
    else if (suffix === 'x') unit = 'x';
    else if (suffix in SCALES) value *= SCALES[suffix];
    found.push({ text: whole.trim(), value: Number(value.toPrecision(12)), unit, currency });
  }
  return found;
}

function sameNumber(claimed: FoundNumber, known: FoundNumber): boolean {
  return claimed.value === known.value && claimed.unit === known.unit && (claimed.currency === '' || claimed.currency === known.currency);
}

// ---------------------------------------------------------------------------------------------
// Summary organisations

const NAME_TRIGGERS = new Set(['at', 'for', 'with', 'from', 'by', 'joined', 'including']);
const NAME_JOINERS = new Set(['of', '&', 'de']);
const ORG_MARKERS = new Set([
  'inc', 'llc', 'llp', 'ltd', 'limited', 'plc', 'gmbh', 'ag', 'corp', 'corporation', 'co', 'company', 'group',
  'labs', 'lab', 'technologies', 'systems', 'solutions', 'bank', 'university', 'college', 'institute',
  'agency', 'partners', 'consulting', 'holdings', 'studios', 'foundation', 'hospital', 'ventures',
  'capital', 'industries', 'insurance', 'ministry', 'council', 'academy',
]);

function unknownOrganisations(summary: string, profile: Profile, targetCompany?: string): string[] {
  const corpus = profileTexts(profile).map(nameTokens);
  const vocabulary = SKILL_VOCABULARY.flatMap((e) => [e.name, ...e.aliases]).map(nameTokens);
  const target = targetCompany ? nameTokens(targetCompany) : [];
  const result: string[] = [];
  for (const name of organisationsIn(summary)) {
    const tokens = nameTokens(name);
    if (tokens.length === 0) continue;
    const known =
      corpus.some((text) => containsRun(text, tokens)) ||
      vocabulary.some((v) => v.join(' ') === tokens.join(' ')) ||
      (target.length > 0 && (containsRun(target, tokens) || containsRun(tokens, target)));
    if (!known && !result.includes(name)) result.push(name);
  }
  return result;
}

/** Candidate organisation names in prose (rule 6). */
export function organisationsIn(text: string): string[] {
  const names: string[] = [];
  for (const clause of text.split(/[,;:!?()[\]"“”\n]|\.(?=\s|$)/)) {
    const words = clause.split(/\s+/).map((w) => w.replace(/^['‘’]+|['‘’]+$/g, '')).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      if (!isCapitalised(words[i])) continue;
      // A run of capitalised words, joiners allowed inside when another capitalised word follows.
      let end = i + 1;
      while (end < words.length && (isCapitalised(words[end]) || (NAME_JOINERS.has(words[end].toLowerCase()) && isCapitalised(words[end + 1] ?? '')))) end++;
      const run = words.slice(i, end);
      const triggered = i > 0 && NAME_TRIGGERS.has(words[i - 1].toLowerCase());
      const marked = run.some((w) => ORG_MARKERS.has(w.toLowerCase().replace(/\.$/, '')));
      if (triggered || marked) names.push(run.join(' ').replace(/['’]s$/, ''));
      i = end - 1;
    }
  }
  return names;
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word);
}

function profileTexts(profile: Profile): string[] {
  return [
    profile.summary,
    ...profile.skills,
    ...profile.experience.flatMap((e) => [e.employer, e.title, e.location ?? '', ...e.bullets]),
    ...profile.education.flatMap((e) => [e.school, e.degree ?? '', e.field ?? '']),
    ...profile.preferences.titles,
    ...profile.preferences.locations,
    profile.contact.location ?? '',
  ].filter((t) => t.trim() !== '');
}

// ---------------------------------------------------------------------------------------------
// Comparison helpers

function normaliseSpace(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function sameText(a: string, b: string): boolean {
  return normaliseSpace(a).toLowerCase() === normaliseSpace(b).toLowerCase();
}

function sameDate(a: string | null | undefined, b: string | null | undefined, edge: 'start' | 'end'): boolean {
  const left = (a ?? '').trim();
  const right = (b ?? '').trim();
  if (left === right) return true;
  // "2021-3" and "2021-03" are the same month; a bare year only equals a bare year.
  const bareYear = (s: string) => /^\d{4}$/.test(s);
  if (bareYear(left) !== bareYear(right)) return false;
  const ma = profileMonth(left, edge);
  return ma !== undefined && ma === profileMonth(right, edge);
}

function sameEnd(a: string | null | undefined, b: string | null | undefined): boolean {
  if (isOngoing(a) || isOngoing(b)) return isOngoing(a) && isOngoing(b);
  return sameDate(a, b, 'end');
}

function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** A value quoted for a violation message, or a word for "nothing there". */
function show(value: string | null | undefined, empty: string): string {
  if (value === null || value === undefined || value.trim() === '') return empty;
  return `"${value}"`;
}
