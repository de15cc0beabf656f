import { decodeHtmlEntities } from '@jobctrl/shared/html';

/**
 * One linear pass over a posting page's HTML that keeps only what the liveness reading needs: the
 * page's own text split by where it sits (main content vs. site chrome and "related jobs"
 * widgets), its apply controls and forms and the marks anti-bot challenge pages leave (its JSON-LD
 * is read by @jobctrl/shared/html).
 *
 * The page is hostile input. So this is a hand-written scanner, not a chain of regexes: every
 * character is looked at a bounded number of times (indexOf from a moving cursor, never a lazy
 * `[\s\S]*?` retried from each "<" — @jobctrl/shared/html's converter does that for `<script>` and
 * is quadratic on a page of unclosed script tags), the open-element stack is bounded, and every
 * collected list and text is capped. Malformed markup is read the way a browser roughly would: an
 * end tag closes the nearest open element of its name, an end tag with nothing to close is
 * ignored, an unterminated comment, quote or raw-text element runs to the end of the page.
 */

export interface ScannedControl {
  /** `a`, `button` or `input`. */
  tag: string;
  /** Visible label: text content, else value/aria-label/title (≤ LABEL_CAP characters, lowercased). */
  label: string;
  href: string | null;
  /** The `disabled` attribute or aria-disabled="true"; a class named "disabled" does not count. */
  disabled: boolean;
  /** Submit-type control (button without type=button/reset, input type=submit/image). */
  submit: boolean;
  /** Inside the page's main content region (main, [role=main], article). */
  inMain: boolean;
  /** Index into `forms` of the form it belongs to, or -1. */
  form: number;
}

export interface ScannedField {
  tag: string;
  type: string;
  /** name, id, autocomplete, accept and aria-label, lowercased and joined: what the field asks for. */
  describes: string;
}

export interface ScannedForm {
  action: string | null;
  /** role=search, or a form whose only text field is a search box. */
  search: boolean;
  fields: ScannedField[];
  inMain: boolean;
}

export interface ScannedPage {
  title: string;
  /** Texts of the page's h1 elements outside chrome (≤ 8). */
  headings: string[];
  /** Visible text inside main/[role=main]/article, chrome and widgets excluded. */
  mainText: string;
  /** Visible text of the whole page, chrome and widgets excluded (the fallback when there is no main region). */
  bodyText: string;
  /** Visible text that sits in chrome (nav, site header/footer, aside, related-jobs widgets, cookie banners). */
  chromeText: string;
  hasMainRegion: boolean;
  /** Script elements that are not JSON-LD (inline or src). */
  scripts: number;
  /** An app root (`#app`, `#root`, `#__next`, `[data-reactroot]`…): with little text, a client-rendered shell. */
  appRoot: boolean;
  /** Visible controls (chrome and hidden elements excluded). */
  controls: ScannedControl[];
  forms: ScannedForm[];
  /** Markers only anti-bot challenge pages carry (Cloudflare challenge platform, DataDome, PerimeterX, Imperva). */
  challengeMarkers: string[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen', 'frame']);
/** Elements whose content is not markup: skipped to their end tag in one indexOf walk. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'noscript', 'template', 'iframe', 'xmp', 'noembed', 'noframes']);
/** Elements whose boundaries separate words in the extracted text. */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'tr', 'td', 'th', 'br', 'hr', 'form', 'fieldset', 'blockquote', 'pre',
  'figure', 'address', 'label', 'option', 'button', 'a', 'span',
]);
/** Per ARIA, header/footer are site chrome (banner/contentinfo) unless inside one of these. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog']);

const MAX_STACK = 256;
const TEXT_CAP = 300_000;
const CHROME_TEXT_CAP = 50_000;
const LABEL_CAP = 120;
const MAX_CONTROLS = 400;
const MAX_FORMS = 40;
const MAX_FIELDS_PER_FORM = 60;
const MAX_ATTRS = 48;
const MAX_ATTR_VALUE = 2_000;

/**
 * Class/id/aria-label of a "related jobs" widget or a cookie banner: their text is not the
 * posting's. Tested on one attribute value of ≤ MAX_ATTR_VALUE characters (bounded, no nesting).
 */
