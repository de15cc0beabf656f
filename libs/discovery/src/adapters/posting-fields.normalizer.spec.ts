import { cleanTags, formatSalaryRange, joinLocation, normalizeEmploymentType, normalizeEmploymentTypes, remoteFromText, toIsoDate } from './posting-fields.normalizer';

describe('toIsoDate', () => {
  it('reads ISO strings with offsets, zone-less timestamps as UTC, dates, and epoch numbers', () => {
    expect(toIsoDate('2025-01-16T05:26:27-05:00')).toBe('2025-01-16T10:26:27.000Z');
    expect(toIsoDate('2025-02-10T10:11:12')).toBe('2025-02-10T10:11:12.000Z');
    expect(toIsoDate('2025-02-10')).toBe('2025-02-10T00:00:00.000Z');
    expect(toIsoDate(1738148737468)).toBe('2025-01-29T11:05:37.468Z');
    expect(toIsoDate(1737950874, 's')).toBe('2025-01-27T04:07:54.000Z');
    expect(toIsoDate('1737950874', 's')).toBe('2025-01-27T04:07:54.000Z');
  });

  it('gives null for missing or unparseable input', () => {
    expect(toIsoDate(null)).toBeNull();
    expect(toIsoDate('')).toBeNull();
    expect(toIsoDate('3 days ago')).toBeNull();
    expect(toIsoDate(Number.NaN)).toBeNull();
  });
});

describe('normalizeEmploymentType', () => {
  it('maps the spellings boards use to schema.org values and passes others through', () => {
    const cases: Array<[string, string]> = [
      ['Full-time', 'FULL_TIME'], ['FullTime', 'FULL_TIME'], ['full_time', 'FULL_TIME'], ['fulltime', 'FULL_TIME'], ['Vollzeit', 'FULL_TIME'],
      ['PartTime', 'PART_TIME'], ['Teilzeit', 'PART_TIME'], ['Contract', 'CONTRACTOR'], ['freelance', 'CONTRACTOR'], ['Intern', 'INTERN'],
      ['Internship', 'INTERN'], ['Temporary', 'TEMPORARY'], ['Berufserfahren', 'Berufserfahren'],
    ];
    for (const [raw, expected] of cases) expect([raw, normalizeEmploymentType(raw)]).toEqual([raw, expected]);
    expect(normalizeEmploymentType('  ')).toBeNull();
    expect(normalizeEmploymentTypes(['Berufserfahren', 'Vollzeit'])).toBe('FULL_TIME');
    expect(normalizeEmploymentTypes(['Berufserfahren'])).toBe('Berufserfahren');
    expect(normalizeEmploymentTypes([])).toBeNull();
  });
});

describe('formatSalaryRange and friends', () => {
  it('formats ranges, open ends and nothing', () => {
    expect(formatSalaryRange(120000, 150000, 'usd', 'year')).toBe('USD 120,000 - 150,000 per year');
    expect(formatSalaryRange(45.5, 45.5, 'EUR', 'hour')).toBe('EUR 45.5 per hour');
    expect(formatSalaryRange(90000, 0, 'GBP', null)).toBe('from GBP 90,000');
    expect(formatSalaryRange(null, 70000, null, 'year')).toBe('up to 70,000 per year');
    expect(formatSalaryRange(0, 0, 'USD', 'year')).toBeNull();
  });

  it('reads remote hints, joins locations and cleans tags', () => {
    expect(remoteFromText('Remote - Europe')).toBe(true);
    expect(remoteFromText('Berlin, Germany')).toBeNull();
    expect(joinLocation(['Berlin', ' ', 'berlin', 'DE'])).toBe('Berlin, DE');
    expect(joinLocation([null, undefined])).toBeNull();
    expect(cleanTags([' Go ', 'go', '', null, 'SQL'])).toEqual(['Go', 'SQL']);
  });
});
