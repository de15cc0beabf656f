import { nameTokens } from '@jobctrl/shared/profile';

/**
 * Extractive factual check for generated cover letters: finds sentences in which the letter says
 * the candidate worked somewhere ("I worked at X", "I led the platform team at X", "I was a data
 * engineer at X", "I consulted for X") and flags organisations the profile does not list.
 *
 * Inventing an employer is the most damaging hallucination a cover letter can contain, and it is
 * detectable without a model. The check is deliberately conservative — it prefers missing a
 * claim to flagging a sentence that makes none — because a flag sends the letter back for
 * regeneration and a false alarm costs a model call and erodes trust in the review:
 *
 *  - a claim needs an experience verb (worked, led, built, joined, was, …) followed, in the same
 *    clause and within a few words, by "at", "for" or "with" and a capitalised name;
 *    "joined X" also counts directly;
 *  - infinitives and modals ("to work at X", "would love to join X") are intentions, not claims;
 *  - "at X" is a strong employment signal and always counts; "for X" counts after employment
 *    verbs (worked for, consulted for, interned for); "with X", and "for X" after other verbs
 *    ("built tooling for X"), count only when X carries an organisation marker (Inc, GmbH, Labs,
 *    Bank, University, …), because "worked with Kubernetes" and "built it for Finance" are not
 *    employer claims;
 *  - event-like names (KubeCon, "… Summit", "… Conference") are ignored;
 *  - a name is supported when it matches a profile employer or school, the target company, or a
 *    profile skill/title, ignoring case, accents, "The", possessives and legal suffixes, and also
 *    when one name is a word-prefix of the other ("Google" ~ "Google Cloud", "Amazon" ~ "Amazon
 *    Web Services"), since divisions and short forms are legitimate.
 */

export interface FactualProfile {
  employers: string[];
  schools?: string[];
  skills?: string[];
  titles?: string[];
}

export interface FactualCheckOptions {
  /** The company the letter is addressed to; mentioning it is expected, not a claim to verify. */
  targetCompany?: string | string[];
}

export interface EmploymentClaim {
  /** The organisation as written in the letter. */
  organisation: string;
  verb: string;
  preposition: 'at' | 'for' | 'with' | 'direct';
  supported: boolean;
  /** Character offset of the organisation in the letter, for highlighting. */
  offset: number;
}

export interface FactualCheckResult {
  passed: boolean;
  /** Unsupported organisations, as written, deduplicated, in order of first appearance. */
  unsupported: string[];
  claims: EmploymentClaim[];
}

/** Verbs that, followed by "for", state employment by that organisation. */
const EMPLOYMENT_VERBS = new Set([
  'work', 'worked', 'working', 'interned', 'consulted', 'contracted', 'freelanced', 'served',
  'employed', 'was', 'spent',
]);

/** Verbs that describe experience somewhere; followed by "at", they place the candidate there. */
const EXPERIENCE_VERBS = new Set([
  ...EMPLOYMENT_VERBS,
  'led', 'lead', 'leading', 'built', 'build', 'building', 'joined', 'managed', 'developed',
  'designed', 'engineered', 'architected', 'shipped', 'launched', 'founded', 'co-founded',
  'cofounded', 'ran', 'scaled', 'delivered', 'created', 'maintained', 'owned', 'implemented',
  'held', 'grew', 'mentored',
]);

/** A preceding word that turns the verb into an intention or hypothesis. */
const INTENT_MARKERS = new Set(['to', 'would', 'could', 'will', 'might', 'should', 'can', "i'd", 'i’d', "we'd", 'shall', 'may']);

const ORG_MARKERS = new Set([
  'inc', 'incorporated', 'llc', 'llp', 'ltd', 'limited', 'plc', 'gmbh', 'ag', 'sa', 'sas', 'srl', 'bv',
  'nv', 'oy', 'ab', 'pty', 'corp', 'corporation', 'co', 'company', 'group', 'labs', 'lab',
  'technologies', 'technology', 'systems', 'solutions', 'software', 'bank', 'university', 'college',
  'institute', 'agency', 'partners', 'consulting', 'holdings', 'studios', 'studio', 'foundation',
  'hospital', 'ventures', 'capital', 'networks', 'industries', 'media', 'insurance', 'ministry',
  'department', 'council', 'school', 'academy',
]);