const WIDGET_RE =
  /(?:related|similar|other|more|recommended|latest|featured|suggested)[-_ ]?(?:jobs?|positions?|roles?|openings?|postings?|vacanc|offers?|opportunit|stellen|offres|empleos|vacatures|vagas|posizioni)|\bjob-?(?:list|cards?|carousel)\b|cookie|consent|gdpr|onetrust|newsletter/i;
const APP_ROOT_IDS = new Set(['app', 'root', '__next', '__nuxt', 'main-app', 'react-root', 'svelte', 'ember-app']);
const CHALLENGE_MARKERS: Array<[string, string]> = [
  ['challenge-platform', 'cloudflare challenge'],
  ['cf_chl_', 'cloudflare challenge'],
  ['cf-challenge', 'cloudflare challenge'],
  ['challenge-form', 'cloudflare challenge'],
  ['cf-browser-verification', 'cloudflare challenge'],
  ['captcha-delivery.com', 'datadome'],
  ['px-captcha', 'perimeterx'],
  ['_incapsula_resource', 'imperva'],
  ['/_sec/cp_challenge', 'akamai'],
  ['aws-waf-token', 'aws waf'],
];

interface Frame {
  name: string;
  chrome: boolean;
  main: boolean;
  sectioning: boolean;
  h1: boolean;
  /** Index into controls of an open a/button collecting its label, or -1. */
  control: number;
  /** Index into forms of the open form, or -1. */
  form: number;
}

type Attrs = Map<string, string>;

export function scanPage(html: string): ScannedPage {
  return new Scanner(html).run();
}

class Scanner {
  private readonly out: ScannedPage = {
    title: '', headings: [], mainText: '', bodyText: '', chromeText: '', hasMainRegion: false, scripts: 0,
    appRoot: false, controls: [], forms: [], challengeMarkers: [],
  };
  private readonly main: string[] = [];
  private readonly body: string[] = [];
  private readonly chrome: string[] = [];
  private mainLen = 0;
  private bodyLen = 0;
  private chromeLen = 0;
  private h1Text: string[] | null = null;
  private readonly stack: Frame[] = [];
  /** How many frames of each name are open: an end tag with nothing to close costs O(1). */
  private readonly open = new Map<string, number>();
  private readonly root: Frame = { name: '#root', chrome: false, main: false, sectioning: false, h1: false, control: -1, form: -1 };

  constructor(private readonly html: string) {}

  run(): ScannedPage {
    const html = this.html;
    let i = 0;
    while (i < html.length) {
      const lt = html.indexOf('<', i);
      if (lt < 0) {
        this.text(html.slice(i));
        break;
      }
      if (lt > i) this.text(html.slice(i, lt));
      i = this.markup(lt);
    }
    this.out.mainText = joinText(this.main);
    this.out.bodyText = joinText(this.body);
    this.out.chromeText = joinText(this.chrome);
    return this.out;
  }

  private top(): Frame {
    return this.stack.length ? this.stack[this.stack.length - 1] : this.root;
  }

