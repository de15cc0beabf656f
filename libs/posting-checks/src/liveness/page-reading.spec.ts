import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostingResponse } from '../availability.model';
import { readPostingPage, type PageReading } from './page-reading';

const NOW = new Date('2025-06-15T12:00:00Z');
const POSTING = 'https://careers.example.test/jobs/4012345';

function fixture(name: string): string {
  return readFileSync(join(__dirname, 'fixtures', name), 'utf8');
}

function response(body: string, over: Partial<PostingResponse> = {}): PostingResponse {
  return { url: POSTING, finalUrl: POSTING, status: 200, hops: [], contentType: 'text/html; charset=utf-8', body, ...over };
}

function read(body: string, over: Partial<PostingResponse> = {}, postingUrl = POSTING): PageReading {
  return readPostingPage(response(body, over), { postingUrl, now: NOW });
}

describe('readPostingPage: a corpus of real-looking posting pages', () => {
  const cases: Array<[file: string, verdict: PageReading['verdict'], reason: string | null, kind: string]> = [
    // ATS-hosted pages
    ['greenhouse-open.en.html', 'open', null, 'apply_form'],
    ['greenhouse-closed.en.html', 'closed', 'closed_text', 'closed_text'],
    ['lever-open.en.html', 'open', null, 'apply_control'],
    ['ashby-rendered-open.en.html', 'open', null, 'apply_control'],
    ['ashby-rendered-closed.en.html', 'closed', 'closed_text', 'closed_text'],
    ['workable-open.en.html', 'open', null, 'apply_control'],
    ['workable-closed.en.html', 'closed', 'closed_text', 'closed_text'],
    ['smartrecruiters-open.en.html', 'open', null, 'apply_control'],
    ['smartrecruiters-expired.en.html', 'closed', 'closed_text', 'closed_text'],
    // careers sites in each language
    ['careers-open.de.html', 'open', null, 'apply_control'],
    ['careers-closed.de.html', 'closed', 'closed_text', 'closed_text'],
    ['careers-open.fr.html', 'open', null, 'apply_form'],
    ['careers-closed.fr.html', 'closed', 'closed_text', 'closed_text'],
    ['careers-open.es.html', 'open', null, 'apply_control'],
    ['careers-closed.es.html', 'closed', 'closed_text', 'closed_text'],
    ['careers-open.nl.html', 'open', null, 'apply_control'],
    ['careers-closed.nl.html', 'closed', 'closed_text', 'closed_text'],
    ['careers-open.pt.html', 'open', null, 'apply_control'],
    ['careers-closed.pt.html', 'closed', 'closed_text', 'closed_text'],
    ['careers-open.it.html', 'open', null, 'apply_control'],
    ['careers-closed.it.html', 'closed', 'closed_text', 'closed_text'],
    // structured data and controls
    ['expired-no-apply.en.html', 'closed', 'valid_through_past', 'valid_through_past'],
    ['apply-disabled.en.html', 'closed', 'apply_disabled', 'apply_disabled'],
    ['apply-aria-disabled.en.html', 'closed', 'apply_disabled', 'apply_disabled'],
    ['apply-class-disabled.en.html', 'open', null, 'apply_control'],
    ['ld-current-no-button.en.html', 'open', null, 'json_ld_current'],
    ['text-only.en.html', 'unknown', 'no_apply_control', 'no_apply_control'],
    ['newsletter-only.en.html', 'unknown', 'no_apply_control', 'no_apply_control'],
    // traps
    ['trap-footer-closure-with-form.en.html', 'open', null, 'apply_form'],
    ['trap-expired-with-form.en.html', 'open', null, 'apply_form'],
    ['trap-expired-with-link.en.html', 'open', null, 'apply_control'],
    ['trap-hidden-banner.en.html', 'open', null, 'apply_control'],
    ['conflict-closed-text-and-link.en.html', 'unknown', 'conflicting_evidence', 'closed_text'],
    ['captcha-cloudflare.html', 'blocked', 'captcha', 'captcha'],
    ['captcha-text.html', 'blocked', 'captcha', 'captcha'],
  ];

  it.each(cases)('%s → %s (%s)', (file, verdict, reason, kind) => {
    const reading = read(fixture(file));
    expect({ verdict: reading.verdict, reason: reading.reason }).toEqual({ verdict, reason });
    expect(reading.evidence.map((e) => e.kind)).toContain(kind);
    expect(reading.needsJavascript).toBe(false);
    for (const e of reading.evidence) expect(e.url).toBe(POSTING);
  });

  it('quotes closure text with a snippet of at most 160 characters and names the language', () => {
    const closed = read(fixture('careers-closed.de.html')).evidence.find((e) => e.kind === 'closed_text');
    expect(closed?.detail).toMatch(/^".*bereits besetzt.*" \(de\)$/);
    const quoted = /^"(.*)"/.exec(closed?.detail ?? '')?.[1] ?? '';
    expect(quoted.length).toBeLessThanOrEqual(160);
    const long = `<main><p>${'Lorem ipsum dolor sit amet. '.repeat(40)}This position has been filled. ${'More words follow here. '.repeat(40)}</p></main>`;
    const snippet = read(long).evidence.find((e) => e.kind === 'closed_text')?.detail ?? '';
    expect(snippet).toContain('position has been filled');
    expect((/^"(.*)"/.exec(snippet)?.[1] ?? '').length).toBeLessThanOrEqual(160);
  });

  it('keeps the overridden closure signals as evidence when an apply form wins', () => {
    const kinds = read(fixture('trap-expired-with-form.en.html')).evidence.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['apply_form', 'valid_through_past']));
  });

  it('does not mistake an application form that embeds reCAPTCHA for a challenge page', () => {
    expect(read(fixture('greenhouse-open.en.html')).verdict).toBe('open');
  });

  it('reads closure text in the JobPosting description when the page body has none', () => {
    const ld = JSON.stringify({ '@type': 'JobPosting', title: 'Cook', description: '<p>Update: this position has been filled.</p>' });
    const html = `<head><script type="application/ld+json">${ld}</script></head><main><h1>Cook</h1><p>${'Kitchen work in a busy restaurant. '.repeat(10)}</p></main>`;
    expect(read(html)).toMatchObject({ verdict: 'closed', reason: 'closed_text' });
  });

  it('reads a bare validThrough date as the end of that day anywhere, not UTC midnight', () => {
    const page = (date: string) =>
      `<head><script type="application/ld+json">{"@type":"JobPosting","title":"Cook","validThrough":"${date}"}</script></head><main><h1>Cook</h1><p>${'Kitchen work. '.repeat(30)}</p></main>`;
    expect(read(page('2025-06-15')).verdict).toBe('open');
    expect(read(page('2025-06-13')).verdict).toBe('closed');
  });
});