/** Capitalised words that start sentences or clauses, never organisation names on their own. */
const NOT_A_NAME = new Set([
  'i', 'a', 'an', 'my', 'our', 'your', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those',
  'various', 'several', 'many', 'multiple', 'both', 'each', 'every', 'some', 'most', 'all', 'one',
  'two', 'three', 'in', 'on', 'as', 'where', 'when', 'while', 'since', 'from', 'until', 'during', 'after',
  'before', 'there', 'here', 'it', 'we', 'they', 'he', 'she', 'you', 'me', 'us', 'them', 'and', 'but',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'present', 'least', 'first', 'last', 'length', 'once', 'times',
]);

/** Words a name cannot continue into: a new clause has started ("at Acme I built ..."). */
const STOPS_NAME = new Set(['i', "i'm", 'i’m', "i've", 'i’ve', 'in', 'on', 'as', 'where', 'when', 'while', 'since', 'from', 'during', 'we', 'my']);

const EVENT_RE = /(?:con|conf|summit|conference|meetup|hackathon|expo|week|festival|fest|workshop|webinar)$/i;

/** Abbreviations whose trailing "." is part of the word, not the end of a sentence. */
const ABBREVIATIONS = new Set(['inc', 'co', 'corp', 'ltd', 'llc', 'plc', 'jr', 'sr', 'st', 'bros', 'dr', 'mr', 'mrs', 'ms']);

const MAX_GAP_WORDS = 6;
const MAX_NAME_WORDS = 6;

interface Token {
  text: string;
  word: boolean;
  offset: number;
}

export function checkFactualClaims(letter: string, profile: FactualProfile, options: FactualCheckOptions = {}): FactualCheckResult {
  const targets = options.targetCompany === undefined ? [] : ([] as string[]).concat(options.targetCompany);
  const known = [...profile.employers, ...(profile.schools ?? []), ...targets, ...(profile.skills ?? []), ...(profile.titles ?? [])]
    .map(nameTokens)
    .filter((tokens) => tokens.length > 0);

  const claims = findEmploymentClaims(letter).map((claim) => ({
    ...claim,
    supported: isKnown(nameTokens(claim.organisation), known),
  }));

  const unsupported: string[] = [];
  const seen = new Set<string>();
  for (const claim of claims) {
    const key = nameTokens(claim.organisation).join(' ');
    if (claim.supported || seen.has(key)) continue;
    seen.add(key);
    unsupported.push(claim.organisation);
  }
  return { passed: unsupported.length === 0, unsupported, claims };
}

/** Finds employment claims without judging them; exported for reviewers that want the raw claims. */
export function findEmploymentClaims(letter: string): Array<Omit<EmploymentClaim, 'supported'>> {
  const tokens = tokenize(letter);
  const claims: Array<Omit<EmploymentClaim, 'supported'>> = [];

  for (let i = 0; i < tokens.length; i++) {
    const verb = tokens[i].text.toLowerCase();
    if (!tokens[i].word || !EXPERIENCE_VERBS.has(verb)) continue;
    const previous = tokens[i - 1];
    if (previous?.word && INTENT_MARKERS.has(previous.text.toLowerCase())) continue;

    // "was" is the weakest verb ("was excited to see your talk at X"): only "was at X" and
    // "was a/an/the <role> at X" count.
    if (verb === 'was') {
      const next = tokens[i + 1]?.text.toLowerCase();
      if (!['at', 'a', 'an', 'the'].includes(next ?? '')) continue;
    }

    if (verb === 'joined') {
      const direct = readName(tokens, i + 1);
      if (direct) {
        claims.push({ organisation: direct.name, verb, preposition: 'direct', offset: direct.offset });
        continue;
      }
    }

    let gap = 0;
    for (let j = i + 1; j < tokens.length && gap <= MAX_GAP_WORDS; j++) {
      const token = tokens[j];
      if (!token.word) break; // punctuation ends the clause
      const word = token.text.toLowerCase();
      if (EXPERIENCE_VERBS.has(word) && j > i + 1) break; // the next verb owns what follows
      if (word === 'at' || word === 'for' || word === 'with') {
        const name = readName(tokens, j + 1);
        if (name && prepositionCounts(word, verb, name.words)) {
          claims.push({ organisation: name.name, verb, preposition: word, offset: name.offset });
          j = name.next - 1; // resume after the name; the loop increment lands on `next`
          continue;
        }
      }
      gap++;
    }
  }
  return claims;
}

