import { compensationView } from './compensation.view';
import { determineCompensation } from './compensation.determination';
import { summarizeCompensation } from './compensation.summary';

const row = (text: string, extra: Record<string, unknown> = {}) => ({ sourceId: 's', externalJobId: 'e', fieldPath: 'salary_text', textSha256: 'h', text, determinationId: 'd', result: determineCompensation({ text }), ...extra });

describe('the API shape of a job\'s compensation', () => {
  it('shows the summary figures and every row with what it said', () => {
    const rows = [row('$120,000 - $150,000 per year'), row('Competitive', { fieldPath: 'description' })];
    const summary = summarizeCompensation(rows.map((r) => ({ row: { text: r.text, field: r.fieldPath }, result: r.result })));
    const view = compensationView({ summary, rows });
    expect(view).toMatchObject({ kind: 'base', currency: 'USD', interval: 'year', min: 120_000, max: 150_000, minYearly: 120_000, method: 'parser', field: 'salary_text' });
    expect(view?.rows.map((r) => [r.fieldPath, r.decided, r.kind])).toEqual([['salary_text', true, 'base'], ['description', true, 'none']]);
  });

  it('says "none" only when every row was read and states no pay; a failed or unread row makes it unknown', () => {
    expect(compensationView({ summary: null, rows: [row('Competitive'), row('DOE')] })?.kind).toBe('none');
    const failed = compensationView({ summary: null, rows: [row('Competitive'), row('Salary: 60k-100k', { determinationId: null, result: null, error: 'spend_ceiling_reached' })] });
    expect(failed).toMatchObject({ kind: null, minYearly: null });
    expect(failed?.rows[1]).toMatchObject({ decided: false, error: 'spend_ceiling_reached' });
    const unread = compensationView({ summary: null, rows: [row('Salary: 60k-100k')] });
    expect(unread?.kind).toBeNull();
    expect(unread?.rows[0]).toMatchObject({ decided: false, reason: 'no_currency' });
  });

  it('is null for a job nothing was published for, or that has no rows', () => {
    expect(compensationView(null)).toBeNull();
    expect(compensationView({ summary: null, rows: [] })).toBeNull();
  });
});
