import { extractJobPostingFromJsonLd } from './json-ld.extractor';

const page = (...scripts: string[]) => `<!doctype html><html><head>${scripts.join('\n')}</head><body>x</body></html>`;
const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

const fullPosting = {
  '@context': 'https://schema.org',
  '@type': 'JobPosting',
  title: 'Senior Backend Engineer',
  description: '<p>Build <b>APIs</b> &amp; pipelines.</p><p>Requirements:</p><ul><li>TypeScript</li><li>PostgreSQL</li></ul>',
  datePosted: '2024-05-01',
  validThrough: '2024-07-01T00:00:00Z',
  employmentType: ['FULL_TIME', 'Contractor'],
  hiringOrganization: { '@type': 'Organization', name: 'Acme Corp', sameAs: 'https://acme.example' },
  jobLocation: [
    { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressRegion: 'BE', addressCountry: 'DE' } },
    { '@type': 'Place', address: { addressLocality: 'Munich', addressCountry: { '@type': 'Country', name: 'Germany' } } },
  ],
  jobLocationType: 'TELECOMMUTE',
  applicantLocationRequirements: { '@type': 'Country', name: 'Germany' },
  baseSalary: {
    '@type': 'MonetaryAmount',
    currency: 'EUR',
    value: { '@type': 'QuantitativeValue', minValue: 70000, maxValue: 90000, unitText: 'YEAR' },
  },
  directApply: true,
  identifier: { '@type': 'PropertyValue', name: 'Acme', value: 'REQ-123' },
};

