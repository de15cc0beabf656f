import { DECISION_THRESHOLD, determineCompensation } from './compensation.determination';

// Every string below is a real posting's pay statement from libs/compensation/corpus/salaries.jsonl
// (its source is on that line).
const read = (text: string, country?: string, field?: string) => determineCompensation({ text, country, field });

describe('determineCompensation: ranges, single values and open ends', () => {
  it('reads a range with a period, and annualises it', () => {
    expect(read('From £14.54 - £15.20 per hour')).toMatchObject({
      decided: true, kind: 'hourly', currency: 'GBP', interval: 'hour', min: 14.54, max: 15.2, minYearly: 30243, maxYearly: 31616, method: 'parser', flags: [],
    });
    expect(read('£26,403 - £27,254 per annum (£14,714 - £15,188 actual salary)')).toMatchObject({ kind: 'base', min: 26403, max: 27254, interval: 'year', minYearly: 26403 });
  });

  it('reads single values, "up to", "to" and "+" as open ends', () => {
    expect(read('eSports Gaming Startup | Senior Full-Stack Engineer | Full-time | Remote | $140k/year')).toMatchObject({ min: 140000, max: 140000 });
    expect(read('Anders Pink | Full-Stack Web Developer (Mid/Junior) | Remote (UK) | Full time | Up to £35k')).toMatchObject({ currency: 'GBP', min: null, max: 35000, maxYearly: 35000, minYearly: null });
    expect(read('Open Energy Market | UI/UX Front-end Developer | REMOTE OK (Commutable to Surrey UK) | to £60k | Permanent')).toMatchObject({ min: null, max: 60000 });
    expect(read('Guilded (YC S17) | Full Time | Full-stack software engineer | $150,000+ | Remote (U.S. only)')).toMatchObject({ kind: 'base', min: 150000, max: null });
    expect(read('We offer competitive compensation starting at $85,000')).toMatchObject({ min: 85000, max: null });
    expect(read('Pex | Multiple positions | Downtown, Los Angeles | US-ONLY REMOTE or ONSITE, FULL-TIME | $105,000 Minimum Salary + Equity')).toMatchObject({ min: 105000, max: null });
    expect(read('NT$ 60000 - (月薪)')).toMatchObject({ currency: 'TWD', interval: 'month', min: 60000, max: null });
  });

  it('reads k suffixes written once or on both ends, and lakhs', () => {
    expect(read('Hazel Analytics | Seattle | Full Stack | $80 - $130K + 0.1-1% equity (DOE)')).toMatchObject({ min: 80000, max: 130000, interval: 'year', flags: ['interval_inferred'] });
    expect(read('Talentwunder | Germany, Berlin (no visa) | ONSITE, Full-time | Salaray 30k€ - 70k€')).toMatchObject({ currency: 'EUR', min: 30000, max: 70000 });
    expect(read('₹5-15 lakhs per annum + benefits')).toMatchObject({ currency: 'INR', min: 500000, max: 1500000, interval: 'year' });
    expect(read('₹273K-₹508K (Glassdoor est.)')).toMatchObject({ currency: 'INR', interval: 'year', min: 273000, max: 508000 });
  });

  it('reads locale separators', () => {
    expect(read('Lønn: kr 600 000 – 750 000 per år', 'NO')).toMatchObject({ currency: 'NOK', interval: 'year', min: 600000, max: 750000 });
    expect(read('Lønn: kr 650.000', 'NO')).toMatchObject({ currency: 'NOK', min: 650000 });
    expect(read('68.000–78.000 EUR brutto/Jahr')).toMatchObject({ currency: 'EUR', interval: 'year', min: 68000, max: 78000 });
    expect(read('Der gesetzliche Mindestlohn in Deutschland ist zum 1. Januar 2026 auf 13,90 € brutto pro Stunde gestiegen')).toMatchObject({ kind: 'hourly', min: 13.9 });
    expect(read('£24,305.00 - £26,325.00')).toMatchObject({ min: 24305, max: 26325 });
    expect(read('£32,061 to £ 33,699 per annum + benefits (pay award pending)')).toMatchObject({ min: 32061, max: 33699 });
  });

  it('reads intervals in several languages', () => {
    expect(read('Sie verdienen 3.440 € brutto im Monat, gezahlt zum Monatsende.')).toMatchObject({ interval: 'month', min: 3440, maxYearly: 41280 });
    expect(read('NT$ 1,400,000 - 2,000,000 (年薪)')).toMatchObject({ interval: 'year' });
    expect(read('Convergence Labs | Contract | $7-9K / month')).toMatchObject({ interval: 'month', min: 7000, max: 9000, minYearly: 84000 });
    expect(read('Fresh4cast | Python Developer | £28k+pa + share options')).toMatchObject({ interval: 'year', min: 28000, max: null });
    expect(read('Wikitude | ONSITE | Type: Full time | € 42k+ p.a. + fringe benefits')).toMatchObject({ interval: 'year', min: 42000 });
    expect(read('Employer Provided Salary:$23 - $29 Per Hour')).toMatchObject({ kind: 'hourly', interval: 'hour' });
  });

  it('skips grades and points next to a figure', () => {
    expect(read('Grade 6 - £28,142- £31,022 (Pay award pending)')).toMatchObject({ min: 28142, max: 31022 });
    expect(read('Band 7 £23,175 - £24,314 pa')).toMatchObject({ min: 23175, max: 24314 });
    expect(read('Points 4-6, FTE £25,185 - £25,989 Actual £21,730 - £22,424')).toMatchObject({ min: 25185, max: 25989 });
  });
});

