import { defaultSkillIndex, findMentionedSkills, normaliseTerm, skillPattern, titleCoreWords, type SkillIndex } from '@jobctrl/shared/profile';

/**
 * The extractive scorer: a deterministic, explainable fit score computed only from text that is
 * present in the profile and the posting (no model calls). It is the baseline every posting gets,
 * the fallback when model scoring is unavailable, and a cross-check on model scores — so it has to
 * be stable: the same inputs always give the same score, and every change to the rules below must
 * bump EXTRACTIVE_FORMULA_VERSION so stored scores can be compared or recomputed.
 *
 * Formula (extractive-v2):
 *
 *   requirements R = job.requirements when given (non-empty), otherwise the vocabulary skills and
 *                    profile skills found in the job description (see skill.vocabulary.ts in
 *                    @jobctrl/shared/profile)
 *   S (skills)     = |requirements matched by a profile skill| / |R|          (only when |R| > 0)
 *   T (title)      = max over profile titles p of |core(p) ∩ core(job.title)| / |core(p)|,
 *                    where core() lower-cases, unifies synonyms (developer → engineer,
 *                    front-end → frontend) and drops seniority/filler words  (only when titles given;
 *                    see title.vocabulary.ts in @jobctrl/shared/profile)
 *   L (location)   = 1   when a profile location's most specific part appears in job.location,
 *                    1   when the job is remote and the profile does not refuse remote,
 *                    0.5 when the job is remote but the profile prefers on-site (remote === false),
 *                    0   otherwise                     (only when both sides state something)
 *   P (pay)        = min(1, job pay / profile minimumSalary), the job's pay being its annualised
 *                    figure (top of the range, else its floor) from its published compensation
 *                    (only when the profile states minimumSalary and salaryCurrency, and the job
 *                    states a figure in that currency: pay in another currency is not compared)
 *
 *   score = round(100 × Σ wᵢ·cᵢ / Σ wᵢ) over the available components,
 *           with weights w_S = 0.60, w_T = 0.25, w_L = 0.15, w_P = 0.15; 0 when no component is
 *           available. (extractive-v1 had no P: a job or profile without pay scores as it did.)
 *
 * Unavailable components are left out and the remaining weights renormalised, so a posting that
 * says nothing about location is neither rewarded nor penalised for it. Requirements extracted
 * from a description can only include skills the scorer knows (vocabulary + the profile's own
 * skills), which makes S optimistic for descriptions full of niche tools; model scoring exists to
 * cover that.
 */
export const EXTRACTIVE_FORMULA_VERSION = 'extractive-v2';

export const EXTRACTIVE_WEIGHTS = { skills: 0.6, title: 0.25, location: 0.15, pay: 0.15 } as const;
const COMPONENTS = ['skills', 'title', 'location', 'pay'] as const;

export interface ScoringProfile {
  skills: string[];
  titles?: string[];
  locations?: string[];
  /** True when the candidate wants remote work; false when they prefer on-site; absent = no preference. */
  remote?: boolean;
  /** The least yearly pay the candidate wants, in salaryCurrency (both needed for the pay component). */
  minimumSalary?: number;
  salaryCurrency?: string;
}

export interface ScoringJob {
  title: string;
  description: string;
  /** Explicit requirement terms or sentences; when absent they are extracted from the description. */
  requirements?: string[];
  location?: string;
  /** Every location the posting lists (the primary one first); a preferred place matches any of them. */
  locations?: string[];
  remote?: boolean;
  /** The job's annualised pay from its published compensation (top of the range, else the floor). */
  pay?: { currency: string; yearly: number };
}

export interface ExtractiveScore {
  /** Integer 0..100. */
  score: number;
  /** Requirement labels the profile covers, in requirement order. */
  matched: string[];
  /** Requirement labels the profile does not cover, in requirement order. */
  missing: string[];
  rationale: string;
  formulaVersion: string;
  /** Each available component in 0..1 (absent = not applicable), for display and auditing. */
  components: { skills?: number; title?: number; location?: number; pay?: number };
  /** Where the requirements came from. */
  requirementsSource: 'job' | 'description';
}

const skillIndex: SkillIndex = defaultSkillIndex();

