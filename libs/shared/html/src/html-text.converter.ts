/**
 * Converts posting HTML into plain, readable text.
 *
 * Job descriptions arrive as HTML from JSON-LD, ATS APIs and scraped pages. Scoring, tailoring and
 * review all work on text, and an LLM prompt or a human reviewer needs paragraph structure to stay
 * legible, so block elements become line breaks (paragraph-level blocks become a blank line) and
 * list items keep a "- " bullet and table cells are separated by " | ". Everything is regex-based on
 * purpose: this library must stay free of DOM/Node dependencies so that Temporal workflow code can
 * import it.
 */
import { DecodingMode, decodeHTML } from 'entities';

/** Elements whose boundaries separate paragraphs: they become a blank line. */
const PARAGRAPH_TAGS = [
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'blockquote', 'pre',
  'section', 'article', 'header', 'footer', 'aside', 'main', 'nav', 'figure', 'hr', 'address',
];

/** Elements that only start a new line (no blank line) — rows, cells of definition lists, divs. */
const LINE_TAGS = ['div', 'tr', 'dt', 'dd', 'caption', 'tbody', 'thead', 'tfoot', 'summary', 'details'];

// A tag with attributes whose quoted values may contain ">" (e.g. title="a > b"). The alternatives
// are disjoint on their first character, so matching stays linear.
const ATTRS = `(?:[^>"']|"[^"]*"|'[^']*')*`;
const PARAGRAPH_TAG_RE = new RegExp(`<\\/?(?:${PARAGRAPH_TAGS.join('|')})\\b${ATTRS}>`, 'gi');
const LINE_TAG_RE = new RegExp(`<\\/?(?:${LINE_TAGS.join('|')})\\b${ATTRS}>`, 'gi');
const BR_RE = new RegExp(`<br\\b${ATTRS}>`, 'gi');
const LI_OPEN_RE = new RegExp(`<li\\b${ATTRS}>`, 'gi');
const LI_CLOSE_RE = /<\/li\s*>/gi;
const CELL_OPEN_RE = new RegExp(`<(?:td|th)\\b${ATTRS}>`, 'gi');
const CELL_CLOSE_RE = new RegExp(`<\\/(?:td|th)\\s*>`, 'gi');
// Only things that really look like tags are removed, so prose such as "a < b" survives.
const ANY_TAG_RE = new RegExp(`<\\/?[A-Za-z][A-Za-z0-9:-]*${ATTRS}>`, 'g');
// Raw-text elements whose content is never visible text: their opening tag (the content and the
// closing tag are found by removeDelimited, see there).
const INVISIBLE_OPEN_RE = new RegExp(`<(script|style|noscript|template|head|svg|iframe|object)\\b${ATTRS}>`, 'gi');
const COMMENT_OPEN_RE = /<!--/g;
/** Elements whose content the HTML parser reads as raw text up to their end tag, or the document's end. */
const RAW_TEXT = new Set(['script', 'style']);

// Sentinels that survive whitespace collapsing and tag stripping; they are private-use characters
// which never occur in real postings.
const PARA = '\uE000';
const LINE = '\uE001';
const BR = '\uE002';
const BULLET = '\uE003';
const CELL = '\uE004';
const FIRST_CELL_RE = new RegExp(`^${CELL} *`);
const NEXT_CELL_RE = new RegExp(` *${CELL} *`, 'g');
// A bullet alone on its line because its item starts with a block, followed by that block's text.
const LONE_BULLET_RE = new RegExp(`^${BULLET}\\n+(?=[^\\n${BULLET}])`, 'gm');
const EMPTY_BULLET_RE = new RegExp(`${BULLET}(?=\\n|$)`, 'g');
const BULLET_RE = new RegExp(`${BULLET} *`, 'g');

/**
 * Decodes HTML character references in a single pass, so "&amp;lt;" becomes the literal text
 * "&lt;" rather than being decoded twice into "<". All 2,231 HTML5 names are known (the `entities`
 * package carries the spec's table, so a posting's "&pound;" or "&NotEqualTilde;" is not left raw),
 * and it follows the spec's text-content rules: the legacy names browsers accept without ";"
 * ("&amp", "&pound"), and numeric references to NUL, surrogates or beyond U+10FFFF become U+FFFD,
 * while the C1 range maps as windows-1252 does ("&#128;" is "€").
 */
export function decodeHtmlEntities(text: string): string {
  return decodeHTML(text, DecodingMode.Legacy);
}

/**
 * Removes every span from an `open` match to the end of its closing delimiter (`closeFor(match)`,
 * case-insensitive, through the next `>` for a closing tag), writing `replacement` instead. One
 * forward pass: each closing delimiter is searched once from where the scan stands; a span left
 * open runs to the end of the document when `runsToEnd` says so (an unclosed comment or script,
 * as HTML parsers read them), else only its opening match is removed. A lazy
 * regex (`<script>[\s\S]*?</script>`) would instead rescan the rest of the page from every opening
 * tag without a close: quadratic on a hostile page of unclosed tags.
 */