describe('readPostingPage: status codes', () => {
  const body = fixture('lever-open.en.html');
  it.each([
    [404, 'closed', 'http_status'],
    [410, 'closed', 'http_status'],
    [401, 'blocked', 'forbidden'],
    [403, 'blocked', 'forbidden'],
    [429, 'blocked', 'rate_limited'],
    [400, 'unknown', 'http_400'],
    [451, 'unknown', 'http_451'],
    [500, 'unknown', 'server_error'],
    [503, 'unknown', 'server_error'],
    [304, 'unknown', 'http_304'],
  ] as const)('%i → %s (%s)', (status, verdict, reason) => {
    const reading = read(status === 404 || status === 410 ? '<h1>Not found</h1>' : body, { status });
    expect({ verdict: reading.verdict, reason: reading.reason }).toEqual({ verdict, reason });
    expect(reading.evidence.find((e) => e.kind === 'http_status')?.status).toBe(status);
  });

  it('a challenge page served with 403 or 503 is blocked (captcha), never closed or unknown', () => {
    for (const status of [403, 503]) {
      expect(read(fixture('captcha-cloudflare.html'), { status })).toMatchObject({ verdict: 'blocked', reason: 'captcha' });
    }
  });

  it('a body that is not HTML is unknown (not_html)', () => {
    expect(read('%PDF-1.7 …', { contentType: 'application/pdf' })).toMatchObject({ verdict: 'unknown', reason: 'not_html' });
  });
});