  /** Reads the markup starting at `lt` (a "<") and returns where scanning continues. */
  private markup(lt: number): number {
    const html = this.html;
    const next = html.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (html.startsWith('<!--', lt)) {
        const end = html.indexOf('-->', lt + 4);
        return end < 0 ? html.length : end + 3;
      }
      const end = html.indexOf('>', lt + 2);
      return end < 0 ? html.length : end + 1;
    }
    if (next === 0x3f /* ? */) {
      const end = html.indexOf('>', lt + 2);
      return end < 0 ? html.length : end + 1;
    }
    if (next === 0x2f /* / */) {
      const nameEnd = readName(html, lt + 2);
      if (nameEnd === lt + 2) {
        this.text('<');
        return lt + 1;
      }
      const end = html.indexOf('>', nameEnd);
      this.endTag(html.slice(lt + 2, nameEnd).toLowerCase());
      return end < 0 ? html.length : end + 1;
    }
    if (!isAsciiLetter(next)) {
      this.text('<');
      return lt + 1;
    }
    const nameEnd = readName(html, lt + 1);
    const name = html.slice(lt + 1, nameEnd).toLowerCase();
    const { attrs, end, selfClosing } = readAttrs(html, nameEnd);
    if (RAW_TEXT.has(name)) return this.rawText(name, attrs, end);
    this.startTag(name, attrs, selfClosing);
    return end;
  }

  private rawText(name: string, attrs: Attrs, from: number): number {
    const close = findEndTag(this.html, name, from);
    const content = this.html.slice(from, close.contentEnd);
    if (name === 'title') {
      if (!this.out.title) this.out.title = normalizeSpace(decodeHtmlEntities(content)).slice(0, 300);
    } else if (name === 'script') {
      this.script(attrs, content);
    } else if (name === 'textarea') {
      this.field('textarea', attrs);
    }
    return close.resume;
  }

  private script(attrs: Attrs, content: string): void {
    const type = (attrs.get('type') ?? '').split(';')[0].trim().toLowerCase();
    // JSON-LD is data, not a script that renders the page (@jobctrl/shared/html reads it).
    if (type === 'application/ld+json') return;
    this.out.scripts++;
    this.markers(attrs.get('src') ?? '');
    // Challenge pages configure themselves inline (window._cf_chl_opt, DataDome's dd={…}); only the
    // head of a script is looked at, which keeps the cost bounded whatever the script's size.
    this.markers(content.slice(0, 4_000));
  }

  private markers(value: string): void {
    if (!value || this.out.challengeMarkers.length >= 8) return;
    const lower = value.toLowerCase();
    for (const [needle, what] of CHALLENGE_MARKERS) {
      if (lower.includes(needle) && !this.out.challengeMarkers.includes(what)) this.out.challengeMarkers.push(what);
    }
  }

  private startTag(name: string, attrs: Attrs, selfClosing: boolean): void {
    const parent = this.top();
    if (BLOCK.has(name)) this.separate(parent);
    const id = attrs.get('id') ?? '';
    this.markers(id);
    this.markers(attrs.get('class') ?? '');
    this.markers(attrs.get('action') ?? '');
    if (APP_ROOT_IDS.has(id.toLowerCase()) || attrs.has('data-reactroot') || attrs.has('ng-app') || attrs.has('ng-version')) {
      this.out.appRoot = true;
    }

    if (name === 'input' || name === 'select') {
      this.field(name, attrs);
      if (name === 'input') this.inputControl(attrs, parent);
      return;
    }
    if (VOID.has(name) || selfClosing) return;
    // HTML ignores a form start tag inside an open form, and an <a> inside an <a> closes the first.
    if (name === 'form' && parent.form >= 0) return;
    if ((name === 'a' || name === 'button') && this.open.get(name)) this.endTag(name);
    if (this.stack.length >= MAX_STACK) return;

    const role = (attrs.get('role') ?? '').toLowerCase();
    const chrome =
      parent.chrome ||
      name === 'nav' || name === 'aside' || name === 'dialog' ||
      ((name === 'header' || name === 'footer') && !parent.sectioning) ||
      CHROME_ROLES.has(role) ||
      isHidden(attrs) ||
      isWidget(attrs);
    const main = parent.main || name === 'main' || name === 'article' || role === 'main';
    if (main && !parent.main && !chrome) this.out.hasMainRegion = true;
    const frame: Frame = {
      name,
      chrome,
      main,
      sectioning: parent.sectioning || SECTIONING.has(name),
      h1: parent.h1 || name === 'h1',
      control: parent.control,
      form: parent.form,
    };
    if (name === 'a' || name === 'button') frame.control = this.control(name, attrs, frame, parent.form);
    if (name === 'form' && this.out.forms.length < MAX_FORMS && !chrome) {
      const action = attrs.get('action') ?? null;
      this.out.forms.push({ action, search: role === 'search' || /search|such|recherche|busca|zoek|cerca/i.test(action ?? ''), fields: [], inMain: main });
      frame.form = this.out.forms.length - 1;
    }
    if (name === 'h1' && !parent.h1 && !chrome) this.h1Text = [];
    this.stack.push(frame);
    this.open.set(name, (this.open.get(name) ?? 0) + 1);
  }

  private endTag(name: string): void {
    if (!this.open.get(name)) return;
    // Pops down to the nearest open element of that name; every frame is popped at most once.
    for (;;) {
      const frame = this.stack.pop() as Frame;
      this.open.set(frame.name, (this.open.get(frame.name) ?? 1) - 1);
      if (frame.h1 && this.h1Text && !this.top().h1) this.closeHeading();
      if (frame.name === name) break;
    }
    if (BLOCK.has(name)) this.separate(this.top());
  }

  private closeHeading(): void {
    const text = normalizeSpace((this.h1Text ?? []).join(''));
    if (text && this.out.headings.length < 8) this.out.headings.push(text.slice(0, 300));
    this.h1Text = null;
  }

  private control(tag: string, attrs: Attrs, frame: Frame, form: number): number {
    if (frame.chrome || this.out.controls.length >= MAX_CONTROLS) return -1;
    const type = (attrs.get('type') ?? 'submit').toLowerCase();
    this.out.controls.push({
      tag,
      label: '',
      href: tag === 'a' ? (attrs.get('href') ?? null) : null,
      disabled: isDisabled(tag, attrs),
      submit: tag === 'button' && form >= 0 && type === 'submit',
      inMain: frame.main,
      form: tag === 'button' ? form : -1,
    });
    const index = this.out.controls.length - 1;
    const label = attrs.get('aria-label') ?? attrs.get('title') ?? '';
    if (label) this.out.controls[index].label = lowerLabel(label);
    return index;
  }

  private inputControl(attrs: Attrs, parent: Frame): void {
    const type = (attrs.get('type') ?? 'text').toLowerCase();
    if (type !== 'submit' && type !== 'button' && type !== 'image') return;
    if (parent.chrome || this.out.controls.length >= MAX_CONTROLS) return;
    this.out.controls.push({
      tag: 'input',
      label: lowerLabel(attrs.get('value') ?? attrs.get('aria-label') ?? attrs.get('alt') ?? ''),
      href: null,
      disabled: isDisabled('input', attrs),
      submit: type !== 'button' && parent.form >= 0,
      inMain: parent.main,
      form: parent.form,
    });
  }

  private field(tag: string, attrs: Attrs): void {
    const form = this.top().form;
    if (form < 0) return;
    const fields = this.out.forms[form].fields;
    if (fields.length >= MAX_FIELDS_PER_FORM) return;
    const type = (attrs.get('type') ?? (tag === 'input' ? 'text' : tag)).toLowerCase();
    const describes = ['name', 'id', 'autocomplete', 'accept', 'aria-label', 'placeholder']
      .map((k) => attrs.get(k) ?? '')
      .filter(Boolean)
      .join(' ')
      .toLowerCase()
      .slice(0, 300);
    fields.push({ tag, type, describes });
  }

  private text(raw: string): void {
    if (!raw) return;
    const frame = this.top();
    const text = decodeHtmlEntities(raw);
    if (!/\S/.test(text)) {
      this.separate(frame);
      return;
    }
    if (frame.chrome) {
      if (this.chromeLen < CHROME_TEXT_CAP) {
        this.chrome.push(text);
        this.chromeLen += text.length;
      }
      return;
    }
    if (this.bodyLen < TEXT_CAP) {
      this.body.push(text);
      this.bodyLen += text.length;
    }
    if (frame.main && this.mainLen < TEXT_CAP) {
      this.main.push(text);
      this.mainLen += text.length;
    }
    if (frame.control >= 0) {
      const control = this.out.controls[frame.control];
      if (control.label.length < LABEL_CAP) control.label = lowerLabel(`${control.label} ${text}`);
    }
    if (this.h1Text && frame.h1) this.h1Text.push(text);
  }

  /** A word boundary between blocks, so "closed</div><div>Apply" does not read "closedApply". */
  private separate(frame: Frame): void {
    const sink = frame.chrome ? this.chrome : this.body;
    if (sink.length && sink[sink.length - 1] !== '\n') sink.push('\n');
    if (frame.main && !frame.chrome && this.main.length && this.main[this.main.length - 1] !== '\n') this.main.push('\n');
  }
}

