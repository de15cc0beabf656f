import { decodeHtmlEntities, htmlToReadableText } from './html-text.converter';

describe('htmlToReadableText', () => {
  it('separates paragraphs with a blank line and ignores source newlines', () => {
    const html = '<p>We build\n   pipelines.</p>\n<p>You   ship\tcode.</p>';
    expect(htmlToReadableText(html)).toBe('We build pipelines.\n\nYou ship code.');
  });

  it('keeps single line breaks for <br> and a blank line for <br><br>', () => {
    expect(htmlToReadableText('Line one<br>Line two<br/><br />Next paragraph')).toBe(
      'Line one\nLine two\n\nNext paragraph',
    );
  });

  it('renders list items as bullets on consecutive lines', () => {
    const html = '<p>Requirements:</p><ul><li>TypeScript</li><li><strong>SQL</strong></li></ul><p>Apply now</p>';
    expect(htmlToReadableText(html)).toBe('Requirements:\n\n- TypeScript\n- SQL\n\nApply now');
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

  it('accepts the legacy bare forms only for the common few', () => {
    expect(decodeHtmlEntities('AT&amp T &copy 2024')).toBe('AT& T &copy 2024');
  });
});