function removeDelimited(html: string, open: RegExp, closeFor: (match: RegExpExecArray) => string, replacement: string, runsToEnd: (match: RegExpExecArray) => boolean = () => true): string {
  const lower = html.toLowerCase();
  // A delimiter missing after some position is missing after every later one: never searched twice.
  const missing = new Set<string>();
  let out = '';
  let pos = 0;
  for (;;) {
    open.lastIndex = pos;
    const match = open.exec(html);
    if (!match) return out + html.slice(pos);
    out += html.slice(pos, match.index) + replacement;
    const close = closeFor(match);
    const at = missing.has(close) ? -1 : lower.indexOf(close, open.lastIndex);
    if (at < 0) {
      missing.add(close);
      // Unclosed: a comment, script or style runs to the end of the document (the HTML parser
      // reads it as raw text); any other element (an unclosed <head> is common) loses only its tag.
      if (runsToEnd(match)) return out;
      pos = open.lastIndex;
      continue;
    }
    // A closing tag ends at its `>` ("</script >"); the comment's "-->" ends itself.
    const end = close.endsWith('>') ? at + close.length : html.indexOf('>', at + close.length);
    pos = end < 0 ? html.length : close.endsWith('>') ? end : end + 1;
  }
}

/**
 * Every `<script>` element of a page, in document order: its attribute text and its raw content
 * (an unclosed one runs to the end of the document). A script inside an HTML comment is not on the
 * page (an unclosed comment runs to the end, as browsers read it). Linear in the page, whatever it
 * contains: pages are hostile input, so the next script and the next comment are each searched
 * for once from where the scan stands and kept until the scan passes them.
 */
export function scriptElements(html: string): Array<{ attrs: string; body: string }> {
  const open = new RegExp(`<script\\b(${ATTRS})>`, 'gi');
  const nextScript = (from: number): RegExpExecArray | null => {
    open.lastIndex = from;
    return open.exec(html);
  };
  const lower = html.toLowerCase();
  const out: Array<{ attrs: string; body: string }> = [];
  let script = nextScript(0);
  let comment = lower.indexOf('<!--');
  while (script) {
    if (comment >= 0 && comment < script.index) {
      // From "<!" on: "<!-->" and "<!--->" are (empty) comments that end themselves.
      const end = lower.indexOf('-->', comment + 2);
      if (end < 0) return out;
      const pos = end + 3;
      comment = lower.indexOf('<!--', pos);
      if (script.index < pos) script = nextScript(pos);
      continue;
    }
    const bodyStart = script.index + script[0].length;
    const close = lower.indexOf('</script', bodyStart);
    out.push({ attrs: script[1] ?? '', body: html.slice(bodyStart, close < 0 ? html.length : close) });
    if (close < 0) return out;
    const end = html.indexOf('>', close);
    if (end < 0) return out;
    script = nextScript(end + 1);
    if (comment >= 0 && comment <= end) comment = lower.indexOf('<!--', end + 1);
  }
  return out;
}

/**
 * Turns an HTML fragment into readable text: scripts/styles dropped, paragraphs separated by a blank
 * line, line breaks kept, list items bulleted with "- ", entities decoded, whitespace normalised.
 * Plain text input (no tags) comes back with only whitespace normalised and entities decoded.
 */
export function htmlToReadableText(html: string): string {
  if (!html) return '';
  let text = removeDelimited(html, COMMENT_OPEN_RE, () => '-->', '')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<![^>]*>/g, '')
    .replace(/<\?[^>]*>/g, '');
  text = removeDelimited(text, INVISIBLE_OPEN_RE, (open) => `</${open[1].toLowerCase()}`, ' ', (open) => RAW_TEXT.has(open[1].toLowerCase()));

  // Source whitespace (including newlines) is insignificant in HTML; structure comes from tags.
  text = text.replace(/\s+/g, ' ');

  text = text
    .replace(BR_RE, BR)
    .replace(LI_OPEN_RE, `${LINE}${BULLET}`)
    .replace(LI_CLOSE_RE, LINE)
    .replace(CELL_OPEN_RE, CELL)
    .replace(CELL_CLOSE_RE, ' ')
    .replace(PARAGRAPH_TAG_RE, PARA)
    .replace(LINE_TAG_RE, LINE)
    .replace(ANY_TAG_RE, '');

  // Entities are decoded only after tags are gone, so an escaped "&lt;b&gt;" stays visible text.
  text = decodeHtmlEntities(text);

  return normaliseLines(resolveBreaks(text));
}

/**
 * Resolves the structural sentinels into newlines. Nested blocks produce runs of sentinels
 * (`<ul><li>` is a paragraph break followed by a line break), so a run containing any paragraph
 * break becomes one blank line and a run of line breaks becomes one newline. Authors who build
 * paragraphs out of `<br><br>` get a blank line too, which is what they meant.
 */
function resolveBreaks(text: string): string {
  const ws = `[ ${PARA}${LINE}${BR}]*`;
  return text
    .replace(new RegExp(`${BR}(?: *${BR})+`, 'g'), PARA)
    .replace(new RegExp(BR, 'g'), LINE)
    .replace(new RegExp(`${ws}${PARA}${ws}`, 'g'), '\n\n')
    .replace(new RegExp(`${ws}${LINE}${ws}`, 'g'), '\n');
}

/**
 * Collapses horizontal whitespace, trims lines and keeps at most one blank line between blocks.
 * Resolves the remaining sentinels: a cell that does not start its line is separated from the one
 * before by " | ", and a bullet whose item starts with a block (`<li><p>x</p></li>`) is joined
 * with that block's first line instead of standing alone on its own line.
 */
function normaliseLines(text: string): string {
  return text
    .replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000\t\f\v ]+/g, ' ')
    .replace(/\u00ad/g, '')
    .split('\n')
    .map((line) => line.trim().replace(FIRST_CELL_RE, '').replace(NEXT_CELL_RE, ' | ').trim())
    .join('\n')
    .replace(LONE_BULLET_RE, BULLET)
    .replace(EMPTY_BULLET_RE, '-')
    .replace(BULLET_RE, '- ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