describe('determineCompensation: currencies', () => {
  it('takes a bare "$" as the posting country\'s dollar and flags it', () => {
    expect(read('Employer Provided Salary:$110K - $118K', 'AU')).toMatchObject({ currency: 'AUD', flags: ['interval_inferred', 'currency_from_country'] });
    expect(read('OneDegree| Hong Kong & Taipei, Taiwan | $25K – $37K monthly + equity', 'HK')).toMatchObject({ currency: 'HKD', interval: 'month' });
    expect(read('Employer Provided Salary:$110K - $118K')).toMatchObject({ currency: 'USD' });
  });

  it('lets a written code or prefixed dollar win over the bare sign and the country', () => {
    expect(read('www.empresseffects.com | Embedded/DSP Engineer | Ottawa | REMOTE or ONSITE | $110k CAD', 'US')).toMatchObject({ currency: 'CAD' });
    expect(read('Springbok Solutions Ltd | Singapore | Full Time | REMOTE | US$50-60k', 'SG')).toMatchObject({ currency: 'USD' });
    expect(read('CA$110K – $140K OTE')).toMatchObject({ currency: 'CAD', min: 110000, max: 140000 });
  });

  it('assumes the country\'s currency for unmarked figures, and leaves them undecided without one', () => {
    expect(read("The Farmer's Dog | Software Engineer | New York, NY | ONSITE, SALARY:100-160k", 'US')).toMatchObject({
      decided: true, currency: 'USD', min: 100000, max: 160000, flags: ['interval_inferred', 'currency_from_country'],
    });
    const open = read('Salary: 60k-100k + equity');
    expect(open).toMatchObject({ decided: false, reason: 'no_currency' });
    expect(open.confidence).toBeLessThan(DECISION_THRESHOLD);
  });
});

describe('determineCompensation: kinds', () => {
  it('tells OTE from base, and prefers a stated base', () => {
    expect(read('$120K-$150K OTE (On-Target Earnings)')).toMatchObject({ kind: 'ote', min: 120000, max: 150000 });
    expect(read('**Salary (On-Target Earnings):** $170K–$260K OTE (base + commission)')).toMatchObject({ kind: 'ote' });
    expect(read('CA$80K – $110K OTE (CA$50K base + uncapped variable)')).toMatchObject({ kind: 'base', currency: 'CAD', min: 50000, max: 50000 });
    expect(read('€60–90k base + €5–50k OTE (uncapped); seniority set in process')).toMatchObject({ kind: 'base', min: 60000, max: 90000 });
    expect(read('$17.50/hr base · $49K–$74K OTE (uncapped)')).toMatchObject({ kind: 'hourly', min: 17.5 });
  });

  it('reads "+ Bonus" and "+ equity" as extras on top of base pay', () => {
    expect(read('Tapad | Full-Time, Onsite: NYC or Oslo | $100K - $160K/YR + Bonus')).toMatchObject({ kind: 'base', min: 100000 });
    expect(read('We offer £50-60K + Annual bonus, benefits and the chance')).toMatchObject({ kind: 'base', interval: 'year' });
    expect(read('Intello | Senior Software Engineer | $120k - $160k + equity')).toMatchObject({ kind: 'base' });
  });

  it('reads equity given only as a share', () => {
    expect(read("Compensation is a healthy mix of cash and equity (up to 3%) - ideal for the senior developer")).toMatchObject({ kind: 'equity', currency: null, min: null, max: null });
  });

  it('reads "competitive", "DOE", "negotiable" and no figure as none', () => {
    for (const text of [
      'Competitive salary + fully paid medical, dental, vision + 401(k) + parental leave',
      'Lønn etter avtale',
      'The salary range for this position is.',
      'Salary negotiable DOE',
      '-1',
    ]) {
      expect(read(text)).toMatchObject({ decided: true, kind: 'none', currency: null, min: null, max: null, minYearly: null });
    }
  });

  it('does not take funding, prices, perks or referral bonuses for pay', () => {
    for (const text of [
      'We recently closed a $70M Series C round and are looking to double our engineering team to 100.',
      'Pick Florida for almost no traffic or commute, surfing, and a median house price of about $150,000.',
      '- $300 monthly allowance for co-working or commuting',
      "We'll pay a $5,000 referral bonus to whoever refers the person we end up hiring",
      'Scribd offers all you can read ebooks and audiobooks for $8.99 a month and our apps get a ton of usage.',
      'User pays $5/mo, we take $1 to run the servers without ads or tracking',
      "MF broke ground in 2014 with the world's first sub-$100K metal printer.",
    ]) {
      expect(read(text)).toMatchObject({ kind: 'none' });
    }
    expect(read('My budget for this position is $40K/yr.')).toMatchObject({ kind: 'base', min: 40000 });
  });
});

