import type { PostingResponse } from '../availability.model';
import { MAX_RESPONSE_BYTES } from '../posting-check.limits';
import { readPostingPage } from './page-reading';
import { scanPage } from './page-scan';

const NOW = new Date('2025-06-15T12:00:00Z');
const URL_ = 'https://careers.example.test/jobs/1';

/** A page of `unit` repeated to the response cap: what a hostile or broken server may send. */
function megabyte(unit: string, head = '', tail = ''): string {
  return head + unit.repeat(Math.floor((MAX_RESPONSE_BYTES - head.length - tail.length) / unit.length)) + tail;
}

function read(body: string) {
  const response: PostingResponse = { url: URL_, finalUrl: URL_, status: 200, hops: [], contentType: 'text/html', body };
  return readPostingPage(response, { postingUrl: URL_, now: NOW });
}

describe('scanPage on hostile input', () => {
  // Each page is read in one linear pass; the deadline is the test timeout, generous on purpose
  // (a quadratic pattern on these inputs takes minutes, not seconds). The JSON-LD shapes are in
  // @jobctrl/shared/html's job-posting-ld.reader.spec.ts, beside the reader.
  const DEADLINE_MS = 15_000;
  const adversarial: Array<[string, string]> = [
    ['unclosed <script> tags', megabyte('<script>')],
    ['unclosed <style> and <title> tags', megabyte('<style><title>')],
    ['"</" near-misses inside a script', megabyte('</scrip</scrip', '<script>')],
    ['unterminated quoted attributes', megabyte('<a href="x', '', '')],
    ['attributes without end', megabyte(' a=b', '<div')],
    ['unclosed comments', megabyte('<!--<!-')],
    ['deep nesting', megabyte('<div class="related-jobs"><section>')],
    ['end tags with nothing open', megabyte('</div></nav></main>')],
    ['alternating open/close of a deep stack', megabyte('<main><div><p><span><b><i><u></main>')],
    ['lone "<" characters', megabyte('< <<a')],
    ['entity soup', megabyte('&#x1F600;&amp;&bogus;&#99999999;')],
    ['near-miss closure phrases', megabyte('no longer accepting applicatio ', '<main><p>')],
    ['thousands of apply links', megabyte('<a href="/jobs/1/apply">Apply now</a>', '<main>')],
    ['thousands of forms', megabyte('<form><input type=file name=cv><button>Apply</button>', '<main>')],
    ['NUL and control characters', megabyte('\u0000\u0001<\u0000div\u0007>')],
  ];

  it.each(adversarial)('reads 1 MB of %s within the deadline', (_name, html) => {
    expect(html.length).toBeGreaterThan(MAX_RESPONSE_BYTES * 0.99);
    const reading = read(html);
    expect(['open', 'closed', 'unknown', 'blocked']).toContain(reading.verdict);
    for (const e of reading.evidence) expect(e.detail.length).toBeLessThanOrEqual(400);
  }, DEADLINE_MS);

  it('caps what it collects from a huge page', () => {
    const page = scanPage(megabyte('<a href="/jobs/1/apply">Apply now</a><p>text</p>', '<main>'));
    expect(page.controls.length).toBeLessThanOrEqual(400);
    expect(page.mainText.length).toBeLessThanOrEqual(320_000);
  });
});

describe('scanPage structure', () => {
  it('keeps chrome, hidden elements and related-jobs widgets out of the main text', () => {
    const page = scanPage(`<header><a href="/">Careers</a> site banner</header><nav>menu</nav>
<main><article><header><h1>Title</h1></header><p>Body text</p><footer>posted 3 days ago</footer>
<div class="related-jobs">Other job: filled</div><div hidden>hidden note</div><div aria-hidden="true">aria hidden</div>
<div style="display:none">css hidden</div><div id="cookie-banner">We use cookies</div></article></main>
<aside>aside text</aside><footer>site footer</footer>`);
    expect(page.mainText).toBe('Title Body text posted 3 days ago');
    expect(page.headings).toEqual(['Title']);
    expect(page.chromeText).toContain('site banner');
    expect(page.chromeText).toContain('Other job: filled');
  });

  it('reads attributes with ">" inside quotes, entities, and case-insensitive end tags', () => {
    const page = scanPage(`<main><a title="a > b" href="/jobs/1/apply?x=1&amp;y=2">Apply &amp; go</a><SCRIPT>var s = "</scriptx>";</SCRIPT ><p>After</p></main>`);
    expect(page.controls).toEqual([expect.objectContaining({ tag: 'a', href: '/jobs/1/apply?x=1&y=2', label: 'a > b apply & go' })]);
    expect(page.mainText).toBe('Apply & go After');
    expect(page.scripts).toBe(1);
  });

  it('associates fields and submit controls with their form; a nested form tag is ignored and its end tag closes the form, as in a browser', () => {
    const page = scanPage(`<main><form action="/apply"><input name="email" type="email"><button>Send</button><input type="submit" value="Apply">
<form action="/inner"><input type="file" name="resume"></form><button>Outside</button></main>`);
    expect(page.forms).toHaveLength(1);
    expect(page.forms[0].fields.map((f) => f.type)).toEqual(['email', 'submit', 'file']);
    expect(page.controls.map((c) => [c.label, c.form, c.submit])).toEqual([
      ['send', 0, true],
      ['apply', 0, true],
      ['outside', -1, false],
    ]);
  });
});
