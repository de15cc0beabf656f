import { annualize } from './annualize.rules';
import type { SalaryRange } from './salary.types';

const range = (period: SalaryRange['period'], min: number, max = min): SalaryRange => ({ currency: 'USD', min, max, period, raw: 'x' });

describe('annualize', () => {
  it('uses 40 hours × 52 weeks by default', () => {
    expect(annualize(range('hour', 50, 60))).toEqual({ currency: 'USD', min: 104000, max: 124800, period: 'year', raw: 'x' });
  });

  it('converts days, weeks and months', () => {
    expect(annualize(range('day', 500))).toMatchObject({ min: 130000, period: 'year' });
    expect(annualize(range('week', 2000))).toMatchObject({ min: 104000 });
    expect(annualize(range('month', 5000, 6000))).toMatchObject({ min: 60000, max: 72000 });
  });

  it('leaves yearly ranges unchanged apart from rounding', () => {
    expect(annualize(range('year', 90000.4, 120000.6))).toMatchObject({ min: 90000, max: 120001, period: 'year' });
  });

  it('honours custom working patterns', () => {
    expect(annualize(range('hour', 20), { hoursPerWeek: 37.5, weeksPerYear: 46 })).toMatchObject({ min: 34500 });
    expect(annualize(range('day', 400), { daysPerWeek: 4 })).toMatchObject({ min: 83200 });
  });

  it('preserves the other fields of the range', () => {
    const input: SalaryRange = { ...range('hour', 10), bound: 'up_to', periodInferred: true };
    expect(annualize(input)).toMatchObject({ bound: 'up_to', periodInferred: true, raw: 'x', currency: 'USD' });
  });

  it('rejects impossible working patterns', () => {
    expect(() => annualize(range('hour', 10), { hoursPerWeek: 0 })).toThrow(RangeError);
    expect(() => annualize(range('hour', 10), { weeksPerYear: 60 })).toThrow(/weeksPerYear/);
    expect(() => annualize(range('hour', 10), { hoursPerWeek: Number.NaN })).toThrow(/hoursPerWeek/);
  });
});
