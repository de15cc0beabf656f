import { parseDetailPage } from './detail-page.parser';

const para = 'We build data tools for hiring teams. You will design APIs in TypeScript and Go, run PostgreSQL at scale, and mentor engineers. '.repeat(3);

describe('parseDetailPage', () => {
  it('prefers JSON-LD JobPosting', () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Staff Engineer","description":"<p>Own the platform.</p>"}</script></head><body><p>${para}</p></body></html>`;
    expect(parseDetailPage(html)).toMatchObject({ method: 'json_ld', title: 'Staff Engineer', descriptionText: 'Own the platform.' });
  });

  it('falls back to readable text, ignoring scripts and styles', () => {
    const r = parseDetailPage(`<html><body><style>p{}</style><script>var x = 1;</script><h1>Engineer</h1><p>${para}</p></body></html>`);
    expect(r.method).toBe('readable_text');
    expect(r.descriptionText).toContain('design APIs in TypeScript');
    expect(r.descriptionText).not.toContain('var x');
  });

  it('reports a script-rendered shell as needing a browser', () => {
    const html = `<html><body><div id="app"></div><script>document.getElementById('app').innerHTML = atob('${Buffer.from(para).toString('base64')}');</script></body></html>`;
    expect(parseDetailPage(html)).toEqual({ method: 'needs_browser', descriptionText: null, title: null, employer: null, compensation: null });
  });

  it("reports the JSON-LD hiring organisation as the employer, whichever way the description was read", () => {
    const ld = (posting: object) => `<script type="application/ld+json">${JSON.stringify({ '@type': 'JobPosting', title: 'Engineer', ...posting })}</script>`;
    const withDescription = `<html><head>${ld({ description: '<p>Own it.</p>', hiringOrganization: { name: 'Globex Partners' } })}</head><body></body></html>`;
    expect(parseDetailPage(withDescription)).toMatchObject({ method: 'json_ld', employer: 'Globex Partners' });
    const nameOnly = `<html><head>${ld({ hiringOrganization: 'Globex Partners' })}</head><body><p>${para}</p></body></html>`;
    expect(parseDetailPage(nameOnly)).toMatchObject({ method: 'readable_text', employer: 'Globex Partners' });
    expect(parseDetailPage(`<html><body><p>${para}</p></body></html>`).employer).toBeNull();
  });

  it("keeps the JSON-LD baseSalary exactly as published for the compensation refresh; a posting without one states none", () => {
    const baseSalary = { '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', minValue: 90000, maxValue: 60000, unitText: 'YEAR' } };
    const paid = `<html><head><script type="application/ld+json">${JSON.stringify({ '@type': 'JobPosting', title: 'Engineer', description: '<p>Own it.</p>', baseSalary })}</script></head><body></body></html>`;
    // Raw, swapped bounds and all: the compensation lib repairs and flags them.
    expect(parseDetailPage(paid).compensation).toEqual([{ fieldPath: 'jsonld.baseSalary', value: baseSalary }]);
    const unpaid = `<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Engineer","description":"<p>Own it.</p>"}</script></head><body></body></html>`;
    expect(parseDetailPage(unpaid).compensation).toEqual([]);
    expect(parseDetailPage(`<html><body><p>${para}</p></body></html>`).compensation).toBeNull();
  });
});
