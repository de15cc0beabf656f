/**
 * The skill vocabulary shared by every stage that matches skills: the extractive scorer, resume
 * tailoring (ordering skills, checking that a tailored resume claims no new skill) and cover letters
 * (naming the skills a posting asks for). It lives with the profile so those domain libs share one
 * definition of "the same skill" instead of copying it.
 *
 * Each entry has a display name and the spellings that mean the same skill. Matching works on
 * canonical keys, so "k8s" in a profile matches "Kubernetes" in a posting. Aliases listed in
 * `contextOnly` are too ambiguous to find in free prose ("go" is a verb, "r" and "c" are letters,
 * "node" is a graph vertex); they still canonicalise an explicit skill or requirement, but prose is
 * only searched for them in the display name's exact capitalisation ("Swift", "REST", "Spark"),
 * and never for display names shorter than three characters ("Go", "C", "R" — think "Series C").
 */
export interface SkillEntry {
  /** Display name, also the canonical identity of the skill. */
  name: string;
  /** Lower-case spellings (the display name lower-cased is implied). */
  aliases: string[];
  /** Lower-case aliases that are only trusted when given explicitly, never searched for in prose. */
  contextOnly?: string[];
}

export const SKILL_VOCABULARY: readonly SkillEntry[] = [
  { name: 'JavaScript', aliases: ['js', 'javascript', 'ecmascript', 'es6'] },
  { name: 'TypeScript', aliases: ['ts', 'typescript'] },
  { name: 'Node.js', aliases: ['node.js', 'nodejs', 'node js'], contextOnly: ['node'] },
  { name: 'React', aliases: ['react', 'reactjs', 'react.js'] },
  { name: 'React Native', aliases: ['react native'] },
  { name: 'Next.js', aliases: ['next.js', 'nextjs'] },
  { name: 'Vue', aliases: ['vue', 'vuejs', 'vue.js'] },
  { name: 'Angular', aliases: ['angular', 'angularjs'] },
  { name: 'Svelte', aliases: ['svelte', 'sveltekit'] },
  { name: 'NestJS', aliases: ['nestjs', 'nest.js'] },
  { name: 'Express', aliases: ['express.js', 'expressjs'], contextOnly: ['express'] },
  { name: 'GraphQL', aliases: ['graphql'] },
  { name: 'REST', aliases: ['restful', 'rest api', 'rest apis'], contextOnly: ['rest'] },
  { name: 'gRPC', aliases: ['grpc'] },
  { name: 'HTML', aliases: ['html', 'html5'] },
  { name: 'CSS', aliases: ['css', 'css3'] },
  { name: 'Tailwind CSS', aliases: ['tailwind', 'tailwindcss', 'tailwind css'] },
  { name: 'Python', aliases: ['python', 'python3'] },
  { name: 'Django', aliases: ['django'] },
  { name: 'Flask', aliases: ['flask'] },
  { name: 'FastAPI', aliases: ['fastapi'] },
  { name: 'Java', aliases: ['java'] },
  { name: 'Spring', aliases: ['spring', 'spring boot', 'springboot'] },
  { name: 'Kotlin', aliases: ['kotlin'] },
  { name: 'Scala', aliases: ['scala'] },
  { name: 'Go', aliases: ['golang'], contextOnly: ['go'] },
  { name: 'Rust', aliases: ['rust'] },
  { name: 'C', aliases: [], contextOnly: ['c'] },
  { name: 'C++', aliases: ['c++', 'cpp'] },
  { name: 'C#', aliases: ['c#', 'csharp'] },
  { name: '.NET', aliases: ['.net', 'dotnet', 'asp.net', '.net core'] },
  { name: 'Ruby', aliases: ['ruby'] },
  { name: 'Ruby on Rails', aliases: ['rails', 'ruby on rails', 'ror'] },
  { name: 'PHP', aliases: ['php'] },
  { name: 'Laravel', aliases: ['laravel'] },
  { name: 'Swift', aliases: [], contextOnly: ['swift'] },
  { name: 'Objective-C', aliases: ['objective-c', 'objc'] },
  { name: 'Elixir', aliases: ['elixir'] },
  { name: 'Erlang', aliases: ['erlang'] },
  { name: 'Haskell', aliases: ['haskell'] },
  { name: 'R', aliases: [], contextOnly: ['r'] },
  { name: 'SQL', aliases: ['sql'] },
  { name: 'PostgreSQL', aliases: ['postgres', 'postgresql', 'psql'] },
  { name: 'MySQL', aliases: ['mysql'] },
  { name: 'SQLite', aliases: ['sqlite', 'sqlite3'] },
  { name: 'MongoDB', aliases: ['mongodb', 'mongo'] },
  { name: 'Redis', aliases: ['redis'] },
  { name: 'Elasticsearch', aliases: ['elasticsearch', 'elastic search', 'opensearch'] },
  { name: 'Cassandra', aliases: ['cassandra'] },
  { name: 'DynamoDB', aliases: ['dynamodb'] },
  { name: 'Kafka', aliases: ['kafka', 'apache kafka'] },
  { name: 'RabbitMQ', aliases: ['rabbitmq'] },
  { name: 'Spark', aliases: ['apache spark', 'pyspark'], contextOnly: ['spark'] },
  { name: 'Airflow', aliases: ['airflow', 'apache airflow'] },
  { name: 'dbt', aliases: ['dbt'] },
  { name: 'Snowflake', aliases: ['snowflake'] },
  { name: 'BigQuery', aliases: ['bigquery'] },
  { name: 'Temporal', aliases: ['temporal.io'], contextOnly: ['temporal'] },
  { name: 'AWS', aliases: ['aws', 'amazon web services'] },
  { name: 'GCP', aliases: ['gcp', 'google cloud', 'google cloud platform'] },
  { name: 'Azure', aliases: ['azure', 'microsoft azure'] },
  { name: 'Docker', aliases: ['docker'] },
  { name: 'Kubernetes', aliases: ['k8s', 'kubernetes'] },
  { name: 'Helm', aliases: ['helm'] },
  { name: 'Terraform', aliases: ['terraform'] },
  { name: 'Ansible', aliases: ['ansible'] },
  { name: 'Linux', aliases: ['linux'] },
  { name: 'Git', aliases: ['git'] },
  { name: 'CI/CD', aliases: ['ci/cd', 'cicd', 'continuous integration', 'continuous delivery', 'continuous deployment'] },
  { name: 'GitHub Actions', aliases: ['github actions'] },
  { name: 'Jenkins', aliases: ['jenkins'] },
  { name: 'Prometheus', aliases: ['prometheus'] },
  { name: 'Grafana', aliases: ['grafana'] },
  { name: 'Microservices', aliases: ['microservices', 'microservice'] },
  { name: 'Machine Learning', aliases: ['machine learning', 'ml'] },
  { name: 'Deep Learning', aliases: ['deep learning'] },
  { name: 'PyTorch', aliases: ['pytorch'] },
  { name: 'TensorFlow', aliases: ['tensorflow'] },
  { name: 'pandas', aliases: ['pandas'] },
  { name: 'NumPy', aliases: ['numpy'] },
  { name: 'LLM', aliases: ['llm', 'llms', 'large language models'] },
  { name: 'Jest', aliases: ['jest'] },
  { name: 'Playwright', aliases: ['playwright'] },
  { name: 'Cypress', aliases: ['cypress'] },
  { name: 'Figma', aliases: ['figma'] },
  { name: 'Agile', aliases: ['agile', 'scrum', 'kanban'] },
];