export function scoreJobExtractive(profile: ScoringProfile, job: ScoringJob): ExtractiveScore {
  const profileKeys = uniqueInOrder(profile.skills.map((s) => skillIndex.keyOf(s)).filter(Boolean));
  const explicit = (job.requirements ?? []).map((r) => r.trim()).filter(Boolean);
  const requirementsSource = explicit.length > 0 ? 'job' : 'description';
  const requirements =
    requirementsSource === 'job' ? explicitRequirements(explicit) : extractRequirements(job.description ?? '', profile.skills);

  const matched: string[] = [];
  const missing: string[] = [];
  for (const requirement of requirements) {
    (coversRequirement(requirement, profileKeys) ? matched : missing).push(requirement.label);
  }

  const components: ExtractiveScore['components'] = {};
  if (requirements.length > 0) components.skills = matched.length / requirements.length;
  const title = titleFit(profile.titles ?? [], job.title ?? '');
  if (title) components.title = title.value;
  const location = locationFit(profile, job);
  if (location) components.location = location.value;
  const pay = payFit(profile, job);
  if (pay) components.pay = pay.value;

  let weighted = 0;
  let weightSum = 0;
  for (const name of COMPONENTS) {
    const value = components[name];
    if (value === undefined) continue;
    weighted += EXTRACTIVE_WEIGHTS[name] * value;
    weightSum += EXTRACTIVE_WEIGHTS[name];
  }
  // The epsilon keeps exact halves (e.g. 62.5) rounding up despite binary floating-point error.
  const score = weightSum === 0 ? 0 : clamp(Math.round((100 * weighted) / weightSum + 1e-9), 0, 100);

  const rationale = [
    skillsSentence(requirements.length, matched, missing, requirementsSource),
    title ? title.explanation : 'Title: not compared (no target titles in profile).',
    location ? location.explanation : 'Location: not compared (not stated on both sides).',
    pay ? pay.explanation : 'Pay: not compared (no minimum salary in the profile, or no figure in its currency in the posting).',
    formulaSentence(score, components, weightSum),
  ].join(' ');

  return { score, matched, missing, rationale, formulaVersion: EXTRACTIVE_FORMULA_VERSION, components, requirementsSource };
}

interface Requirement {
  label: string;
  key: string;
  text: string;
  /** True when found in the description (a single skill), false when given by the job. */
  extracted: boolean;
}

/** Given requirements keep the employer's wording; duplicates by canonical skill are dropped. */
function explicitRequirements(requirements: string[]): Requirement[] {
  const seen = new Set<string>();
  const result: Requirement[] = [];
  for (const text of requirements) {
    const key = skillIndex.keyOf(text);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ label: text, key, text, extracted: false });
  }
  return result;
}

/**
 * Skills mentioned in the description, ordered by first mention so `missing` reads like the
 * posting. Profile skills are searched too, so a candidate's niche tools count when mentioned.
 */
function extractRequirements(description: string, profileSkills: string[]): Requirement[] {
  // Skills outside the vocabulary are labelled as the candidate wrote them.
  const spelling = new Map<string, string>();
  for (const skill of profileSkills) {
    const key = skillIndex.keyOf(skill);
    if (key && !spelling.has(key)) spelling.set(key, skill.trim());
  }
  return mentionedSkills(description, [...spelling.keys()]).map((key) => ({
    key,
    label: skillIndex.displayOf(key) ?? spelling.get(key) ?? key,
    text: key,
    extracted: true,
  }));
}

/**
 * A requirement is covered when it is a profile skill, or — for a requirement sentence such as
 * "3+ years of PostgreSQL" — when the sentence mentions a profile skill. Extracted requirements are
 * single skills, so only their identity counts.
 */
function coversRequirement(requirement: Requirement, profileKeys: string[]): boolean {
  if (profileKeys.includes(requirement.key)) return true;
  if (requirement.extracted) return false;
  return mentionedSkills(requirement.text, profileKeys).some((key) => profileKeys.includes(key));
}

/** Canonical keys of the skills mentioned in `text` (vocabulary plus `extraKeys`), by first mention. */
function mentionedSkills(text: string, extraKeys: string[]): string[] {
  return findMentionedSkills(text, skillIndex, extraKeys);
}

interface ComponentResult {
  value: number;
  explanation: string;
}

function titleFit(profileTitles: string[], jobTitle: string): ComponentResult | undefined {
  const job = titleCoreWords(jobTitle);
  let best: { value: number; title: string } | undefined;
  for (const title of profileTitles) {
    const core = titleCoreWords(title);
    if (core.size === 0) continue;
    const overlap = [...core].filter((t) => job.has(t)).length;
    const value = overlap / core.size;
    // Strictly greater keeps the first of equally good titles, which keeps the rationale stable.
    if (!best || value > best.value) best = { value, title: title.trim() };
  }
  if (!best) return undefined;
  return { value: best.value, explanation: `Title: ${percent(best.value)} match with "${best.title}".` };
}

