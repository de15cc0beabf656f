import { EXTRACTIVE_FORMULA_VERSION, scoreJobExtractive, type ScoringJob, type ScoringProfile } from './extractive-score.rules';

const job = (over: Partial<ScoringJob> = {}): ScoringJob => ({ title: 'Software Engineer', description: '', ...over });

describe('scoreJobExtractive', () => {
  it('matches skills case-insensitively through aliases', () => {
    const result = scoreJobExtractive(
      { skills: ['js', 'TS', 'k8s', 'postgres', 'node'] },
      job({ description: 'We use JavaScript, TypeScript, Kubernetes, PostgreSQL and Node.js daily.' }),
    );
    expect(result.matched).toEqual(['JavaScript', 'TypeScript', 'Kubernetes', 'PostgreSQL', 'Node.js']);
    expect(result.missing).toEqual([]);
    expect(result.components.skills).toBe(1);
    expect(result.score).toBe(100);
  });

  it('extracts requirements from the description in order of first mention', () => {
    const result = scoreJobExtractive({ skills: ['TypeScript'] }, job({ description: 'Kafka and Go experience; TypeScript a plus. Terraform too.' }));
    expect(result.requirementsSource).toBe('description');
    expect(result.matched).toEqual(['TypeScript']);
    expect(result.missing).toEqual(['Kafka', 'Terraform']);
    // "Go" is too ambiguous to find in prose, so it is not invented as a requirement.
    expect(result.missing).not.toContain('Go');
  });

  it('respects word boundaries and symbol-bearing skill names', () => {
    const result = scoreJobExtractive({ skills: ['Java', 'C#'] }, job({ description: 'JavaScript and C++ on .NET; no Java here? Actually Java.' }));
    expect(result.matched).toEqual(['Java']);
    expect(result.missing).toEqual(['JavaScript', 'C++', '.NET']);
    const js = scoreJobExtractive({ skills: ['JavaScript'] }, job({ description: 'Our Node.js services' }));
    expect(js.matched).toEqual([]);
    expect(js.missing).toEqual(['Node.js']);
  });

  it('does not count a skill that only appears inside a longer skill name', () => {
    const result = scoreJobExtractive({ skills: ['CSS', 'React'] }, job({ description: 'Tailwind CSS and React Native apps.' }));
    expect(result.matched).toEqual([]);
    expect(result.missing).toEqual(['Tailwind CSS', 'React Native']);
  });

  it('finds profile skills outside the vocabulary in the description, labelled as written', () => {
    const result = scoreJobExtractive({ skills: ['Temporal workflows'] }, job({ description: 'Experience with temporal workflows and SQL.' }));
    expect(result.matched).toEqual(['Temporal workflows']);
    expect(result.missing).toEqual(['SQL']);
  });

  it('uses given requirements (terms or sentences) instead of the description', () => {
    const result = scoreJobExtractive(
      { skills: ['golang', 'PostgreSQL'] },
      job({ description: 'Mentions Kafka and Rust but they are not requirements.', requirements: ['Go', '3+ years with Postgres', 'Tailwind CSS', 'go'] }),
    );
    expect(result.requirementsSource).toBe('job');
    expect(result.matched).toEqual(['Go', '3+ years with Postgres']);
    expect(result.missing).toEqual(['Tailwind CSS']);
  });

  it('scores title overlap ignoring seniority and unifying synonyms', () => {
    const full = scoreJobExtractive({ skills: [], titles: ['Backend Developer'] }, job({ title: 'Senior Back-End Engineer (m/f/d)' }));
    expect(full.components.title).toBe(1);
    const half = scoreJobExtractive({ skills: [], titles: ['Data Engineer'] }, job({ title: 'Software Engineer' }));
    expect(half.components.title).toBe(0.5);
    const best = scoreJobExtractive({ skills: [], titles: ['Designer', 'Platform Engineer'] }, job({ title: 'Platform Engineer' }));
    expect(best.components.title).toBe(1);
    expect(best.rationale).toContain('"Platform Engineer"');
  });

  it('scores location and remote fit', () => {
    const profile: ScoringProfile = { skills: [], locations: ['Berlin, Germany'] };
    expect(scoreJobExtractive(profile, job({ location: 'Berlin, BE, DE' })).components.location).toBe(1);
    expect(scoreJobExtractive(profile, job({ location: 'Munich, Germany' })).components.location).toBe(0);
    expect(scoreJobExtractive(profile, job({ location: 'Munich', remote: true })).components.location).toBe(1);
    expect(scoreJobExtractive({ skills: [], remote: true }, job({ location: 'Remote - EU' })).components.location).toBe(1);
    expect(scoreJobExtractive({ skills: [], remote: false }, job({ remote: true })).components.location).toBe(0.5);
    expect(scoreJobExtractive({ skills: [], remote: true }, job({ location: 'Paris', remote: false })).components.location).toBe(0);
    expect(scoreJobExtractive({ skills: [], locations: ['Remote'] }, job({ remote: true })).components.location).toBe(1);
  });

  it('matches a preferred place against every location the posting lists, not only the primary one (#27)', () => {
    const profile: ScoringProfile = { skills: [], locations: ['Jakarta'] };
    // A real Lever posting (GoToGroup) lists categories.location "Bengaluru" and allLocations ["Bengaluru", "Jakarta"].
    const listed = scoreJobExtractive(profile, job({ location: 'Bengaluru', locations: ['Bengaluru', 'Jakarta'] }));
    expect(listed.components.location).toBe(1);
    expect(listed.rationale).toContain('"Jakarta" matches preferred "Jakarta"');
    expect(scoreJobExtractive(profile, job({ location: 'Bengaluru', locations: ['Bengaluru'] })).components.location).toBe(0);
  });

  it('leaves out components that cannot be compared and renormalises the weights', () => {
    const onlySkills = scoreJobExtractive({ skills: ['SQL'] }, job({ description: 'SQL and Python' }));
    expect(onlySkills.components).toEqual({ skills: 0.5 });
    expect(onlySkills.score).toBe(50);
    expect(onlySkills.rationale).toContain('Title: not compared');
    expect(onlySkills.rationale).toContain('Location: not compared');
  });

  it('combines components with the documented weights', () => {
    // S = 1/2, T = 1, L = 0 → round(100 × (0.6×0.5 + 0.25×1 + 0.15×0) / 1) = 55
    const result = scoreJobExtractive(
      { skills: ['TypeScript'], titles: ['Software Engineer'], locations: ['Lisbon'] },
      job({ description: 'TypeScript and Rust', location: 'Oslo, Norway' }),
    );
    expect(result.components).toEqual({ skills: 0.5, title: 1, location: 0 });
    expect(result.score).toBe(55);
    expect(result.rationale).toContain('Score 55 = round(100 × (0.60×0.50 + 0.25×1.00 + 0.15×0.00) / 1.00)');
    expect(result.formulaVersion).toBe(EXTRACTIVE_FORMULA_VERSION);
  });

  it('returns 0 with an explanation when nothing is comparable', () => {
    const result = scoreJobExtractive({ skills: ['SQL'] }, job({ description: 'A great team.' }));
    expect(result.score).toBe(0);
    expect(result.components).toEqual({});
    expect(result.rationale).toContain('no recognisable requirements');
  });

  it('always yields an integer within 0..100', () => {
    const result = scoreJobExtractive(
      { skills: ['Python'], titles: ['ML Engineer'] },
      job({ title: 'Machine Learning Engineer', description: 'Python, PyTorch, Kubernetes' }),
    );
    // S = 1/3, T = 1/2 ("ml" is absent from the job title) → 100 × (0.2 + 0.125) / 0.85 = 38.2
    expect(result.score).toBe(38);
    expect(Number.isInteger(result.score)).toBe(true);
  });

  it('is deterministic and explains matches in the rationale', () => {
    const profile = { skills: ['React', 'TypeScript'], titles: ['Frontend Engineer'], remote: true };
    const posting = job({ title: 'Front-end Developer', description: 'React, TypeScript, GraphQL', remote: true });
    const first = scoreJobExtractive(profile, posting);
    expect(scoreJobExtractive(profile, posting)).toEqual(first);
    expect(first.rationale).toContain('Skills: 2 of 3 skills mentioned in the description matched (67%); matched: React, TypeScript; missing: GraphQL.');
    expect(first.rationale).toContain('Location: remote role fits the profile.');
  });

  describe('pay component (extractive-v2)', () => {
    const profile: ScoringProfile = { skills: ['TypeScript'], titles: ['Backend Engineer'], minimumSalary: 100_000, salaryCurrency: 'USD' };
    const job: ScoringJob = { title: 'Backend Engineer', description: 'We use TypeScript.', requirements: ['TypeScript'] };

    it('counts pay at or above the minimum fully and lower pay in proportion, with weight 0.15', () => {
      const met = scoreJobExtractive(profile, { ...job, pay: { currency: 'USD', yearly: 120_000 } });
      expect(met.components.pay).toBe(1);
      expect(met.score).toBe(100);
      const low = scoreJobExtractive(profile, { ...job, pay: { currency: 'USD', yearly: 50_000 } });
      expect(low.components.pay).toBe(0.5);
      // (0.60×1 + 0.25×1 + 0.15×0.5) / 1.00
      expect(low.score).toBe(93);
      expect(low.rationale).toContain('Pay: up to USD 50,000 a year, below the minimum USD 100,000 (50%).');
    });

    it('leaves pay out when either side is silent or the currencies differ, so those jobs score as in extractive-v1', () => {
      const base = scoreJobExtractive({ ...profile, minimumSalary: undefined }, { ...job, pay: { currency: 'USD', yearly: 10_000 } });
      expect(base.components.pay).toBeUndefined();
      expect(scoreJobExtractive(profile, job).components.pay).toBeUndefined();
      expect(scoreJobExtractive(profile, { ...job, pay: { currency: 'EUR', yearly: 10_000 } }).components.pay).toBeUndefined();
      expect(scoreJobExtractive(profile, { ...job, pay: { currency: 'EUR', yearly: 10_000 } }).score).toBe(base.score);
    });
  });
});
