import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { tailorResumeExtractive } from './extractive-tailor.rules';
import { checkNoNewFacts, contentWords, numbersIn, organisationsIn, traceResume } from './no-new-facts.checker';
import type { TailoredResume } from './tailored-resume.types';

describe('checkNoNewFacts', () => {
  const profile = sampleProfile();
  const base = (): TailoredResume => tailorResumeExtractive(profile, samplePosting());

  it('catches a new employer', () => {
    const resume = base();
    resume.experience.push({ employer: 'Initech', title: 'Staff Engineer', start: '2012-01', end: '2014-12', bullets: ['Built TPS report tooling.'] });
    expect(checkNoNewFacts(profile, resume)).toEqual({ passed: false, violations: ['experience[3].employer: "Initech" is not an employer in the profile'] });
  });

  it('catches changed dates and titles, naming field and value', () => {
    const resume = base();
    resume.experience[1].start = '2016-01';
    resume.experience[1].end = null;
    resume.experience[0].title = 'Principal Engineer';
    expect(checkNoNewFacts(profile, resume).violations).toEqual([
      'experience[0].title: "Principal Engineer" does not match the profile ("Senior Backend Engineer" at Globex)',
      'experience[1].start: "2016-01" does not match the profile ("2017-06" at Acme Corporation)',
      'experience[1].end: ongoing does not match the profile ("2021-02" at Acme Corporation)',
    ]);
  });

  it('accepts equivalent spellings of the same facts', () => {
    const resume = base();
    resume.experience[0] = { ...resume.experience[0], employer: ' globex ', title: 'senior backend  engineer', end: 'Present' };
    resume.experience[1] = { ...resume.experience[1], start: '2017-6' };
    resume.skills = ['Kubernetes', 'Golang', 'postgres'];
    expect(checkNoNewFacts(profile, resume)).toEqual({ passed: true, violations: [] });
  });

  it('catches an invented number, percentage or money amount', () => {
    const resume = base();
    resume.experience[0].bullets = [
      'Led the migration of 45 services from a monolith to Kubernetes, cutting deploy time from 2 hours to 15 minutes.',
      'Built a PostgreSQL partitioning scheme that reduced p99 query latency by 75%.',
    ];
    resume.experience[1].bullets = ['Reduced AWS spend by $150k a year by rightsizing EC2 fleets.', 'Cut AWS spend by $120,000 a year by rightsizing EC2 fleets.'];
    expect(checkNoNewFacts(profile, resume).violations).toEqual([
      'experience[0].bullets[0]: number "45" does not appear in the profile\'s bullets for Globex',
      'experience[0].bullets[1]: number "75%" does not appear in the profile\'s bullets for Globex',
      'experience[1].bullets[0]: number "$150k" does not appear in the profile\'s bullets for Acme Corporation',
    ]);
  });

  it('requires numbers to come from the same entry', () => {
    const resume = base();
    // 60% is a Globex number; Acme's bullets do not have it.
    resume.experience[1].bullets = ['Added contract tests that caught 60% more regressions before release.'];
    expect(checkNoNewFacts(profile, resume).violations).toEqual([
      'experience[1].bullets[0]: number "60%" does not appear in the profile\'s bullets for Acme Corporation',
    ]);
  });

  it('catches an unknown skill', () => {
    const resume = base();
    resume.skills = ['TypeScript', 'Rust', 'k8s'];
    expect(checkNoNewFacts(profile, resume).violations).toEqual(['skills[1]: "Rust" is not a skill in the profile']);
  });

  it('requires bullets to be traceable to a bullet of the same entry', () => {
    const resume = base();
    resume.experience[0].bullets = [
      'Migrated 40 services from the monolith to Kubernetes, cutting deploy time from 2 hours to 15 minutes.', // a rephrase: fine
      'Won the company hackathon with a Rust prototype for fraud detection.',
      'Maintained the React front end of the billing portal.', // an Acme bullet moved to Globex
    ];
    const result = traceResume(profile, resume);
    expect(result.violations).toHaveLength(2);
    expect(result.violations[0]).toMatch(/^experience\[0\]\.bullets\[1\]: "Won the company hackathon.*" is not traceable to a bullet of Globex \(best overlap \d+%\)$/);
    expect(result.violations[1]).toMatch(/^experience\[0\]\.bullets\[2\]: "Maintained the React front end/);
    expect(result.provenance[0][0]).toEqual({ experienceIndex: 1, bulletIndex: 1 });
  });

  it('checks education entries', () => {
    const resume = base();
    resume.education = [
      { school: 'University of Waterloo', degree: 'MASc', field: 'Computer Engineering' },
      { school: 'MIT', degree: 'PhD' },
    ];
    expect(checkNoNewFacts(profile, resume).violations).toEqual([
      'education[0].degree: "MASc" does not match the profile ("BASc" at University of Waterloo)',
      'education[1].school: "MIT" is not a school in the profile',
    ]);
    resume.education = [{ school: 'university of waterloo', end: '2014-12' }];
    expect(checkNoNewFacts(profile, resume).passed).toBe(true);
  });

  it('rejects a summary naming an organisation absent from the profile', () => {
    const resume = base();
    resume.summary = 'Backend engineer who scaled payments at Globex and previously worked for Initech. Trained at Hooli Labs.';
    expect(checkNoNewFacts(profile, resume).violations).toEqual([
      'summary: names "Initech", an organisation that appears nowhere in the profile',
      'summary: names "Hooli Labs", an organisation that appears nowhere in the profile',
    ]);
    resume.summary = 'Platform engineer with Kubernetes and Terraform depth, from Acme Corporation to Globex, eager to build the platform at Lumen Payments.';
    expect(checkNoNewFacts(profile, resume, { targetCompany: 'Lumen Payments Inc.' }).passed).toBe(true);
    expect(checkNoNewFacts(profile, resume).violations).toEqual(['summary: names "Lumen Payments", an organisation that appears nowhere in the profile']);
  });
});

describe('helpers', () => {
  it('reads content words without stop words, folding plurals', () => {
    expect([...contentWords('Led the migration of 40 services to Kubernetes.')]).toEqual(['led', 'migration', '40', 'service', 'kubernete']);
  });

  it('reads numbers with scales, units and currencies, skipping names like EC2 and p99', () => {
    expect(numbersIn('Saved $120k (€2.5M), 30% faster, 3x throughput, 3 million events, 1,200 users on EC2 at p99.')).toEqual([
      { text: '$120k', value: 120000, unit: '', currency: '$' },
      { text: '€2.5M', value: 2500000, unit: '', currency: '€' },
      { text: '30%', value: 30, unit: '%', currency: '' },
      { text: '3x', value: 3, unit: 'x', currency: '' },
      { text: '3 million', value: 3000000, unit: '', currency: '' },
      { text: '1,200', value: 1200, unit: '', currency: '' },
    ]);
  });

  it('finds organisation names after prepositions or with markers', () => {
    expect(organisationsIn('Engineer at Bank of America. Worked with Jane on Kafka and with Kafka. University of Toronto alumna, joined The Hartford in 2020.')).toEqual([
      'Bank of America',
      'Jane',
      'Kafka',
      'University of Toronto',
      'The Hartford',
    ]);
  });
});
