import { determineCompensation } from './compensation.determination';
import { ashbyRows, greenhouseRows, jsonLdBaseSalaryRows, leverRows, remoteOkRows, workableRows } from './compensation.structured';
import { summarizeCompensation } from './compensation.summary';
import { compensationRowsOf } from './compensation-rows';
import type { CompensationRowInput } from './compensation.types';

// The shapes below are the ones tools/fixtures/board-simulator.js serves (JSON-LD, Lever, Ashby,
// RemoteOK) and the boards' documented ones it does not serve yet (Greenhouse pay_input_ranges,
// Workable salary).
const decide = (rows: CompensationRowInput[]) => rows.map((row) => ({ row, result: determineCompensation(row) }));

describe('structured shapes', () => {
  it('JSON-LD baseSalary: a MonetaryAmount with a QuantitativeValue, or a plain value', () => {
    const rows = jsonLdBaseSalaryRows({ '@type': 'MonetaryAmount', currency: 'CAD', value: { '@type': 'QuantitativeValue', minValue: 104000, maxValue: 130000, unitText: 'YEAR' } }, 'CA');
    expect(rows).toMatchObject([{ field: 'jsonld.baseSalary', structured: { currency: 'CAD', interval: 'year', min: 104000, max: 130000 } }]);
    expect(determineCompensation(rows[0])).toMatchObject({ kind: 'base', currency: 'CAD', minYearly: 104000, confidence: 0.98 });
    const hourly = jsonLdBaseSalaryRows({ currency: 'USD', value: { value: 55, unitText: 'HOUR' } });
    expect(determineCompensation(hourly[0])).toMatchObject({ kind: 'hourly', min: 55, max: 55, minYearly: 114400 });
    expect(jsonLdBaseSalaryRows(null)).toEqual([]);
  });

  it('RemoteOK salary_min/salary_max are yearly USD, 0 meaning none', () => {
    expect(determineCompensation(remoteOkRows({ salary_min: 120000, salary_max: 150000 })[0])).toMatchObject({ currency: 'USD', interval: 'year', min: 120000, max: 150000 });
    expect(remoteOkRows({ salary_min: 0, salary_max: 0 })).toEqual([]);
  });

  it('Ashby: one row per summary component, and the tier summary as text', () => {
    const rows = ashbyRows({
      compensationTierSummary: '$120K – $150K • Offers Equity',
      summaryComponents: [
        { compensationType: 'Salary', interval: '1 YEAR', currencyCode: 'USD', minValue: 120000, maxValue: 150000 },
        { compensationType: 'EquityPercentage', interval: 'NONE', currencyCode: null, minValue: 0.1, maxValue: 0.25 },
        { compensationType: 'Commission', interval: '1 YEAR', currencyCode: 'USD', minValue: 40000, maxValue: 60000 },
      ],
    });
    expect(rows.map((r) => r.field)).toEqual([
      'ashby.compensation.summaryComponents[0]', 'ashby.compensation.summaryComponents[1]', 'ashby.compensation.summaryComponents[2]', 'ashby.compensation.compensationTierSummary',
    ]);
    expect(decide(rows).map(({ result }) => result.decided && result.kind)).toEqual(['base', 'equity', 'ote', 'base']);
    expect(ashbyRows({ compensationTierSummary: null, summaryComponents: [] })).toEqual([]);
  });

  it('Lever salaryRange with its interval, and salaryDescription as text', () => {
    const rows = leverRows({ salaryRange: { currency: 'EUR', interval: 'per-hour-wage', min: 70, max: 85 }, salaryDescriptionPlain: 'The salary range for this role is €70 - €85 per hour.' });
    expect(decide(rows).map(({ result }) => result)).toMatchObject([
      { kind: 'hourly', currency: 'EUR', interval: 'hour', min: 70, max: 85 },
      { kind: 'hourly', currency: 'EUR', interval: 'hour', min: 70, max: 85 },
    ]);
  });

  it('Greenhouse pay_input_ranges in cents', () => {
    const rows = greenhouseRows([{ min_cents: 13000000, max_cents: 17000000, currency_type: 'USD', title: 'US Zone 1' }]);
    expect(determineCompensation(rows[0])).toMatchObject({ kind: 'base', currency: 'USD', interval: 'year', min: 130000, max: 170000, flags: ['interval_inferred'] });
  });

  it("Greenhouse pay_input_ranges carry their interval: the range's own title, else the posting's text; cents converted once (#27)", () => {
    // CodePath's real ranges: "Pay range" says no interval; the posting text does ("$75-$100 per hour").
    const hourly = { min_cents: 7500, max_cents: 10000, currency_type: 'USD', title: 'Pay range', blurb: '' };
    const text = 'Reports To: Program Manager\nCompensation: $75-$100 per hour (Candidate hourly rate is dependent on experience)\nPay range $75 — $100 USD';
    expect(greenhouseRows([hourly], null, text)).toMatchObject([{ structured: { currency: 'USD', interval: 'hour', min: 75, max: 100 } }]);
    expect(determineCompensation(greenhouseRows([hourly], null, text)[0])).toMatchObject({ kind: 'hourly', interval: 'hour', min: 75, max: 100, minYearly: 156000 });
    const yearly = { min_cents: 25000000, max_cents: 35000000, currency_type: 'USD', title: 'Pay range' };
    expect(determineCompensation(greenhouseRows([yearly], null, 'Compensation: $250,000 to $350,000 per year')[0])).toMatchObject({ kind: 'base', interval: 'year', min: 250000, max: 350000, flags: [] });
    // The range's own title wins over the text; a text that states other figures says nothing about this range.
    expect(greenhouseRows([{ ...hourly, title: 'Hourly rate' }], null, 'Salary: $150,000 per year')[0].structured).toMatchObject({ interval: 'hour' });
    expect(greenhouseRows([hourly], null, 'We pay $20 per hour to interns')[0].structured).toMatchObject({ interval: null });
  });

  it('statements read with the posting text: a Greenhouse hourly range is an hourly wage, not $75 a year', () => {
    const rows = compensationRowsOf({
      jobKey: 'j',
      location: 'Remote, United States',
      salaryText: null,
      descriptionText: 'Compensation: $50-$70 per hour\nOur hourly band is $50-70 an hour',
      sources: [{ sourceId: 's', externalId: '1', statements: [{ fieldPath: 'greenhouse.pay_input_ranges', value: [{ min_cents: 5000, max_cents: 7000, currency_type: 'USD', title: 'Pay range' }] }] }],
    });
    expect(summarizeCompensation(decide(rows))).toMatchObject({ field: 'greenhouse.pay_input_ranges[0]', kind: 'hourly', interval: 'hour', min: 50, max: 70 });
  });

  it('Workable salary as data or as text', () => {
    expect(determineCompensation(workableRows({ salary_from: 50000, salary_to: 60000, salary_currency: 'GBP' })[0])).toMatchObject({ currency: 'GBP', min: 50000, max: 60000 });
    expect(determineCompensation(workableRows('£50k - £60k')[0])).toMatchObject({ currency: 'GBP', min: 50000, max: 60000, interval: 'year' });
    expect(workableRows(undefined)).toEqual([]);
  });
});

