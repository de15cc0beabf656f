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

describe('parseSalaryText: Indian units (#27)', () => {
  it('reads LPA as lakh rupees a year, with or without a rupee sign', () => {
    expect(parseSalaryText('₹12-18 LPA')).toMatchObject({ currency: 'INR', min: 1_200_000, max: 1_800_000, period: 'year', periodInferred: false });
    expect(parseSalaryText('CTC 9.5 LPA')).toMatchObject({ currency: 'INR', min: 950_000, max: 950_000, period: 'year' });
  });

  it('reads lakh and crore, and a bare "L" only after rupees', () => {
    expect(parseSalaryText('10-15 lakh per annum')).toMatchObject({ currency: 'INR', min: 1_000_000, max: 1_500_000, period: 'year' });
    expect(parseSalaryText('₹1.2 crore per annum')).toMatchObject({ currency: 'INR', min: 12_000_000, period: 'year' });
    expect(parseSalaryText('₹9L - ₹14L')).toMatchObject({ currency: 'INR', min: 900_000, max: 1_400_000 });
  });

  it('does not read a count in lakhs as rupees', () => {
    expect(parseSalaryText('Trusted by 10 lakh small businesses')).toBeNull();
  });
});

describe('parseSalaryText: European formats and wording (#27)', () => {
  it('reads space and dot grouping with the currency after the figure', () => {
    expect(parseSalaryText('12 000 zł brutto miesięcznie')).toMatchObject({ currency: 'PLN', min: 12000, period: 'month', periodInferred: false });
    expect(parseSalaryText('45.000 € brutto/Jahr')).toMatchObject({ currency: 'EUR', min: 45000, period: 'year' });
    expect(parseSalaryText('3.800,50 € pro Monat')).toMatchObject({ currency: 'EUR', min: 3800.5, period: 'month' });
    expect(parseSalaryText('38-44 K€ brut par an')).toMatchObject({ currency: 'EUR', min: 38000, max: 44000, period: 'year' });
  });

  it('keeps "k" figures monthly in currencies whose postings quote monthly pay', () => {
    expect(parseSalaryText('16-22k PLN')).toMatchObject({ min: 16000, max: 22000, period: 'month', periodInferred: true });
    expect(parseSalaryText('$16-22k')).toMatchObject({ period: 'year' });
  });

  it('reads periods in many languages', () => {
    expect(parseSalaryText('28 € pro Std.')).toMatchObject({ period: 'hour', periodInferred: false });
    expect(parseSalaryText('4 200 € par mois')).toMatchObject({ period: 'month', periodInferred: false });
    expect(parseSalaryText('2.100 € al mes')).toMatchObject({ period: 'month' });
    expect(parseSalaryText('R$ 6.500 por mês')).toMatchObject({ currency: 'BRL', min: 6500, period: 'month' });
    expect(parseSalaryText('€ 3.900 per maand')).toMatchObject({ period: 'month' });
    expect(parseSalaryText('41 000 kr/mån', { kronaCurrency: 'SEK' })).toMatchObject({ currency: 'SEK', min: 41000, period: 'month' });
    expect(parseSalaryText('38 000 SEK i månaden')).toMatchObject({ period: 'month' });
    expect(parseSalaryText('85 zł / godz. brutto')).toMatchObject({ period: 'hour' });
    expect(parseSalaryText('€62/h')).toMatchObject({ period: 'hour' });
    expect(parseSalaryText('$95,000 annually')).toMatchObject({ period: 'year', periodInferred: false });
    expect(parseSalaryText('$95k/yr')).toMatchObject({ period: 'year', periodInferred: false });
  });

  it('reads open bounds in other languages', () => {
    expect(parseSalaryText('ab 58.000 € brutto im Jahr')).toMatchObject({ min: 58000, bound: 'from', period: 'year' });
    expect(parseSalaryText('bis zu 72.000 €')).toMatchObject({ min: 72000, bound: 'up_to' });
    expect(parseSalaryText('A partir de 42 000 € par an')).toMatchObject({ min: 42000, bound: 'from', period: 'year' });
    expect(parseSalaryText("jusqu'à 55 000 € par an")).toMatchObject({ bound: 'up_to' });
    expect(parseSalaryText('hasta 32.000 € al año')).toMatchObject({ bound: 'up_to', period: 'year' });
    expect(parseSalaryText('até R$ 9.000 por mês')).toMatchObject({ bound: 'up_to' });
    expect(parseSalaryText('od 11 000 zł')).toMatchObject({ bound: 'from' });
    expect(parseSalaryText('do 19 000 PLN')).toMatchObject({ bound: 'up_to' });
    expect(parseSalaryText('$140,000 and above')).toMatchObject({ min: 140000, bound: 'from' });
    expect(parseSalaryText('von 52.000 € bis 61.000 €')).toMatchObject({ min: 52000, max: 61000, bound: 'range' });
    expect(parseSalaryText('od 14 000 do 18 000 zł')).toMatchObject({ min: 14000, max: 18000, bound: 'range' });
  });

  it('reads "between X and Y" in other languages, but not a list joined by "and"', () => {
    expect(parseSalaryText('zwischen 17 € und 21 € pro Stunde')).toMatchObject({ min: 17, max: 21, period: 'hour', bound: 'range' });
    expect(parseSalaryText('entre 31 000 € et 36 000 € par an')).toMatchObject({ min: 31000, max: 36000, bound: 'range' });
    expect(parseSalaryText('€400 laptop budget und €30 phone allowance')).toMatchObject({ min: 400, bound: 'exact' });
  });

  it('knows more currency symbols and codes', () => {
    expect(parseSalaryText('₱45,000 per month')).toMatchObject({ currency: 'PHP', period: 'month' });
    expect(parseSalaryText('52 000 Kč měsíčně')).toMatchObject({ currency: 'CZK', min: 52000, period: 'month' });
    expect(parseSalaryText('SAR 14,000 monthly')).toMatchObject({ currency: 'SAR', period: 'month' });
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