describe('extractJobPostingFromJsonLd', () => {
  it('maps every supported field of a complete posting', () => {
    expect(extractJobPostingFromJsonLd(page(ld(fullPosting)))).toEqual({
      title: 'Senior Backend Engineer',
      description: 'Build APIs & pipelines.\n\nRequirements:\n\n- TypeScript\n- PostgreSQL',
      datePosted: '2024-05-01',
      validThrough: '2024-07-01T00:00:00Z',
      employmentType: ['FULL_TIME', 'CONTRACTOR'],
      hiringOrganization: 'Acme Corp',
      locations: ['Berlin, BE, DE', 'Munich, Germany'],
      jobLocationType: ['TELECOMMUTE'],
      remote: true,
      applicantLocations: ['Germany'],
      baseSalary: { currency: 'EUR', min: 70000, max: 90000, unitText: 'YEAR' },
      baseSalaryRaw: fullPosting.baseSalary,
      directApply: true,
      identifier: 'REQ-123',
    });
  });

  it('returns a minimal posting with defaults and without absent fields', () => {
    const result = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'Designer' })));
    expect(result).toEqual({
      title: 'Designer',
      employmentType: [],
      locations: [],
      jobLocationType: [],
      remote: false,
      applicantLocations: [],
    });
  });

  it('recognises script tags regardless of attribute order, quoting and case', () => {
    const data = JSON.stringify({ '@type': 'JobPosting', title: 'A' });
    for (const tag of [
      `<SCRIPT TYPE="APPLICATION/LD+JSON">${data}</SCRIPT>`,
      `<script id='x' type='application/ld+json' nonce="abc">${data}</script>`,
      `<script data-x="1>2" type=application/ld+json>${data}</script >`,
      `<script type="application/ld+json; charset=utf-8">${data}</script>`,
    ]) {
      expect(extractJobPostingFromJsonLd(page(tag))?.title).toBe('A');
    }
  });

  it('ignores scripts of other types', () => {
    const data = JSON.stringify({ '@type': 'JobPosting', title: 'A' });
    expect(extractJobPostingFromJsonLd(page(`<script type="application/json">${data}</script>`, `<script>${data}</script>`))).toBeNull();
  });

  it('skips a malformed block and still reads the next one', () => {
    const html = page('<script type="application/ld+json">{ "@type": "JobPosting", "title": </script>', ld({ '@type': 'JobPosting', title: 'Second' }));
    expect(extractJobPostingFromJsonLd(html)?.title).toBe('Second');
  });

  it('tolerates raw newlines inside strings and comment/CDATA wrappers', () => {
    const raw = '{"@type":"JobPosting","title":"Data\nEngineer","description":"Line one\nstill line one"}';
    expect(extractJobPostingFromJsonLd(page(`<script type="application/ld+json">${raw}</script>`))).toMatchObject({
      title: 'Data Engineer',
      description: 'Line one still line one',
    });
    const wrapped = `<script type="application/ld+json">//<![CDATA[\n${JSON.stringify({ '@type': 'JobPosting', title: 'C' })}\n//]]></script>`;
    expect(extractJobPostingFromJsonLd(page(wrapped))?.title).toBe('C');
  });

  it('finds postings inside arrays, @graph and mainEntity', () => {
    expect(extractJobPostingFromJsonLd(page(ld([{ '@type': 'Organization', name: 'X' }, { '@type': 'JobPosting', title: 'In array' }])))?.title).toBe('In array');
    expect(
      extractJobPostingFromJsonLd(page(ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite' }, { '@type': 'JobPosting', title: 'In graph' }] })))?.title,
    ).toBe('In graph');
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'WebPage', mainEntity: { '@type': 'JobPosting', title: 'Main' } })))?.title).toBe('Main');
  });

  it('accepts @type as an array or IRI', () => {
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': ['Thing', 'JobPosting'], title: 'Arr' }))) ?.title).toBe('Arr');
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'http://schema.org/JobPosting', title: 'Iri' })))?.title).toBe('Iri');
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'NotAJobPostingType', title: 'No' })))).toBeNull();
  });

  it('returns the first posting with a title in document order', () => {
    const html = page(ld({ '@type': 'JobPosting', title: '   ' }), ld({ '@type': 'JobPosting', title: 'First real' }), ld({ '@type': 'JobPosting', title: 'Later' }));
    expect(extractJobPostingFromJsonLd(html)?.title).toBe('First real');
  });

  it('returns null when the page has no JSON-LD posting', () => {
    expect(extractJobPostingFromJsonLd('<html><body><h1>Jobs</h1></body></html>')).toBeNull();
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'Organization', name: 'Acme' })))).toBeNull();
  });

  it("reads the hiring organisation's name as a string, an Organization, its legalName, or the first usable of several", () => {
    const org = (hiringOrganization: unknown) => extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'Engineer', hiringOrganization })))?.hiringOrganization;
    expect(org('Globex Partners')).toBe('Globex Partners');
    expect(org({ '@type': 'Organization', name: '  Globex   Partners ' })).toBe('Globex Partners');
    expect(org({ '@type': 'Organization', legalName: 'Globex Partners GmbH' })).toBe('Globex Partners GmbH');
    expect(org([{ '@type': 'Organization', sameAs: 'https://globex.test' }, { name: 'Globex Partners' }])).toBe('Globex Partners');
    expect(org({ '@type': 'Organization', name: '' })).toBeUndefined();
    expect(org(42)).toBeUndefined();
  });

  it('follows an @id reference to the Organization node of the same @graph', () => {
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebPage', '@id': 'https://initech.test/jobs/1', publisher: { '@id': 'https://initech.test/#org' } },
        { '@type': 'JobPosting', title: 'Engineer', hiringOrganization: { '@id': 'https://initech.test/#org' } },
        { '@type': 'Organization', '@id': 'https://initech.test/#org', name: 'Initech Systems', url: 'https://initech.test' },
      ],
    };
    expect(extractJobPostingFromJsonLd(page(ld(graph)))?.hiringOrganization).toBe('Initech Systems');
    // A reference to nothing named (or to another block) gives no organisation rather than a guess.
    const dangling = { '@type': 'JobPosting', title: 'Engineer', hiringOrganization: { '@id': 'https://initech.test/#org' } };
    expect(extractJobPostingFromJsonLd(page(ld(dangling), ld({ '@type': 'Organization', '@id': 'https://initech.test/#org', name: 'Elsewhere' })))?.hiringOrganization).toBeUndefined();
  });

  it('unescapes a double-encoded description once', () => {
    const result = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', description: '&lt;p&gt;One&lt;/p&gt;&lt;p&gt;Two &amp;amp; three&lt;/p&gt;' })));
    expect(result?.description).toBe('One\n\nTwo & three');
  });

  it('decodes entities in titles and organisation names', () => {
    const result = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'R&amp;D Lead', hiringOrganization: 'Smith &amp; Co' })));
    expect(result).toMatchObject({ title: 'R&D Lead', hiringOrganization: 'Smith & Co' });
  });

  it('handles single-value salaries, numeric strings and bare numbers', () => {
    const single = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', baseSalary: { currency: 'usd', value: { value: '55.5', unitText: 'hour' } } })));
    expect(single?.baseSalary).toEqual({ currency: 'USD', min: 55.5, max: 55.5, unitText: 'HOUR' });
    const bare = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', baseSalary: { currency: 'GBP', value: 45000 } })));
    expect(bare?.baseSalary).toEqual({ currency: 'GBP', min: 45000, max: 45000 });
    const openEnded = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', baseSalary: { value: { minValue: '120,000' } } })));
    expect(openEnded?.baseSalary).toEqual({ min: 120000 });
  });

  it('omits a salary without any usable amount', () => {
    const result = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', baseSalary: { currency: 'USD', value: { unitText: 'YEAR' } } })));
    expect(result).not.toHaveProperty('baseSalary');
  });

  it('splits comma-separated employment types and location types, and detects remote', () => {
    const result = extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', employmentType: 'Full-time, part time', jobLocationType: ['telecommute'] })));
    expect(result).toMatchObject({ employmentType: ['FULL_TIME', 'PART_TIME'], remote: true });
  });

  it('reads string addresses, place names and deduplicates locations', () => {
    const result = extractJobPostingFromJsonLd(
      page(
        ld({
          '@type': 'JobPosting',
          title: 'T',
          jobLocation: [
            { address: 'London, UK' },
            { name: 'HQ Campus' },
            { address: { addressLocality: 'Berlin', addressRegion: 'Berlin', addressCountry: 'DE' } },
            { address: { addressLocality: 'berlin', addressCountry: 'DE' } },
          ],
        }),
      ),
    );
    expect(result?.locations).toEqual(['London, UK', 'HQ Campus', 'Berlin, DE']);
  });

  it('parses directApply given as a string and identifiers given as values', () => {
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', directApply: 'false', identifier: 98765 })))).toMatchObject({
      directApply: false,
      identifier: '98765',
    });
    expect(extractJobPostingFromJsonLd(page(ld({ '@type': 'JobPosting', title: 'T', directApply: 'maybe' })))).not.toHaveProperty('directApply');
  });
});
