import { EMPTY_FILTERS, filtersFromSearch, filtersToQuery, filtersToSearch, withFilter, type JobFilters } from './job-filters';

const f = (over: Partial<JobFilters>): JobFilters => ({ ...EMPTY_FILTERS, ...over });

describe('Jobs filters → GET /v1/jobs query', () => {
  it('no filter: the first page, newest first', () => {
    expect(filtersToQuery(EMPTY_FILTERS)).toEqual({ query: { limit: 25, offset: 0, sort: 'newest' }, errors: {} });
  });

  it('every filter set', () => {
    const { query, errors } = filtersToQuery(
      f({ stage: 'prepared', minScore: '70', company: ' Acme ', q: 'rust', minSalary: '120,000', currency: 'eur', includeUnknownSalary: true, availability: 'open', sort: 'salary', page: 2 }),
    );
    expect(errors).toEqual({});
    expect(query).toEqual({
      limit: 25,
      offset: 50,
      sort: 'salary',
      stage: 'prepared',
      availability: 'open',
      company: 'Acme',
      q: 'rust',
      minScore: 70,
      minSalary: 120000,
      currency: 'EUR',
      includeUnknownSalary: true,
    });
  });

  it('salary options go only with a minimum salary', () => {
    expect(filtersToQuery(f({ currency: 'EUR', includeUnknownSalary: true })).query).toEqual({ limit: 25, offset: 0, sort: 'newest' });
  });

  it('a malformed value is left out and named beside its field', () => {
    const { query, errors } = filtersToQuery(f({ minScore: '101', minSalary: 'lots', currency: 'EURO' }));
    expect(query).toEqual({ limit: 25, offset: 0, sort: 'newest' });
    expect(errors).toEqual({ minScore: 'a whole number from 0 to 100', minSalary: 'a yearly amount, e.g. 120000', currency: 'a 3-letter code, e.g. USD' });
    expect(filtersToQuery(f({ minScore: '7.5' })).errors.minScore).toBeDefined();
  });
});

describe('Jobs filters ↔ the address bar', () => {
  it('round-trips, defaults left out, page 1-based in the URL', () => {
    const filters = f({ stage: 'scored', minScore: '50', q: 'go', includeUnknownSalary: true, sort: 'score', page: 3 });
    const search = filtersToSearch(filters);
    expect(search.toString()).toBe('stage=scored&minScore=50&q=go&includeUnknownSalary=true&sort=score&page=4');
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(filtersToSearch(EMPTY_FILTERS).toString()).toBe('');
  });

  it('unknown values from a hand-edited URL are dropped', () => {
    expect(filtersFromSearch(new URLSearchParams('stage=bogus&sort=oldest&availability=maybe&page=-2'))).toEqual(EMPTY_FILTERS);
  });

  it('changing a filter goes back to the first page; paging keeps the filters', () => {
    const on3 = f({ q: 'x', page: 2 });
    expect(withFilter(on3, 'stage', 'prepared')).toEqual(f({ q: 'x', stage: 'prepared', page: 0 }));
    expect(withFilter(on3, 'page', 3)).toEqual(f({ q: 'x', page: 3 }));
  });
});