describe('summarizeCompensation', () => {
  it("prefers the board's API field to the posting page's JSON-LD, even when the page states its interval", () => {
    const summary = summarizeCompensation(decide([
      ...jsonLdBaseSalaryRows({ '@type': 'MonetaryAmount', currency: 'USD', value: { minValue: 100000, maxValue: 120000, unitText: 'YEAR' } }),
      ...greenhouseRows([{ min_cents: 10000000, max_cents: 12000000, currency_type: 'USD' }]),
    ]));
    expect(summary).toMatchObject({ field: 'greenhouse.pay_input_ranges[0]', min: 100000, max: 120000 });
  });

  it('chooses base over OTE, whatever the order', () => {
    const summary = summarizeCompensation(decide([
      { text: '$120K-$150K OTE (On-Target Earnings)', field: 'description' },
      { text: 'Base salary: $55,000 - $65,000 with uncapped commission potential.', field: 'description' },
    ]));
    expect(summary).toMatchObject({ kind: 'base', min: 55000, rowIndex: 1 });
  });

  it('chooses the structured field over description text', () => {
    const summary = summarizeCompensation(decide([
      { text: 'The salary range for this role is $100,000 - $120,000 per year.', field: 'description' },
      ...leverRows({ salaryRange: { currency: 'USD', interval: 'per-year-salary', min: 110000, max: 130000 } }),
    ]));
    expect(summary).toMatchObject({ field: 'lever.salaryRange', min: 110000, max: 130000 });
  });

  it('never summarises undecided or none rows', () => {
    expect(summarizeCompensation(decide([{ text: 'Competitive salary, DOE' }, { text: 'Salary: 60k-100k + equity' }]))).toBeNull();
    expect(summarizeCompensation([])).toBeNull();
  });

  it('reads a signing bonus as a bonus, ranked below base pay', () => {
    const rows = decide([{ text: '$5,000 signing bonus' }, { text: '£26,824 - £28,142' }]);
    expect(rows[0].result).toMatchObject({ kind: 'bonus', min: 5000 });
    expect(summarizeCompensation(rows)).toMatchObject({ kind: 'base', rowIndex: 1 });
  });
});
