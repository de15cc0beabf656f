/**
 * A small, forgiving HTML parser: enough structure to read search-result cards and turn
 * descriptions into text, without a DOM dependency. It never throws on bad markup: unknown closing
 * tags are ignored, unclosed elements end with their parent, and `<li>`/`<p>`/`<td>`… close
 * implicitly the way browsers close them. Script and style contents stay raw text.
 */

export interface HtmlElement {
  type: 'element';
  /** Lower-case tag name; the root is '#document'. */
  tag: string;
  /** Lower-case attribute names, entity-decoded values. */
  attrs: Record<string, string>;
  children: HtmlNode[];
  parent: HtmlElement | null;
}

export interface HtmlText {
  type: 'text';
  /** Entity-decoded text. */
  text: string;
}

export type HtmlNode = HtmlElement | HtmlText;

const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Content is not markup. Script/style text is kept verbatim; title/textarea text is entity-decoded. */
const RAW_TEXT_TAGS = new Set(['script', 'style', 'title', 'textarea']);

const BLOCKS_CLOSING_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
]);
/** Opening the key closes an open element of these tags (innermost first), as the HTML spec does. */
const IMPLIED_END: Record<string, ReadonlySet<string>> = {
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  tr: new Set(['tr', 'td', 'th']),
  td: new Set(['td', 'th']),
  th: new Set(['td', 'th']),
  option: new Set(['option']),
};

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', sbquo: '‚',
  ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»', lsaquo: '‹', rsaquo: '›', bull: '•', middot: '·', copy: '©',
  reg: '®', trade: '™', euro: '€', pound: '£', yen: '¥', cent: '¢', deg: '°', plusmn: '±', times: '×', divide: '÷',
  para: '¶', sect: '§', dagger: '†', larr: '←', rarr: '→', uarr: '↑', darr: '↓', check: '✓', frac12: '½', frac14: '¼',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', ecirc: 'ê',
  Eacute: 'É', aacute: 'á', agrave: 'à', acirc: 'â', ccedil: 'ç', ntilde: 'ñ', oacute: 'ó', ograve: 'ò', ocirc: 'ô',
  iacute: 'í', uacute: 'ú', ugrave: 'ù', oslash: 'ø', aring: 'å', aelig: 'æ',
};

// Named references need their ';' except the legacy few browsers also accept without one.
const ENTITY_RE = /&(?:#(\d{1,7});?|#[xX]([0-9a-fA-F]{1,6});?|([A-Za-z][A-Za-z0-9]{1,31});|(amp|lt|gt|quot|nbsp)(?![A-Za-z0-9=]))/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY_RE, (whole, dec?: string, hex?: string, named?: string, legacy?: string) => {
    if (dec || hex) {
      const code = dec ? parseInt(dec, 10) : parseInt(hex as string, 16);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    const name = (named ?? legacy) as string;
    return NAMED_ENTITIES[name] ?? whole;
  });
}