export interface SkillIndex {
  /** Canonical key for any spelling (aliases, context-only aliases and display names). */
  keyOf(term: string): string;
  /** Display name for a canonical key, or undefined for skills outside the vocabulary. */
  displayOf(key: string): string | undefined;
  /** Patterns that find the skill in prose on word boundaries (empty when it cannot be found safely). */
  patternsOf(key: string): RegExp[];
  /** All vocabulary entries' canonical keys, in vocabulary order. */
  vocabularyKeys(): string[];
}

/** Lower-cases and collapses inner whitespace; punctuation is kept because it is meaningful (C#). */
export function normaliseTerm(term: string): string {
  return term.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Word-boundary pattern for a spelling. "\b" is useless here because skills contain symbols
 * ("C++", "C#", ".NET", "Node.js"): a skill must not be preceded by a letter, digit, "+", "#" or
 * "." (so "js" does not match inside "Node.js") and not followed by a letter, digit, "+" or "#"
 * (so "Java" does not match "JavaScript"; a sentence-ending "." is fine).
 */
export function skillPattern(spelling: string, caseSensitive = false): RegExp {
  const escaped = spelling.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+');
  return new RegExp(`(?<![A-Za-z0-9+#.])${escaped}(?![A-Za-z0-9+#])`, caseSensitive ? '' : 'i');
}

/** Builds the lookup once; the vocabulary is static, so callers can share the result. */
export function buildSkillIndex(vocabulary: readonly SkillEntry[] = SKILL_VOCABULARY): SkillIndex {
  const keyBySpelling = new Map<string, string>();
  const entryByKey = new Map<string, SkillEntry>();
  const patternCache = new Map<string, RegExp[]>();
  for (const entry of vocabulary) {
    const key = normaliseTerm(entry.name);
    entryByKey.set(key, entry);
    for (const spelling of [key, ...entry.aliases, ...(entry.contextOnly ?? [])]) {
      keyBySpelling.set(normaliseTerm(spelling), key);
    }
  }

  const buildPatterns = (key: string): RegExp[] => {
    const entry = entryByKey.get(key);
    // Skills outside the vocabulary (profile-specific) are searched as written.
    if (!entry) return key.length > 0 ? [skillPattern(key)] : [];
    const hidden = new Set((entry.contextOnly ?? []).map(normaliseTerm));
    const spellings = [...new Set([key, ...entry.aliases].map(normaliseTerm))].filter((s) => !hidden.has(s));
    const patterns = spellings.map((s) => skillPattern(s));
    if (hidden.has(key) && entry.name.length >= 3) patterns.push(skillPattern(entry.name, true));
    return patterns;
  };

  return {
    keyOf: (term) => {
      const normalised = normaliseTerm(term);
      return keyBySpelling.get(normalised) ?? normalised;
    },
    displayOf: (key) => entryByKey.get(key)?.name,
    patternsOf: (key) => {
      let patterns = patternCache.get(key);
      if (!patterns) {
        patterns = buildPatterns(key);
        patternCache.set(key, patterns);
      }
      return patterns;
    },
    vocabularyKeys: () => [...entryByKey.keys()],
  };
}

/**
 * Canonical keys of the skills mentioned in `text` (the index's vocabulary plus `extraKeys`, e.g. a
 * profile's own skills), ordered by first mention. A skill whose every mention lies inside a longer
 * skill's mention is dropped, so "Tailwind CSS" does not also count as "CSS" and "React Native" not
 * also as "React". Ties at the same offset resolve by code-point order of the key (not
 * localeCompare, which depends on the ICU locale), so the result is deterministic.
 */
export function findMentionedSkills(text: string, index: SkillIndex, extraKeys: readonly string[] = []): string[] {
  if (text.length > MEMO_MAX_TEXT) return scanMentionedSkills(text, index, extraKeys);
  let memo = memos.get(index);
  if (!memo) memos.set(index, (memo = new Map()));
  const key = `${extraKeys.join('\u0000')}\u0001${text}`;
  let found = memo.get(key);
  if (!found) {
    found = scanMentionedSkills(text, index, extraKeys);
    // Oldest first out: a Map iterates in insertion order.
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(key, found);
  }
  return [...found];
}

// The same short texts are scanned again and again: a profile's bullets once per job they are ranked
// for (tailoring and the cover letter of every job of a profile update), and every scan tries each
// of the ~100 skills' patterns — bench:rescore's profile had this as the worker's largest share of
// main-thread time. Short texts only (bullets, titles, requirement lines), a bounded number of them,
// so the memo stays well under a megabyte; a job description is scanned afresh.
const MEMO_MAX_TEXT = 1_000;
const MEMO_ENTRIES = 2_000;
const memos = new WeakMap<SkillIndex, Map<string, readonly string[]>>();

/** Each pattern's global twin (matchAll needs the g flag), compiled once instead of per scan. */
const globalTwins = new WeakMap<RegExp, RegExp>();
function globalTwin(pattern: RegExp): RegExp {
  let twin = globalTwins.get(pattern);
  if (!twin) {
    twin = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    globalTwins.set(pattern, twin);
  }
  return twin;
}

function scanMentionedSkills(text: string, index: SkillIndex, extraKeys: readonly string[]): string[] {
  const spans: Array<{ key: string; start: number; end: number }> = [];
  for (const key of new Set([...index.vocabularyKeys(), ...extraKeys])) {
    for (const pattern of index.patternsOf(key)) {
      // matchAll copies the RegExp (and its lastIndex), so sharing the twin between calls is safe.
      for (const match of text.matchAll(globalTwin(pattern))) {
        spans.push({ key, start: match.index, end: match.index + match[0].length });
      }
    }
  }
  const inside = (a: { key: string; start: number; end: number }) =>
    spans.some((b) => b.key !== a.key && b.start <= a.start && a.end <= b.end && b.end - b.start > a.end - a.start);
  const first = new Map<string, number>();
  for (const span of spans) {
    if (inside(span)) continue;
    const seen = first.get(span.key);
    if (seen === undefined || span.start < seen) first.set(span.key, span.start);
  }
  return [...first.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
}

let sharedIndex: SkillIndex | undefined;

/** The index over SKILL_VOCABULARY, built once per process (it is immutable, so sharing is safe). */
export function defaultSkillIndex(): SkillIndex {
  sharedIndex ??= buildSkillIndex();
  return sharedIndex;
}
