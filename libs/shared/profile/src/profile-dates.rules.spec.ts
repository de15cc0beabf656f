import { experienceByRecency, experienceSpanMonths, isOngoing, profileMonth } from './profile-dates.rules';
import type { ProfileExperience } from './profile.model';
import { sampleProfile } from './testing/profile.fixture';

const entry = (start: string, end?: string | null): ProfileExperience => ({ employer: 'E', title: 'T', start, end, bullets: [] });

describe('profile dates', () => {
  it('reads YYYY-MM and YYYY generously by edge', () => {
    expect(profileMonth('2020-03', 'start')).toBe(2020 * 12 + 2);
    expect(profileMonth('2020', 'start')).toBe(2020 * 12);
    expect(profileMonth('2020', 'end')).toBe(2020 * 12 + 11);
    expect(profileMonth('2020-13', 'start')).toBeUndefined();
    expect(profileMonth('spring', 'start')).toBeUndefined();
    expect(profileMonth(null, 'end')).toBeUndefined();
  });

  it('treats null, empty and "Present" ends as ongoing', () => {
    expect([null, undefined, '', 'Present', 'current'].every(isOngoing)).toBe(true);
    expect(isOngoing('2021-02')).toBe(false);
  });

  it('orders experience most recent first, stably', () => {
    expect(experienceByRecency(sampleProfile().experience)).toEqual([1, 0, 2]);
    expect(experienceByRecency([entry('2018', '2019'), entry('2017', '2019'), entry('2019', '2019'), entry('x', 'y')])).toEqual([2, 0, 1, 3]);
  });

  it('measures the career span and needs asOf for ongoing roles', () => {
    const finished = [entry('2015-01', '2017-05'), entry('2017-06', '2021-02')];
    expect(experienceSpanMonths(finished)).toBe(2021 * 12 + 1 - (2015 * 12) + 1);
    expect(experienceSpanMonths(sampleProfile().experience)).toBeUndefined();
    expect(experienceSpanMonths(sampleProfile().experience, '2025-01')).toBe(121);
    expect(experienceSpanMonths([])).toBeUndefined();
  });
});
