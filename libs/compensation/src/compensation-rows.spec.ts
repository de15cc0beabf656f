import { compensationRowsOf, countryOfLocation, salarySentences } from './compensation-rows';

const job = (o: Partial<Parameters<typeof compensationRowsOf>[0]> = {}) => ({
  jobKey: 'j1',
  location: null,
  salaryText: null,
  descriptionText: null,
  sources: [{ sourceId: 'src-lever', externalId: 'abc', statements: null }],
  ...o,
});

describe('compensation rows of a job', () => {
  it("takes each source's collected statements with that source's identity, and the description's pay sentences", () => {
    const rows = compensationRowsOf(
      job({
        location: 'Toronto, Canada',
        salaryText: 'CAD 120000 - 150000',
        descriptionText: 'We build tools.\nThe base salary range is $120,000 - $150,000. We raised $20M in 2024.\nBenefits: dental.',
        sources: [
          { sourceId: 'src-lever', externalId: 'abc', statements: [{ fieldPath: 'lever.salaryRange', value: { min: 120000, max: 150000, currency: 'CAD', interval: 'per-year-salary' } }] },
          { sourceId: 'src-mirror', externalId: 'x9', statements: [] },
        ],
      }),
    );
    expect(rows.map((r) => [r.sourceId, r.externalJobId, r.fieldPath])).toEqual([
      ['src-lever', 'abc', 'lever.salaryRange'],
      ['src-lever', 'abc', 'description'],
    ]);
    // The funding sentence states no pay.
    expect(rows[1].text).toBe('The base salary range is $120,000 - $150,000.');
    // Collected statements make the stored salary text redundant; the country reads a bare "$" as CAD.
    expect(rows.every((r) => r.country === 'CA')).toBe(true);
    expect(rows[0].structured).toMatchObject({ currency: 'CAD', min: 120000 });
  });

  it('reads every captured shape into rows with exact field paths; a text statement is a text row', () => {
    const rows = compensationRowsOf(
      job({
        sources: [
          {
            sourceId: 's',
            externalId: 'e',
            statements: [
              { fieldPath: 'ashby.compensation', value: { compensationTierSummary: '$120K – $150K', summaryComponents: [{ compensationType: 'Salary', interval: '1 YEAR', currencyCode: 'USD', minValue: 120000, maxValue: 150000 }] } },
              { fieldPath: 'greenhouse.pay_input_ranges', value: [{ min_cents: 10000000, max_cents: 13000000, currency_type: 'USD', title: 'NY' }] },
              { fieldPath: 'remoteok.salary_min_max', value: { salary_min: 90000, salary_max: 0 } },
              { fieldPath: 'workable.salary', value: { salary_from: 50000, salary_to: 60000, salary_currency: 'EUR' } },
              { fieldPath: 'smartrecruiters.compensation', value: { min: 70000, max: 80000, currency: 'GBP', period: 'YEAR' } },
              { fieldPath: 'jobspy.amounts', value: { min_amount: 30, max_amount: 40, currency: 'USD', interval: 'hourly' } },
              { fieldPath: 'jsonld.baseSalary', value: { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', minValue: 1, maxValue: 2, unitText: 'HOUR' } } },
              { fieldPath: 'remotive.salary', value: '$100k - $120k' },
              { fieldPath: 'lever.salaryRange', value: null },
            ],
          },
        ],
      }),
    );
    expect(rows.map((r) => [r.fieldPath, r.structured?.min ?? null])).toEqual([
      ['ashby.compensation.summaryComponents[0]', 120000],
      ['ashby.compensation.compensationTierSummary', null],
      ['greenhouse.pay_input_ranges[0]', 100000],
      ['remoteok.salary_min_max', 90000],
      ['workable.salary', 50000],
      ['smartrecruiters.compensation', 70000],
      ['jobspy.amounts', 30],
      ['jsonld.baseSalary', 1],
      ['remotive.salary', null],
    ]);
    expect(new Set(rows.map((r) => `${r.sourceId}/${r.externalJobId}`))).toEqual(new Set(['s/e']));
  });

  it("reads the posting page's own statements as the job's first source's", () => {
    const rows = compensationRowsOf(
      job({
        sources: [{ sourceId: 'src-gh', externalId: '42', statements: [] }, { sourceId: 'src-mirror', externalId: '42', statements: null }],
        pageStatements: [{ fieldPath: 'jsonld.baseSalary', value: { '@type': 'MonetaryAmount', currency: 'GBP', value: { minValue: 50000, maxValue: 60000, unitText: 'YEAR' } } }],
      }),
    );
    expect(rows).toEqual([expect.objectContaining({ sourceId: 'src-gh', externalJobId: '42', fieldPath: 'jsonld.baseSalary', structured: expect.objectContaining({ currency: 'GBP', min: 50000, max: 60000 }) })]);
  });

  it('falls back to the stored salary text when no source collected statements', () => {
    const rows = compensationRowsOf(job({ salaryText: ' €60k–€80k ' }));
    expect(rows).toEqual([expect.objectContaining({ sourceId: 'src-lever', externalJobId: 'abc', fieldPath: 'salary_text', text: '€60k–€80k', country: null })]);
  });

  it('a job without any source has no identity to give a row', () => {
    expect(compensationRowsOf(job({ sources: [], salaryText: '$100k' }))).toEqual([]);
  });

  it('keeps the sentences that state pay, once each', () => {
    expect(salarySentences('Salary: 60k-100k depending on level.\nWe have 40 engineers.\nSalary: 60k-100k depending on level.\nPay: £45,000 per annum. Apply now!')).toEqual([
      'Salary: 60k-100k depending on level.',
      'Pay: £45,000 per annum.',
    ]);
  });

  it('reads a country from a location only by its name (a trailing "CA" is California, not Canada)', () => {
    expect(countryOfLocation('Berlin, Germany')).toBe('DE');
    expect(countryOfLocation('Remote - US')).toBe('US');
    expect(countryOfLocation('London, UK')).toBe('GB');
    expect(countryOfLocation('San Francisco, CA')).toBeUndefined();
    expect(countryOfLocation(null)).toBeUndefined();
  });
});