function locationFit(profile: ScoringProfile, job: ScoringJob): ComponentResult | undefined {
  const wanted = (profile.locations ?? []).map((l) => l.trim()).filter(Boolean);
  const places = wanted.filter((l) => !/^remote$/i.test(l));
  // Listing "Remote" as a location is a remote preference unless the profile explicitly says otherwise.
  const prefersRemote = profile.remote ?? (places.length < wanted.length ? true : undefined);
  const jobLocation = (job.location ?? '').trim();
  const jobPlaces = [...new Set([jobLocation, ...(job.locations ?? []).map((l) => l.trim())].filter(Boolean))];
  const jobRemote = job.remote ?? (jobPlaces.some((l) => /\bremote\b/i.test(l)) ? true : undefined);

  const profileStates = places.length > 0 || prefersRemote !== undefined;
  const jobStates = jobPlaces.length > 0 || jobRemote !== undefined;
  if (!profileStates || !jobStates) return undefined;

  // Any place the posting lists may be the one the candidate wants (Lever allLocations, Ashby
  // secondaryLocations, Greenhouse offices), not only its primary location.
  for (const jobPlace of jobPlaces) {
    const hit = places.find((place) => {
      const specific = place.split(',')[0].trim();
      return specific.length >= 2 && skillPattern(normaliseTerm(specific)).test(jobPlace);
    });
    if (hit) return { value: 1, explanation: `Location: "${jobPlace}" matches preferred "${hit}".` };
  }
  if (jobRemote === true) {
    return prefersRemote === false
      ? { value: 0.5, explanation: 'Location: remote role, but the profile prefers on-site work.' }
      : { value: 1, explanation: 'Location: remote role fits the profile.' };
  }
  const where = jobLocation ? `"${jobLocation}"` : 'an unstated location';
  const reason = places.length > 0 ? `outside preferred ${places.map((p) => `"${p}"`).join(', ')}` : 'not remote';
  return { value: 0, explanation: `Location: on-site in ${where}, ${reason}.` };
}

function payFit(profile: ScoringProfile, job: ScoringJob): ComponentResult | undefined {
  const minimum = profile.minimumSalary;
  const currency = profile.salaryCurrency?.toUpperCase();
  if (!minimum || minimum <= 0 || !currency || !job.pay || job.pay.currency.toUpperCase() !== currency) return undefined;
  const value = Math.min(1, Math.max(0, job.pay.yearly / minimum));
  const figure = (n: number) => `${currency} ${Math.round(n).toLocaleString('en-US')}`;
  return value >= 1
    ? { value: 1, explanation: `Pay: up to ${figure(job.pay.yearly)} a year meets the minimum ${figure(minimum)}.` }
    : { value, explanation: `Pay: up to ${figure(job.pay.yearly)} a year, below the minimum ${figure(minimum)} (${percent(value)}).` };
}

function skillsSentence(total: number, matched: string[], missing: string[], source: 'job' | 'description'): string {
  if (total === 0) return 'Skills: no recognisable requirements in the posting, so skills were not scored.';
  const from = source === 'job' ? 'listed requirements' : 'skills mentioned in the description';
  const parts = [`Skills: ${matched.length} of ${total} ${from} matched (${percent(matched.length / total)})`];
  if (matched.length > 0) parts.push(`matched: ${matched.join(', ')}`);
  if (missing.length > 0) parts.push(`missing: ${missing.join(', ')}`);
  return `${parts.join('; ')}.`;
}

function formulaSentence(score: number, components: ExtractiveScore['components'], weightSum: number): string {
  if (weightSum === 0) return `Score 0: nothing comparable (${EXTRACTIVE_FORMULA_VERSION}).`;
  const terms = COMPONENTS
    .filter((name) => components[name] !== undefined)
    .map((name) => `${EXTRACTIVE_WEIGHTS[name].toFixed(2)}×${(components[name] as number).toFixed(2)}`);
  return `Score ${score} = round(100 × (${terms.join(' + ')}) / ${weightSum.toFixed(2)}) (${EXTRACTIVE_FORMULA_VERSION}).`;
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function uniqueInOrder(values: string[]): string[] {
  return [...new Set(values)];
}
