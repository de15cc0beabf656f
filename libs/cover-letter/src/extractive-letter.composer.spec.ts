import { emptyProfile, type Profile } from '@jobctrl/shared/profile';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { composeCoverLetterExtractive, withArticle } from './extractive-letter.composer';
import { CLICHES, countWords, factualReviewExtractive, qualityReviewExtractive } from './letter-review.rules';

describe('composeCoverLetterExtractive', () => {
  const profile = sampleProfile();
  const job = samplePosting();
  const letter = composeCoverLetterExtractive(profile, job);

  it('passes both extractive reviews for a normal profile', () => {
    expect(factualReviewExtractive(profile, letter, job, { asOf: '2025-06' })).toEqual({ kind: 'factual', passed: true, issues: [] });
    expect(qualityReviewExtractive(letter, job)).toEqual({ kind: 'quality', passed: true, issues: [] });
    expect(letter).toMatchObject({ method: 'extractive', version: 'cover-extractive-v1' });
  });

  it('is 150–400 words and free of clichés', () => {
    const words = countWords(letter.text);
    expect(words).toBeGreaterThanOrEqual(150);
    expect(words).toBeLessThanOrEqual(400);
    for (const cliche of CLICHES) expect(letter.text).not.toMatch(cliche.pattern);
  });

  it('uses only profile facts: current role, earlier roles, matched skills, quoted bullets, education', () => {
    expect(letter.text).toContain('Dear Lumen Payments hiring team,');
    expect(letter.text).toContain('I am applying for the Senior Platform Engineer position at Lumen Payments.');
    expect(letter.text).toContain('I currently work as a Senior Backend Engineer at Globex.');
    expect(letter.text).toContain('Before that, I was a Software Engineer at Acme Corporation and a Junior Developer at Northwind Traders.');
    expect(letter.text).toContain('I bring experience with TypeScript, PostgreSQL, Kubernetes, Terraform, Kafka and AWS.');
    expect(letter.text).toContain('I hold a BASc in Computer Engineering from the University of Waterloo.');
    expect(letter.text.endsWith('Sincerely,\nDana Whitfield')).toBe(true);
    // The three most relevant bullets, quoted exactly as written.
    const quoted = [...letter.text.matchAll(/“([^”]+)”/g)].map((m) => m[1]);
    expect(quoted).toEqual([profile.experience[1].bullets[5], profile.experience[1].bullets[1], profile.experience[1].bullets[2]]);
    expect(letter.text).toContain('At Globex: “Introduced Terraform');
    expect(letter.text).toContain('Also at Globex: “Led the migration');
  });

  it('says "most recently" for a finished last role and never pads a thin profile', () => {
    const thin: Profile = {
      ...emptyProfile(),
      contact: { name: 'Sam Lee', email: 'sam@example.com' },
      skills: ['SQL'],
      experience: [{ employer: 'Initrode', title: 'Analyst', start: '2020-01', end: '2022-06', bullets: ['Built SQL reports'] }],
    };
    const short = composeCoverLetterExtractive(thin, job);
    expect(short.text).toContain('Most recently, I worked as an Analyst at Initrode.');
    expect(short.text).toContain('One example from my work that relates to this role: At Initrode: “Built SQL reports”.');
    expect(countWords(short.text)).toBeLessThan(120);
    expect(factualReviewExtractive(thin, short, job).passed).toBe(true);
  });

  it('stays under 400 words with very long bullets by quoting fewer', () => {
    const verbose = sampleProfile();
    verbose.experience[1].bullets = verbose.experience[1].bullets.map((b) => `${b} ${'Worked closely with product, design and data partners on Kubernetes and Terraform rollouts. '.repeat(8)}`);
    const text = composeCoverLetterExtractive(verbose, job).text;
    expect(countWords(text)).toBeLessThanOrEqual(400);
    expect([...text.matchAll(/“/g)]).toHaveLength(2);
  });

  it('is deterministic', () => {
    expect(composeCoverLetterExtractive(profile, job)).toEqual(letter);
  });
});

describe('withArticle', () => {
  it('chooses a/an by sound', () => {
    expect(['Senior Engineer', 'Engineering Manager', 'MSc', 'BASc', 'MBA', 'PhD', 'SRE', 'UX Designer', 'Honours BSc', 'University Lecturer'].map(withArticle)).toEqual([
      'a Senior Engineer',
      'an Engineering Manager',
      'an MSc',
      'a BASc',
      'an MBA',
      'a PhD',
      'an SRE',
      'a UX Designer',
      'an Honours BSc',
      'a University Lecturer',
    ]);
  });
});