function prepositionCounts(preposition: 'at' | 'for' | 'with', verb: string, words: string[]): boolean {
  if (preposition === 'at') return true;
  const hasMarker = words.some((w) => ORG_MARKERS.has(bare(w)));
  if (preposition === 'for' && EMPLOYMENT_VERBS.has(verb)) return true;
  return hasMarker;
}

/**
 * Reads a capitalised name starting at `start`: capitalised words (or ones starting with a digit
 * once the name has begun), joined by "of", "&" or "de" only when another capitalised word follows
 * ("Bank of America", "Procter & Gamble"). "and" is not a joiner: "Acme and Globex" are two
 * claims. Returns undefined when there is no plausible organisation name at that position.
 */
function readName(tokens: Token[], start: number): { name: string; words: string[]; offset: number; next: number } | undefined {
  const words: string[] = [];
  let k = start;
  // "at the BBC": a lower-case article before a capitalised word belongs to the phrase, not the name.
  if (tokens[k]?.text === 'the' && tokens[k + 1]?.word && /^[A-Z\u00C0-\u00DE]/.test(tokens[k + 1].text)) k++;
  const nameStart = k;
  for (; k < tokens.length && words.length < MAX_NAME_WORDS; k++) {
    const token = tokens[k];
    if (!token.word) break;
    const lower = token.text.toLowerCase();
    if (words.length > 0 && STOPS_NAME.has(lower)) break;
    const capitalised = /^[A-Z\u00C0-\u00DE]/.test(token.text) || (words.length > 0 && /^\d/.test(token.text));
    if (capitalised) {
      words.push(token.text);
      // "Acme Inc." and "Acme's" end the name: what follows is a new sentence or the thing owned.
      if (token.text.endsWith('.') || /['’]s$/.test(token.text)) {
        k++;
        break;
      }
      continue;
    }
    const next = tokens[k + 1];
    const joins = words.length > 0 && ['of', '&', 'de'].includes(lower) && next?.word === true && /^[A-Z\u00C0-\u00DE]/.test(next.text);
    if (!joins) break;
    words.push(token.text);
  }
  if (words.length === 0) return undefined;
  // Names never start with a determiner or clause word ("at My previous job", "for Several years").
  if (NOT_A_NAME.has(bare(words[0]))) return undefined;
  if (words.every((w) => bare(w) === 'the' || NOT_A_NAME.has(bare(w)) || /^\d/.test(w))) return undefined;
  const last = bare(words[words.length - 1]);
  if (EVENT_RE.test(last) && !ORG_MARKERS.has(last)) return undefined;
  const name = words
    .join(' ')
    .replace(/['’]s$/, '')
    .replace(/\.$/, (dot) => (ABBREVIATIONS.has(last) ? dot : ''));
  return { name, words, offset: tokens[nameStart].offset, next: k };
}

/**
 * Splits text into word and punctuation tokens. A trailing "." is split off as sentence
 * punctuation unless the word is a known abbreviation ("Inc.") or has inner dots ("U.S.").
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /[\p{L}\p{N}][\p{L}\p{N}&.'’+#-]*|&|[.!?;:,()[\]"“”—–]/gu;
  for (const match of text.matchAll(re)) {
    const value = match[0];
    const offset = match.index;
    const isWord = /^[\p{L}\p{N}&]/u.test(value);
    if (isWord && value.length > 1 && value.endsWith('.')) {
      const stem = value.replace(/\.+$/, '');
      if (!ABBREVIATIONS.has(stem.toLowerCase()) && !stem.includes('.')) {
        tokens.push({ text: stem, word: true, offset });
        tokens.push({ text: '.', word: false, offset: offset + stem.length });
        continue;
      }
    }
    tokens.push({ text: value, word: isWord, offset });
  }
  return tokens;
}

/** Lower-case word without possessive or trailing punctuation. */
function bare(word: string): string {
  return word.toLowerCase().replace(/['’]s$/, '').replace(/[.,]+$/, '');
}

/** Equal, or one is a word-prefix of the other ("google" ~ "google cloud"). */
function isKnown(claim: string[], known: string[][]): boolean {
  if (claim.length === 0) return true;
  return known.some((k) => {
    const n = Math.min(k.length, claim.length);
    for (let i = 0; i < n; i++) if (k[i] !== claim[i]) return false;
    return true;
  });
}