const TAG_OPEN_RE = /<([A-Za-z][A-Za-z0-9:-]*)/y;
const TAG_CLOSE_RE = /<\/([A-Za-z][A-Za-z0-9:-]*)[^>]*>/y;
const WS_RE = /\s*/y;
const ATTR_NAME_RE = /[^\s"'<>/=]+/y;
const UNQUOTED_RE = /[^\s>]+/y;

function match(re: RegExp, input: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(input);
}

export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { type: 'element', tag: '#document', attrs: {}, children: [], parent: null };
  let current = root;
  let i = 0;
  const n = html.length;

  const addText = (raw: string, decode = true) => {
    if (!raw) return;
    const text = decode ? decodeEntities(raw) : raw;
    const last = current.children[current.children.length - 1];
    if (last && last.type === 'text') last.text += text;
    else current.children.push({ type: 'text', text });
  };
  const close = (tag: string) => {
    for (let el: HtmlElement | null = current; el && el !== root; el = el.parent) {
      if (el.tag === tag) {
        current = el.parent ?? root;
        return;
      }
    }
  };

  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      addText(html.slice(i));
      break;
    }
    if (lt > i) addText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    const next = html[lt + 1];
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', lt);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (next === '/') {
      const m = match(TAG_CLOSE_RE, html, lt);
      if (m) {
        close(m[1].toLowerCase());
        i = lt + m[0].length;
      } else {
        addText('<');
        i = lt + 1;
      }
      continue;
    }
    const open = match(TAG_OPEN_RE, html, lt);
    if (!open) {
      addText('<');
      i = lt + 1;
      continue;
    }
    const tag = open[1].toLowerCase();
    const attrs: Record<string, string> = {};
    let j = lt + open[0].length;
    let selfClosing = false;
    while (j < n) {
      j += match(WS_RE, html, j)?.[0].length ?? 0;
      if (html[j] === '>') {
        j++;
        break;
      }
      if (html.startsWith('/>', j)) {
        selfClosing = true;
        j += 2;
        break;
      }
      const name = match(ATTR_NAME_RE, html, j);
      if (!name) {
        j++; // a stray quote or slash: skip it
        continue;
      }
      j += name[0].length;
      let value = '';
      const afterName = j + (match(WS_RE, html, j)?.[0].length ?? 0);
      if (html[afterName] === '=') {
        j = afterName + 1;
        j += match(WS_RE, html, j)?.[0].length ?? 0;
        const quote = html[j];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, j + 1);
          value = html.slice(j + 1, end === -1 ? n : end);
          j = end === -1 ? n : end + 1;
        } else {
          const unquoted = match(UNQUOTED_RE, html, j);
          value = unquoted ? unquoted[0] : '';
          j += value.length;
        }
      }
      const key = name[0].toLowerCase();
      if (!(key in attrs)) attrs[key] = decodeEntities(value);
    }
    i = j;

    if (tag === 'p' || BLOCKS_CLOSING_P.has(tag)) {
      // A block start closes an open <p> (browsers never nest blocks inside paragraphs).
      if (BLOCKS_CLOSING_P.has(tag) && current.tag === 'p') current = current.parent ?? root;
    }
    const implied = IMPLIED_END[tag];
    if (implied) {
      while (current !== root && implied.has(current.tag)) current = current.parent ?? root;
    }
    const el: HtmlElement = { type: 'element', tag, attrs, children: [], parent: current };
    current.children.push(el);
    if (VOID_TAGS.has(tag) || selfClosing) continue;
    if (RAW_TEXT_TAGS.has(tag)) {
      const endRe = new RegExp(`</${tag}\\s*>`, 'ig');
      endRe.lastIndex = i;
      const end = endRe.exec(html);
      const rawEnd = end ? end.index : n;
      const saved = current;
      current = el;
      addText(html.slice(i, rawEnd), tag === 'title' || tag === 'textarea');
      current = saved;
      i = end ? end.index + end[0].length : n;
      continue;
    }
    current = el;
  }
  return root;
}

/** Descendants of `root` (not root itself) matching `predicate`, in document order. */
export function findAll(root: HtmlElement, predicate: (el: HtmlElement) => boolean): HtmlElement[] {
  const out: HtmlElement[] = [];
  const visit = (el: HtmlElement) => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (predicate(child)) out.push(child);
      visit(child);
    }
  };
  visit(root);
  return out;
}

export function findFirst(root: HtmlElement, predicate: (el: HtmlElement) => boolean): HtmlElement | null {
  for (const child of root.children) {
    if (child.type !== 'element') continue;
    if (predicate(child)) return child;
    const inner = findFirst(child, predicate);
    if (inner) return inner;
  }
  return null;
}

export function hasClass(el: HtmlElement, className: string): boolean {
  const classes = el.attrs['class'];
  return classes ? classes.split(/\s+/).includes(className) : false;
}

/** Text of an element and its descendants (scripts and styles excluded), whitespace collapsed. */
export function textContent(el: HtmlElement): string {
  const parts: string[] = [];
  const visit = (node: HtmlNode) => {
    if (node.type === 'text') parts.push(node.text);
    else if (node.tag !== 'script' && node.tag !== 'style') node.children.forEach(visit);
  };
  visit(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
