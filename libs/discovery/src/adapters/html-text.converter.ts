import { type HtmlNode, parseHtml } from './html-document.parser';

/** Elements that stand apart as paragraphs (blank line around them). */
const PARAGRAPH_TAGS = new Set([
  'p', 'ul', 'ol', 'dl', 'table', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header',
  'footer', 'main', 'aside', 'figure', 'form', 'hr',
]);
/** Elements that start a new line without a blank one. */
const LINE_TAGS = new Set(['div', 'li', 'tr', 'dt', 'dd', 'figcaption', 'address', 'nav', 'details', 'summary']);
const SKIPPED_TAGS = new Set(['script', 'style', 'head', 'template', 'noscript', 'svg', 'button', 'select', 'iframe']);

/**
 * Readable plain text of an HTML fragment: paragraphs separated by a blank line, list items as
 * "- item", table cells separated by " | ", entities decoded, runs of whitespace collapsed.
 * Descriptions arrive as HTML from most boards; scoring and review read this text.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // Block edges ask for a number of line breaks; adjacent edges ("</li><li>") merge to the
  // largest request instead of adding up, so list items do not get blank lines between them.
  let pending = 0;
  const requestBreak = (lines: number) => {
    pending = Math.max(pending, lines);
  };
  const emit = (text: string) => {
    if (pending) {
      if (!text.trim()) return; // whitespace between blocks
      if (out.length) out.push('\n'.repeat(pending));
      pending = 0;
    }
    out.push(text);
  };
  const visit = (node: HtmlNode, inPre: boolean) => {
    if (node.type === 'text') {
      emit(inPre ? node.text : node.text.replace(/\s+/g, ' '));
      return;
    }
    const tag = node.tag;
    if (SKIPPED_TAGS.has(tag)) return;
    if (tag === 'br') {
      emit('\n');
      return;
    }
    const lines = PARAGRAPH_TAGS.has(tag) ? 2 : LINE_TAGS.has(tag) ? 1 : 0;
    if (lines) requestBreak(lines);
    if (tag === 'li') emit('- ');
    if ((tag === 'td' || tag === 'th') && node.parent?.children.find((c) => c.type === 'element') !== node) emit(' | ');
    for (const child of node.children) visit(child, inPre || tag === 'pre');
    if (lines) requestBreak(lines);
  };
  visit(parseHtml(html), false);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    // "<li><p>x</p></li>" leaves the bullet alone on its line: join it with its text.
    .replace(/^-\n+(?=[^\n])/gm, '- ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
