import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { composeCoverLetterExtractive } from './extractive-letter.composer';
import { factualReviewExtractive, findPlaceholders, qualityReviewExtractive, yearsClaims } from './letter-review.rules';

const profile = sampleProfile();
const job = samplePosting();
const good = composeCoverLetterExtractive(profile, job).text;

describe('factualReviewExtractive', () => {
  it('fails a letter naming an employer that is not in the profile, listing it', () => {
    const letter = `${good}\n\nP.S. I worked at Initech for five years.`;
    expect(factualReviewExtractive(profile, letter, job)).toEqual({ kind: 'factual', passed: false, issues: ['unsupported employer: Initech'] });
  });

  it('accepts profile employers, schools and the target company', () => {
    const letter = 'I worked at Acme Corporation and then joined Globex. I studied at the University of Waterloo. I previously worked at Lumen Payments.';
    expect(factualReviewExtractive(profile, letter, job).passed).toBe(true);
  });

  it('rejects years of experience beyond the profile span', () => {
    // The sample spans 2015-01 .. 2025-06 (ongoing role) = 126 months ≈ 10.5 years.
    const letter = 'With 12+ years in platform engineering and over ten years with Kafka, I lead migrations.';
    expect(factualReviewExtractive(profile, letter, job, { asOf: '2025-06' }).issues).toEqual([
      'unsupported years of experience: "12+ years" (the profile spans 11 years)',
    ]);
    expect(factualReviewExtractive(profile, 'Over a decade of backend work.', job, { asOf: '2024-01' }).issues).toEqual([
      'unsupported years of experience: "a decade" (the profile spans 9 years)',
    ]);
    // Without asOf an ongoing role has no end, so no bound applies.
    expect(factualReviewExtractive(profile, letter, job).passed).toBe(true);
    const finished = sampleProfile();
    finished.experience[1].end = '2023-12';
    // 2015-01 .. 2023-12 = 108 months: 9 years pass, 10 do not (120 > 108 + 6).
    expect(factualReviewExtractive(finished, 'I bring 9 years of experience.', job)).toEqual({ kind: 'factual', passed: true, issues: [] });
    expect(factualReviewExtractive(finished, 'I bring 10 years of experience.', job).issues).toEqual([
      'unsupported years of experience: "10 years" (the profile spans 9 years)',
    ]);
  });

  it('does not re-check verbatim quotes of the profile', () => {
    const quoting = sampleProfile();
    quoting.experience[0].bullets.push('Worked with Stripe Inc. on card tokenisation for 2 years.');
    const letter = `At Acme: “${quoting.experience[0].bullets[4]}”`;
    expect(factualReviewExtractive(quoting, letter, job).passed).toBe(true);
    expect(factualReviewExtractive(quoting, 'I worked with Stripe Inc. on payments.', job).issues).toEqual(['unsupported employer: Stripe Inc.']);
  });

  it('reads years claims but not "5-year" adjectives', () => {
    expect(yearsClaims('5 years, 10+ years, seven years, a 5-year plan, two decades').map((c) => c.years)).toEqual([5, 10, 7, 20]);
  });
});

describe('qualityReviewExtractive', () => {
  it('passes the composed letter', () => {
    expect(qualityReviewExtractive(good, job)).toEqual({ kind: 'quality', passed: true, issues: [] });
  });

  it('flags a missing company and role', () => {
    const letter = good.replace(/Lumen Payments/g, 'your company').replace(/Senior Platform Engineer/g, 'open');
    expect(qualityReviewExtractive(letter, job)).toEqual({
      kind: 'quality',
      passed: false,
      issues: ['missing company: Lumen Payments', 'missing role: Senior Platform Engineer (not found: platform)'],
    });
    // Legal suffixes and seniority words are not required.
    expect(qualityReviewExtractive(good, { title: 'Platform Developer (m/f/d)', company: 'Lumen Payments, Inc.' }).passed).toBe(true);
  });

  it('fails a letter whose company is a lower-case board token, saying so, even when the letter names it', () => {
    const acme = { title: job.title, company: 'acme' };
    const letter = composeCoverLetterExtractive(profile, { ...job, company: 'acme' }).text;
    expect(letter).toContain('Dear acme hiring team');
    expect(qualityReviewExtractive(letter, acme)).toEqual({
      kind: 'quality',
      passed: false,
      issues: [`company is a job-board token, not the employer's name: "acme" (set company_name in the source's config)`],
    });
    // The employer's own name, however it is cased, is not a token.
    for (const company of ['Acme', 'ACME', 'Acme Labs']) {
      const named = composeCoverLetterExtractive(profile, { ...job, company }).text;
      expect(qualityReviewExtractive(named, { title: job.title, company })).toEqual({ kind: 'quality', passed: true, issues: [] });
    }
  });

  it('flags letters that are too short or too long', () => {
    expect(qualityReviewExtractive('Dear Lumen Payments, I want the Senior Platform Engineer job.', job).issues).toEqual(['too short: 10 words (minimum 120)']);
    const long = `${good}\n\n${'I have shipped many platform features on Kubernetes with Terraform. '.repeat(30)}`;
    const verdict = qualityReviewExtractive(long, job);
    expect(verdict.passed).toBe(false);
    expect(verdict.issues).toEqual([expect.stringMatching(/^too long: \d+ words \(maximum 450\)$/)]);
  });

  it('flags template placeholders', () => {
    const letter = good.replace('Dear Lumen Payments hiring team,', 'Dear [Hiring Manager],').replace('Dana Whitfield', '{name}').replace('position at', '<role> position at');
    expect(qualityReviewExtractive(letter, job)).toEqual({
      kind: 'quality',
      passed: false,
      issues: ['template placeholder: [Hiring Manager]', 'template placeholder: <role>', 'template placeholder: {name}'],
    });
    expect(findPlaceholders('Hi {{company}}, XXX, mail me at <dana@example.com>')).toEqual(['{{company}}', 'XXX']);
  });

  it('allows one cliché as an advisory and fails two or more', () => {
    const one = good.replace('Thank you for your time', 'As a team player, thank you for your time');
    expect(qualityReviewExtractive(one, job)).toEqual({ kind: 'quality', passed: true, issues: ['cliché: "team player"'] });
    const three = `I am writing to express my interest in this role. ${one} I am passionate about results-driven work.`;
    expect(qualityReviewExtractive(three, job)).toEqual({
      kind: 'quality',
      passed: false,
      issues: ['cliché: "I am writing to express my interest"', 'cliché: "team player"', 'cliché: "passionate about"', 'cliché: "results-driven"'],
    });
  });
});
