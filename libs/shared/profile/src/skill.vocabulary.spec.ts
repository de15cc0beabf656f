import { SKILL_VOCABULARY, buildSkillIndex, defaultSkillIndex, findMentionedSkills, skillPattern } from './skill.vocabulary';

describe('skill vocabulary', () => {
  const index = buildSkillIndex();

  it('canonicalises aliases and context-only aliases to one key', () => {
    expect(index.keyOf(' K8S ')).toBe(index.keyOf('Kubernetes'));
    expect(index.keyOf('go')).toBe(index.keyOf('Golang'));
    expect(index.displayOf(index.keyOf('postgres'))).toBe('PostgreSQL');
    expect(index.keyOf('Some  Niche Tool')).toBe('some niche tool');
    expect(index.displayOf('some niche tool')).toBeUndefined();
  });

  it('never searches prose for ambiguous short names', () => {
    const go = index.patternsOf(index.keyOf('Go'));
    expect(go.some((p) => p.test('Ready to go live'))).toBe(false);
    expect(go.some((p) => p.test('Golang services'))).toBe(true);
    expect(index.patternsOf(index.keyOf('C'))).toEqual([]);
  });

  it('searches context-only names only in their exact capitalisation', () => {
    const rest = index.patternsOf(index.keyOf('REST'));
    expect(rest.some((p) => p.test('the rest of the team'))).toBe(false);
    expect(rest.some((p) => p.test('design REST endpoints'))).toBe(true);
  });

  it('builds word-boundary patterns that handle symbols', () => {
    expect(skillPattern('c++').test('Modern C++ code')).toBe(true);
    expect(skillPattern('js').test('node.js')).toBe(false);
    expect(skillPattern('java').test('javascript')).toBe(false);
    expect(skillPattern('react').test('We love React.')).toBe(true);
    expect(skillPattern('machine learning').test('machine\nlearning')).toBe(true);
  });

  it('has no spelling claimed by two different skills', () => {
    const owner = new Map<string, string>();
    for (const entry of SKILL_VOCABULARY) {
      for (const spelling of [entry.name.toLowerCase(), ...entry.aliases, ...(entry.contextOnly ?? [])]) {
        expect([undefined, entry.name]).toContain(owner.get(spelling));
        owner.set(spelling, entry.name);
      }
    }
  });

  it('finds mentioned skills by first mention, dropping skills nested in longer ones', () => {
    const text = 'Tailwind CSS and React Native apps; later React, k8s and our Event Sourcing work.';
    expect(findMentionedSkills(text, index, ['event sourcing'])).toEqual(['tailwind css', 'react native', 'react', 'kubernetes', 'event sourcing']);
    expect(findMentionedSkills('Ready to go live', index)).toEqual([]);
  });

  it('shares one default index', () => {
    expect(defaultSkillIndex()).toBe(defaultSkillIndex());
    expect(defaultSkillIndex().keyOf('Postgres')).toBe('postgresql');
  });

  it('answers a repeated short text from its memo, unchanged by what a caller did with an earlier answer', () => {
    const fresh = buildSkillIndex();
    const bullet = 'Built Node.js services on PostgreSQL and Kafka';
    const first = findMentionedSkills(bullet, fresh);
    expect(first).toEqual(['node.js', 'postgresql', 'kafka']);
    first.push('mutated');
    expect(findMentionedSkills(bullet, fresh)).toEqual(['node.js', 'postgresql', 'kafka']);
    // The profile's own skills are part of the question: other extra keys, another answer.
    expect(findMentionedSkills(bullet, fresh, ['services'])).toEqual(['node.js', 'services', 'postgresql', 'kafka']);
    expect(findMentionedSkills(bullet, fresh)).toEqual(['node.js', 'postgresql', 'kafka']);
    // A long text (a job description) is scanned, with the same result.
    const long = `${'Filler words about the team. '.repeat(60)}We use Kafka.`;
    expect(findMentionedSkills(long, fresh)).toEqual(['kafka']);
    expect(findMentionedSkills(long, fresh)).toEqual(['kafka']);
  });
});
