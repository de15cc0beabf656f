import { decodeEntities, findAll, findFirst, hasClass, parseHtml, textContent } from './html-document.parser';

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references, leaving unknown ones alone', () => {
    expect(decodeEntities('R&amp;D &lt;3 &euro;5 &#8211; &#x1F600; &nbsp;x &bogus; a&b')).toBe('R&D <3 €5 – 😀 \u00a0x &bogus; a&b');
  });

  it('accepts the legacy references without a semicolon, but not inside words', () => {
    expect(decodeEntities('Q&amp A &lt b')).toBe('Q& A < b');
    expect(decodeEntities('?a=1&ltd=2')).toBe('?a=1&ltd=2');
  });

  it('replaces invalid code points', () => {
    expect(decodeEntities('&#0;&#xD800;')).toBe('\ufffd\ufffd');
  });
});

describe('parseHtml', () => {
  it('reads quoted, single-quoted, unquoted and boolean attributes, decoding values', () => {
    const doc = parseHtml(`<a href='/jobs/1?a=1&amp;b=2' data-jk=abc123 hidden class="x  y">t</a>`);
    const a = findFirst(doc, (el) => el.tag === 'a');
    expect(a?.attrs).toEqual({ href: '/jobs/1?a=1&b=2', 'data-jk': 'abc123', hidden: '', class: 'x  y' });
    expect(a && hasClass(a, 'y')).toBe(true);
  });

  it('closes <li>, <p> and cells implicitly, like browsers', () => {
    const doc = parseHtml('<ul><li>one<li>two</ul><p>a<p>b<div>c</div><table><tr><td>1<td>2<tr><td>3</table>');
    expect(findAll(doc, (el) => el.tag === 'li').map(textContent)).toEqual(['one', 'two']);
    expect(findAll(doc, (el) => el.tag === 'p').map(textContent)).toEqual(['a', 'b']);
    expect(findFirst(doc, (el) => el.tag === 'div')?.parent?.tag).toBe('#document');
    expect(findAll(doc, (el) => el.tag === 'tr').map(textContent)).toEqual(['12', '3']);
  });

  it('keeps script and style contents raw and out of text, and ignores comments and doctype', () => {
    const doc = parseHtml('<!DOCTYPE html><body><!-- <b>hidden</b> --><script>if (a < b && c) { x = "</div>"; }</script><b>shown</b></body>');
    const script = findFirst(doc, (el) => el.tag === 'script');
    expect(script?.children).toEqual([{ type: 'text', text: 'if (a < b && c) { x = "</div>"; }' }]);
    expect(textContent(doc)).toBe('shown');
  });

  it('survives broken markup: stray closers, unclosed tags, lone "<"', () => {
    const doc = parseHtml('<div><span>a < b</em></div> tail <b>bold');
    expect(textContent(doc)).toBe('a < b tail bold');
    expect(findFirst(doc, (el) => el.tag === 'b')?.parent?.tag).toBe('#document');
  });

  it('handles self-closing and void elements without nesting into them', () => {
    const doc = parseHtml('<p>a<br>b<img src=x.png/><input/>c</p>');
    const p = findFirst(doc, (el) => el.tag === 'p');
    expect(p?.children.map((c) => (c.type === 'text' ? c.text : c.tag))).toEqual(['a', 'br', 'b', 'img', 'input', 'c']);
  });
});
