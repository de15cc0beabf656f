import { htmlToText } from './html-text.converter';

describe('htmlToText', () => {
  it('separates paragraphs by a blank line and list items by a line break', () => {
    expect(htmlToText('<p><strong>About</strong></p><p>We build R&amp;D tools.</p><ul><li>Go</li><li>SQL</li></ul><p>End</p>')).toBe(
      'About\n\nWe build R&D tools.\n\n- Go\n- SQL\n\nEnd',
    );
  });

  it('collapses source whitespace, honours <br>, and skips scripts and styles', () => {
    expect(htmlToText('<div>\n  Hello\n   world<br>next line</div><script>var x = 1;</script><style>p{}</style>')).toBe('Hello world\nnext line');
  });

  it('joins a bullet with a paragraph inside it, and separates table cells', () => {
    expect(htmlToText('<ul><li><p>Own it</p></li></ul><table><tr><td>a</td><td>b</td></tr></table>')).toBe('- Own it\n\na | b');
  });

  it('reads plain text and entity-only input', () => {
    expect(htmlToText('just text &amp; more')).toBe('just text & more');
    expect(htmlToText('')).toBe('');
  });
});