describe('readPostingPage: redirects', () => {
  const hop = (url: string) => [{ url, status: 302 }];
  const posting = 'https://boards.greenhouse.io/acme/jobs/4012345';
  const index = '<html><head><title>Acme Jobs</title></head><body><main><h1>Open positions</h1><ul><li><a href="/acme/jobs/1">Designer</a></li></ul></main></body></html>';

  it.each([
    ['https://boards.greenhouse.io/acme?error=true', 'Greenhouse: the board with ?error=true'],
    ['https://boards.greenhouse.io/acme', 'up the posting path to the board'],
    ['https://careers.acme.test/jobs', 'a careers /jobs index'],
    ['https://careers.acme.test/', 'a site root'],
    ['https://careers.acme.test/en/careers', 'a localised careers root'],
    ['https://careers.acme.test/search?q=engineer', 'a search'],
  ])('to %s (%s) → closed (redirect_to_index)', (finalUrl) => {
    const reading = read(index, { url: posting, finalUrl, hops: hop(posting) }, posting);
    expect({ verdict: reading.verdict, reason: reading.reason }).toEqual({ verdict: 'closed', reason: 'redirect_to_index' });
    expect(reading.evidence.map((e) => e.kind)).toEqual(['redirect', 'redirect_to_index']);
  });

  it('to a sign-in page → blocked (login_required)', () => {
    expect(read(index, { url: posting, finalUrl: 'https://acme.test/users/sign_in', hops: hop(posting) }, posting)).toMatchObject({
      verdict: 'blocked', reason: 'login_required',
    });
  });

  it('to the same posting elsewhere (https, new slug, canonical host) → the final page is read', () => {
    const body = fixture('lever-open.en.html');
    for (const finalUrl of ['https://boards.greenhouse.io/acme/jobs/4012345/', 'https://job-boards.greenhouse.io/acme/jobs/4012345?gh_src=x', 'https://acme.test/careers/4012345-senior-engineer']) {
      expect(read(body, { url: posting, finalUrl, hops: hop(posting) }, posting)).toMatchObject({ verdict: 'open' });
    }
    expect(read(fixture('workable-closed.en.html'), { url: posting, finalUrl: `${posting}/`, hops: hop(posting) }, posting)).toMatchObject({
      verdict: 'closed', reason: 'closed_text',
    });
  });

  it('to some other page that offers an application → unknown (redirected_elsewhere), never open for this posting', () => {
    const reading = read(fixture('lever-open.en.html'), { url: posting, finalUrl: 'https://acme.test/jobs/other-role-99', hops: hop(posting) }, posting);
    expect({ verdict: reading.verdict, reason: reading.reason }).toEqual({ verdict: 'unknown', reason: 'redirected_elsewhere' });
  });
});

describe('readPostingPage: client-rendered shells', () => {
  it('a near-empty page with scripts needs JavaScript and says unknown', () => {
    const reading = read(fixture('ashby-shell.en.html'));
    expect(reading).toMatchObject({ verdict: 'unknown', reason: 'needs_javascript', needsJavascript: true });
  });

  it('a shell with a JobPosting in date is still rendered (a JavaScript-only closed banner would be missed)', () => {
    const shell = `<head><title>Data Scientist</title><script type="application/ld+json">{"@type":"JobPosting","title":"Data Scientist","validThrough":"2099-01-01"}</script><script src="/app.js"></script></head><body><div id="app"></div></body>`;
    expect(read(shell)).toMatchObject({ verdict: 'unknown', needsJavascript: true });
  });

  it('the simulator-style shell (base64 payload in an inline script, empty #app) needs JavaScript', () => {
    const html = `<!doctype html><html><head><title>Loading…</title></head><body><div id="app"></div>
<noscript>You need to enable JavaScript to run this app.</noscript><script>(function(){var b="${'QUJD'.repeat(2000)}";document.getElementById("app").innerHTML="<p>"+b+"</p>";})();</script></body></html>`;
    expect(read(html)).toMatchObject({ verdict: 'unknown', needsJavascript: true });
  });

  it('a tiny page without scripts is unknown (no_posting_content), not a shell', () => {
    expect(read('<html><body><p>Hello</p></body></html>')).toMatchObject({ verdict: 'unknown', reason: 'no_posting_content', needsJavascript: false });
  });
});
