import { decodeHtmlEntities, htmlToReadableText, scriptElements } from './html-text.converter';

describe('htmlToReadableText', () => {
  it('separates paragraphs with a blank line and ignores source newlines', () => {
    const html = '<p>We build\n   pipelines.</p>\n<p>You   ship\tcode.</p>';
    expect(htmlToReadableText(html)).toBe('We build pipelines.\n\nYou ship code.');
  });

  it('separates paragraphs by a blank line and list items by a line break', () => {
    expect(
      htmlToReadableText('<p><strong>About</strong></p><p>We build R&amp;D tools.</p><ul><li>Go</li><li>SQL</li></ul><p>End</p>'),
    ).toBe('About\n\nWe build R&D tools.\n\n- Go\n- SQL\n\nEnd');
  });

  it('keeps single line breaks for <br> and a blank line for <br><br>', () => {
    expect(htmlToReadableText('Line one<br>Line two<br/><br />Next paragraph')).toBe(
      'Line one\nLine two\n\nNext paragraph',
    );
  });

  it('collapses source whitespace, honours <br>, and skips scripts and styles', () => {
    expect(htmlToReadableText('<div>\n  Hello\n   world<br>next line</div><script>var x = 1;</script><style>p{}</style>')).toBe(
      'Hello world\nnext line',
    );
  });

  it('renders list items as bullets on consecutive lines', () => {
    const html = '<p>Requirements:</p><ul><li>TypeScript</li><li><strong>SQL</strong></li></ul><p>Apply now</p>';
    expect(htmlToReadableText(html)).toBe('Requirements:\n\n- TypeScript\n- SQL\n\nApply now');
  });

  it('joins a bullet with a paragraph inside it, and separates table cells', () => {
    expect(htmlToReadableText('<ul><li><p>Own it</p></li></ul><table><tr><td>a</td><td>b</td></tr></table>')).toBe(
      '- Own it\n\na | b',
    );
  });

  it('puts each table row on its own line with header cells separated too', () => {
    const html = '<table><tr><th>Level</th><th>Salary</th></tr><tr><td>Senior</td><td>100k</td></tr></table>';
    expect(htmlToReadableText(html)).toBe('Level | Salary\nSenior | 100k');
  });

  it('treats headings and divs as block boundaries', () => {
    expect(htmlToReadableText('<h2>About</h2><div>Row A</div><div>Row B</div>')).toBe('About\n\nRow A\nRow B');
  });

  it('drops scripts, styles and comments entirely', () => {
    const html = '<style>p{color:red}</style><p>Visible</p><script>var x = "<p>hidden</p>";</script><!-- note -->';
    expect(htmlToReadableText(html)).toBe('Visible');
  });

  it('decodes entities after stripping tags, so escaped markup stays visible text', () => {
    expect(htmlToReadableText('<p>R&amp;D &lt;b&gt;team&lt;/b&gt; &ndash; caf&eacute; &#8364;5&nbsp;k &#x2713;</p>')).toBe(
      'R&D <b>team</b> – café €5 k ✓',
    );
  });

  it('keeps prose that merely contains angle brackets', () => {
    expect(htmlToReadableText('latency < 50ms and throughput > 1k')).toBe('latency < 50ms and throughput > 1k');
  });

  it('handles attributes containing ">" inside quotes', () => {
    expect(htmlToReadableText('<p title="a > b">Text</p>')).toBe('Text');
  });

  it('reads plain text and entity-only input', () => {
    expect(htmlToReadableText('just text &amp; more')).toBe('just text & more');
  });

  it('returns an empty string for empty or tag-only input', () => {
    expect(htmlToReadableText('')).toBe('');
    expect(htmlToReadableText('<div><br></div>')).toBe('');
  });
});

describe('decodeHtmlEntities', () => {
  it('decodes exactly once', () => {
    expect(decodeHtmlEntities('&amp;lt;')).toBe('&lt;');
  });

  it('leaves unknown named entities untouched and replaces invalid code points', () => {
    expect(decodeHtmlEntities('&bogus; &#0; &#xD800;')).toBe('&bogus; \uFFFD \uFFFD');
  });

  it('accepts the bare legacy forms a browser accepts (the HTML spec list), and no others', () => {
    expect(decodeHtmlEntities('AT&amp T &copy 2024')).toBe('AT& T © 2024');
    expect(decodeHtmlEntities('&pound8.42 &notit; &rsquo')).toBe('£8.42 ¬it; &rsquo');
  });

  it('knows every HTML5 name, not only the common ones', () => {
    expect(decodeHtmlEntities('&pound;8.42 per hour')).toBe('£8.42 per hour');
    expect(decodeHtmlEntities('&euro;60k &ndash; &euro;75k')).toBe('€60k – €75k');
    expect(decodeHtmlEntities('a&nbsp;b')).toBe('a\u00a0b');
    expect(decodeHtmlEntities('we&rsquo;re')).toBe('we’re');
    expect(decodeHtmlEntities('&NotEqualTilde; &bigstar; &Zopf;')).toBe('\u2242\u0338 ★ \u2124');
  });

  it('reads decimal and hex references, mapping the C1 range as windows-1252 and out-of-range code points to U+FFFD', () => {
    expect(decodeHtmlEntities('&#8364;5 &#x20AC;5 &#X20ac;5')).toBe('€5 €5 €5');
    expect(decodeHtmlEntities('&#128; &#x92;')).toBe('€ ’');
    expect(decodeHtmlEntities('&#x110000; &#99999999;')).toBe('\uFFFD \uFFFD');
  });
});

describe('htmlToReadableText on hostile pages', () => {
  it('drops an unclosed script or comment to the end of the document, as a browser does, but keeps the page after an unclosed <head>', () => {
    expect(htmlToReadableText('<p>Visible</p><script>var a = "<p>hidden</p>";')).toBe('Visible');
    expect(htmlToReadableText('<p>Visible</p><!-- <p>hidden</p>')).toBe('Visible');
    expect(htmlToReadableText('<html><head><title>t</title><body><p>Posting text</p></body>')).toBe('t\n\nPosting text');
    expect(htmlToReadableText('<p>a</p><script>x</script><p>b</p><style>.c{}</style><p>c</p>')).toBe('a\n\nb\n\nc');
  });

  // Each shape once made the converter rescan the rest of the page from every opening tag (minutes
  // for 1 MB); a generous test timeout is the only bound here (speed goals live in tools/bench).
  it.each([
    ['unclosed scripts', '<script>'],
    ['unclosed comments', '<!--'],
    ['unclosed heads', '<head>'],
    ['unclosed svgs', '<svg x="1">'],
  ])('finishes a 1 MB page of %s', (_name, unit) => {
    const page = `<p>Start</p>${unit.repeat(Math.ceil(1_000_000 / unit.length))}`;
    expect(htmlToReadableText(page).startsWith('Start')).toBe(true);
  }, 15_000);
});

describe('scriptElements', () => {
  it('lists each script with its attributes and raw body; an unclosed one runs to the end', () => {
    expect(scriptElements('<p>x</p><script type="application/ld+json">{"a":"</p>"}</script ><script src="a>b.js"></script><script>tail')).toEqual([
      { attrs: ' type="application/ld+json"', body: '{"a":"</p>"}' },
      { attrs: ' src="a>b.js"', body: '' },
      { attrs: '', body: 'tail' },
    ]);
  });

  it('finishes a 1 MB page of unclosed scripts', () => {
    expect(scriptElements('<script>'.repeat(125_000))).toHaveLength(1);
  }, 15_000);
});
