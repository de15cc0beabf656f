import { parseLocaleNumber, parseSalaryText } from './salary.parser';

describe('parseSalaryText', () => {
  it('reads a dollar range with a yearly period', () => {
    expect(parseSalaryText('Pay: $120,000 - $150,000 a year, plus equity')).toEqual({
      currency: 'USD',
      min: 120000,
      max: 150000,
      period: 'year',
      raw: '$120,000 - $150,000 a year',
      bound: 'range',
      periodInferred: false,
    });
  });

  it('reads "k" ranges with a trailing ISO code and en dash', () => {
    expect(parseSalaryText('120k–150k USD')).toMatchObject({ currency: 'USD', min: 120000, max: 150000, period: 'year', periodInferred: true, raw: '120k–150k USD' });
  });

  it('reads European thousands separators and "per annum"', () => {
    expect(parseSalaryText('Gehalt: €60.000–€75.000 per annum')).toMatchObject({ currency: 'EUR', min: 60000, max: 75000, period: 'year', periodInferred: false });
    expect(parseSalaryText('60 000 € - 75 000 € brut')).toMatchObject({ currency: 'EUR', min: 60000, max: 75000 });
    expect(parseSalaryText("CHF 120'000 – 140'000")).toMatchObject({ currency: 'CHF', min: 120000, max: 140000 });
  });

  it('reads a single "k" amount as an exact yearly figure', () => {
    expect(parseSalaryText('£45k')).toEqual({ currency: 'GBP', min: 45000, max: 45000, period: 'year', raw: '£45k', bound: 'exact', periodInferred: true });
  });

  it('reads hourly rates', () => {
    expect(parseSalaryText('$55/hr')).toMatchObject({ currency: 'USD', min: 55, max: 55, period: 'hour', raw: '$55/hr', periodInferred: false });
    expect(parseSalaryText('Hourly rate: $40 - $45')).toMatchObject({ min: 40, max: 45, period: 'hour' });
    expect(parseSalaryText('$25.50 per hour')).toMatchObject({ min: 25.5, period: 'hour' });
  });

  it('reads open-ended amounts and keeps the qualifier in raw', () => {
    expect(parseSalaryText('Salary up to $200k')).toMatchObject({ currency: 'USD', min: 200000, max: 200000, bound: 'up_to', raw: 'up to $200k' });
    expect(parseSalaryText('from 90,000 EUR')).toMatchObject({ currency: 'EUR', min: 90000, max: 90000, bound: 'from', raw: 'from 90,000 EUR' });
    expect(parseSalaryText('$150k+ base')).toMatchObject({ min: 150000, bound: 'from', raw: '$150k+' });
  });

  it('accepts "to", "between … and" and em dashes as range separators', () => {
    expect(parseSalaryText('$90,000 to $110,000 per year')).toMatchObject({ min: 90000, max: 110000, period: 'year' });
    expect(parseSalaryText('between £50k and £60k')).toMatchObject({ currency: 'GBP', min: 50000, max: 60000 });
    expect(parseSalaryText('€4.000—€5.000 monthly')).toMatchObject({ min: 4000, max: 5000, period: 'month' });
  });

  it('does not treat a list joined by "and" as a range', () => {
    expect(parseSalaryText('$5k signing bonus and $10k relocation')).toMatchObject({ min: 5000, max: 5000, bound: 'exact' });
  });

  it('maps prefixed dollar symbols and codes to ISO currencies', () => {
    expect(parseSalaryText('CA$80,000')?.currency).toBe('CAD');
    expect(parseSalaryText('C$80,000')?.currency).toBe('CAD');
    expect(parseSalaryText('A$95k')?.currency).toBe('AUD');
    expect(parseSalaryText('₹12,00,000 per annum')).toMatchObject({ currency: 'INR', min: 1200000, period: 'year' });
    expect(parseSalaryText('JPY 6,000,000')).toMatchObject({ currency: 'JPY', min: 6000000 });
    expect(parseSalaryText('¥2,000/hour')).toMatchObject({ currency: 'JPY', period: 'hour' });
  });

  it('applies a "k" written once to both ends of a range', () => {
    expect(parseSalaryText('$120-150k')).toMatchObject({ min: 120000, max: 150000 });
  });

  it('prefers a range over single figures mentioned first', () => {
    expect(parseSalaryText('$5,000 signing bonus. Base: $130,000 – $160,000.')).toMatchObject({ min: 130000, max: 160000, bound: 'range' });
  });

  it('orders reversed ranges', () => {
    expect(parseSalaryText('$150k - $120k')).toMatchObject({ min: 120000, max: 150000 });
  });

  it('returns null when there is no pay in the text', () => {
    expect(parseSalaryText('')).toBeNull();
    expect(parseSalaryText('5-7 years of experience; team of 12; founded 2015')).toBeNull();
    expect(parseSalaryText('Generous 401k match and 25 days of leave')).toBeNull();
    expect(parseSalaryText('Must be able to lift 50 pounds')).toBeNull();
    expect(parseSalaryText('Competitive salary, 10-15% bonus')).toBeNull();
    expect(parseSalaryText('We raised $2M and $1.5 billion in funding')).toBeNull();
  });

  it('uses a default currency only for text that looks like pay', () => {
    expect(parseSalaryText('Salary: 120,000 - 150,000 per year')).toBeNull();
    expect(parseSalaryText('Salary: 120,000 - 150,000 per year', { defaultCurrency: 'cad' })).toMatchObject({ currency: 'CAD', min: 120000, max: 150000 });
    expect(parseSalaryText('5+ years experience. Salary 95k', { defaultCurrency: 'USD' })).toMatchObject({ min: 95000 });
    expect(parseSalaryText('3-5 years of experience', { defaultCurrency: 'USD' })).toBeNull();
  });

  it('infers the period from magnitude, adjusted for the currency unit', () => {
    expect(parseSalaryText('€3,500')).toMatchObject({ period: 'month', periodInferred: true });
    expect(parseSalaryText('€600')).toMatchObject({ period: 'day', periodInferred: true });
    expect(parseSalaryText('$45')).toMatchObject({ period: 'hour', periodInferred: true });
    expect(parseSalaryText('¥300,000')).toMatchObject({ period: 'month', periodInferred: true });
  });

  it('does not read two currencies as one range', () => {
    expect(parseSalaryText('$100k – €90k')).toMatchObject({ currency: 'USD', min: 100000, max: 100000, bound: 'exact' });
  });
});

describe('parseLocaleNumber', () => {
  it.each([
    ['120,000', 120000],
    ['60.000', 60000],
    ['1.234.567', 1234567],
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['55.50', 55.5],
    ['1,5', 1.5],
    ["120'000", 120000],
    ['60 000', 60000],
    ['12,00,000', 1200000],
    ['42', 42],
  ])('%s → %d', (raw, expected) => {
    expect(parseLocaleNumber(raw)).toBe(expected);
  });
});