describe('determineCompensation: repairs and confidence', () => {
  it('puts a reversed range in order and flags it', () => {
    // "£40-8k" (a typo in a real posting) reads as 40k..8k; the parser orders and flags it.
    expect(read('Developer £40-8k, Senior Data Scientist £46-50k.')).toMatchObject({ min: 8000, max: 40000, flags: expect.arrayContaining(['swapped_min_max']) });
  });

  it('is less sure of guessed intervals and of description text', () => {
    const stated = read('Salary Range: $80,000 - $120,000 per year');
    const guessed = read('Pay: $60,000 - $80,000');
    const inDescription = read('Salary Range: $80,000 - $120,000 per year', undefined, 'description');
    expect(stated.confidence).toBeGreaterThan(guessed.confidence);
    expect(stated.confidence).toBeGreaterThan(inDescription.confidence);
    expect(guessed.confidence).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
  });

  it('takes a structured value as given, repairing swapped bounds', () => {
    expect(determineCompensation({ text: '{}', structured: { currency: 'usd', interval: 'year', min: 150000, max: 120000 } })).toMatchObject({
      decided: true, kind: 'base', currency: 'USD', min: 120000, max: 150000, flags: ['swapped_min_max'],
    });
  });
});

// The blocks below (#27) illustrate single rules with short constructed strings, not corpus rows.
describe('determineCompensation: wild text (#27)', () => {
  it('decodes HTML character references before reading', () => {
    expect(read('&pound;8.42 per hour')).toMatchObject({ decided: true, kind: 'hourly', currency: 'GBP', interval: 'hour', min: 8.42, max: 8.42 });
    expect(read('&euro;52.000 &ndash; &euro;60.000 brutto/Jahr')).toMatchObject({ kind: 'base', currency: 'EUR', min: 52000, max: 60000, interval: 'year' });
  });

  it('reads a figure as OTE when the text says the range is OTE, even away from the figure', () => {
    expect(read('The listed range is total OTE with a 70/30 split. $130K – $170K')).toMatchObject({ kind: 'ote', min: 130000, max: 170000 });
    expect(read('Base salary $110K, plus commission to an OTE of $160K')).toMatchObject({ kind: 'base', min: 110000 });
  });

  it('reads fixed and variable parts, equity with a value and a bonus given as a share', () => {
    expect(read('10 LPA fixed + 2 LPA variable', 'IN')).toMatchObject({ kind: 'base', currency: 'INR', interval: 'year', min: 1_000_000, max: 1_000_000 });
    expect(read('RSU grant of $60,000')).toMatchObject({ kind: 'equity', currency: 'USD', interval: 'year', min: 60000 });
    expect(read('Annual bonus up to 20% of base salary')).toMatchObject({ kind: 'bonus', currency: null, min: null, max: null });
  });

  it('does not read an insurance cover as pay', () => {
    expect(read('Health insurance cover of ₹3 lakh for your family', 'IN')).toMatchObject({ kind: 'none' });
  });

  it('reads a monthly figure as pay in a field that holds only the figure, or next to a pay word in any language', () => {
    expect(read('12 000–15 000 PLN')).toMatchObject({ decided: true, kind: 'base', currency: 'PLN', interval: 'month', min: 12000, max: 15000 });
    expect(read('Oferujemy wynagrodzenie 9 000 zł oraz prywatną opiekę medyczną dla całego zespołu', 'PL', 'description')).toMatchObject({
      decided: true, kind: 'base', currency: 'PLN', interval: 'month', min: 9000,
    });
    expect(read('We sponsor a 2 500 € conference trip for every engineer in the team each year')).toMatchObject({ kind: 'none' });
  });
});