function joinText(parts: string[]): string {
  return normalizeSpace(parts.join(' '));
}

/** Collapses whitespace (NBSP and friends included) and unifies apostrophes, so phrases match. */
export function normalizeSpace(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc\u2032`]/g, "'")
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ')
    .trim();
}

function lowerLabel(text: string): string {
  return normalizeSpace(text).toLowerCase().slice(0, LABEL_CAP);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** End of a tag name: ASCII letters, digits, "-", ":", "_" (custom elements, namespaces). */
function readName(html: string, from: number): number {
  let i = from;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x3a || c === 0x5f) i++;
    else break;
  }
  return i;
}

/**
 * Reads attributes up to the tag's ">" and returns the position after it. A quoted value that
 * never closes runs to the end of the page (as in a browser): the cursor still only moves forward.
 */
function readAttrs(html: string, from: number): { attrs: Attrs; end: number; selfClosing: boolean } {
  const attrs: Attrs = new Map();
  let i = from;
  let selfClosing = false;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 0x3e /* > */) return { attrs, end: i + 1, selfClosing };
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x2f /* / */) {
      selfClosing = html.charCodeAt(i + 1) === 0x3e;
      i++;
      continue;
    }
    selfClosing = false;
    const nameStart = i;
    while (i < html.length) {
      const d = html.charCodeAt(i);
      if (isSpace(d) || d === 0x3d || d === 0x3e || (d === 0x2f && i > nameStart)) break;
      i++;
    }
    const name = html.slice(nameStart, Math.min(i, nameStart + 64)).toLowerCase();
    while (i < html.length && isSpace(html.charCodeAt(i))) i++;
    let value = '';
    if (html.charCodeAt(i) === 0x3d /* = */) {
      i++;
      while (i < html.length && isSpace(html.charCodeAt(i))) i++;
      const q = html.charCodeAt(i);
      if (q === 0x22 || q === 0x27) {
        const close = html.indexOf(q === 0x22 ? '"' : "'", i + 1);
        const stop = close < 0 ? html.length : close;
        value = html.slice(i + 1, Math.min(stop, i + 1 + MAX_ATTR_VALUE));
        i = close < 0 ? html.length : close + 1;
      } else {
        const valueStart = i;
        while (i < html.length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
        value = html.slice(valueStart, Math.min(i, valueStart + MAX_ATTR_VALUE));
      }
    }
    if (name && attrs.size < MAX_ATTRS && !attrs.has(name)) attrs.set(name, decodeHtmlEntities(value));
  }
  return { attrs, end: html.length, selfClosing };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Finds `</name` (any case) followed by a non-name character, from `from` on. Each "</" is
 * examined once, so the search is linear in what it skips.
 */
function findEndTag(html: string, name: string, from: number): { contentEnd: number; resume: number } {
  let i = from;
  for (;;) {
    const at = html.indexOf('</', i);
    if (at < 0) return { contentEnd: html.length, resume: html.length };
    const candidate = html.slice(at + 2, at + 2 + name.length);
    const after = html.charCodeAt(at + 2 + name.length);
    if (candidate.toLowerCase() === name && !isNameChar(after)) {
      const end = html.indexOf('>', at + 2 + name.length);
      return { contentEnd: at, resume: end < 0 ? html.length : end + 1 };
    }
    i = at + 2;
  }
}

function isNameChar(c: number): boolean {
  return isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x3a || c === 0x5f;
}

function isHidden(attrs: Attrs): boolean {
  if (attrs.has('hidden')) return true;
  if ((attrs.get('aria-hidden') ?? '').toLowerCase() === 'true') return true;
  const style = (attrs.get('style') ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

function isWidget(attrs: Attrs): boolean {
  for (const key of ['class', 'id', 'aria-label', 'data-testid', 'data-component']) {
    const value = attrs.get(key);
    if (value && WIDGET_RE.test(value)) return true;
  }
  return false;
}

function isDisabled(tag: string, attrs: Attrs): boolean {
  if ((attrs.get('aria-disabled') ?? '').toLowerCase() === 'true') return true;
  // `disabled` means nothing on an <a>; browsers ignore it there.
  return tag !== 'a' && attrs.has('disabled');
}
