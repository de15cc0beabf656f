import { checkFactualClaims, findEmploymentClaims } from './factual-claims.checker';

const profile = { employers: ['Acme Corporation', 'Globex'], schools: ['University of Toronto'], skills: ['Kubernetes', 'TypeScript'], titles: ['Staff Engineer'] };

describe('checkFactualClaims', () => {
  it('passes a letter whose employer claims are all in the profile', () => {
    const letter = 'At my last role I worked at Acme for five years. Before that I led the payments team at Globex Inc. I was a TA at the University of Toronto.';
    const result = checkFactualClaims(letter, profile);
    expect(result).toMatchObject({ passed: true, unsupported: [] });
    expect(result.claims.map((c) => c.organisation)).toEqual(['Acme', 'Globex Inc.', 'University of Toronto']);
  });

  it('flags invented employers after experience verbs', () => {
    const letter = 'I worked at Initech on billing. I built a search engine at Hooli, and I was a senior engineer at Pied Piper.';
    const result = checkFactualClaims(letter, profile);
    expect(result.passed).toBe(false);
    expect(result.unsupported).toEqual(['Initech', 'Hooli', 'Pied Piper']);
  });

  it('treats "for X" as employment after employment verbs only', () => {
    expect(checkFactualClaims('I worked for Umbrella for two years.', profile).unsupported).toEqual(['Umbrella']);
    expect(checkFactualClaims('I consulted for Wayne Enterprises.', profile).unsupported).toEqual(['Wayne Enterprises']);
    // "for Finance" after "built" is a department, not an employer.
    expect(checkFactualClaims('I built dashboards for Finance.', profile).passed).toBe(true);
    expect(checkFactualClaims('I built dashboards for Stark Industries.', profile).unsupported).toEqual(['Stark Industries']);
  });

  it('requires an organisation marker after "with", so tools and people are not employers', () => {
    expect(checkFactualClaims('I have worked with Kafka and Terraform daily.', profile).passed).toBe(true);
    expect(checkFactualClaims('I worked with Jane Smith on the rollout.', profile).passed).toBe(true);
    expect(checkFactualClaims('I worked with Cyberdyne Systems on robotics.', profile).unsupported).toEqual(['Cyberdyne Systems']);
  });

  it('recognises "joined X" directly and skips the target company', () => {
    expect(checkFactualClaims('In 2019 I joined Initrode as its first engineer.', profile).unsupported).toEqual(['Initrode']);
    const toTarget = checkFactualClaims('I would love to work at Initech. I worked at Globex.', profile, { targetCompany: 'Initech' });
    expect(toTarget.passed).toBe(true);
    const claimAtTarget = checkFactualClaims('I previously worked at Initech.', profile, { targetCompany: ['Initech LLC'] });
    expect(claimAtTarget.passed).toBe(true);
  });

  it('ignores intentions, conferences and sentences without an experience verb', () => {
    const letter = [
      'I am excited to work at Soylent.',
      'I would join Vandelay Industries tomorrow.',
      'I led a workshop at KubeCon and spoke at the AWS Summit.',
      'I was excited to read about Massive Dynamic.',
      'Your team at Tyrell impressed me.',
    ].join(' ');
    expect(checkFactualClaims(letter, profile)).toMatchObject({ passed: true, claims: [] });
  });

  it('matches names ignoring case, "The", accents, possessives, legal suffixes and word prefixes', () => {
    const p = { employers: ['The Nestlé Group', 'Amazon Web Services', 'Google'] };
    const letter = "I worked at NESTLE Group. I built tooling at Amazon. I led Google Cloud's launch at Google Cloud. I was at The Google.";
    expect(checkFactualClaims(letter, p)).toMatchObject({ passed: true, unsupported: [] });
  });

  it('reads multi-word names with joiners and stops at clause boundaries', () => {
    const claims = findEmploymentClaims('I worked at Bank of America where I led risk. I worked at Procter & Gamble I think. I worked at Acme and Globex.');
    expect(claims.map((c) => c.organisation)).toEqual(['Bank of America', 'Procter & Gamble', 'Acme']);
  });

  it('does not treat skills or titles as unsupported employers', () => {
    expect(checkFactualClaims('I led the migration at Kubernetes scale and worked as Staff Engineer at Globex.', profile).passed).toBe(true);
  });

  it('deduplicates unsupported names and reports claim offsets', () => {
    const letter = 'I worked at Hooli. Later I led a team at Hooli again.';
    const result = checkFactualClaims(letter, profile);
    expect(result.unsupported).toEqual(['Hooli']);
    expect(result.claims.map((c) => c.offset)).toEqual([letter.indexOf('Hooli'), letter.lastIndexOf('Hooli')]);
  });

  it('ignores determiners and numbers after the preposition', () => {
    expect(checkFactualClaims('I worked for Several years on this. I worked at My own pace for 5 years.', profile).passed).toBe(true);
  });
});
