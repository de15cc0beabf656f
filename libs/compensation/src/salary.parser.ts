import type { SalaryBound, SalaryPeriod, SalaryRange } from './salary.types';

/**
 * Parses the pay stated in free text ("$120,000 - $150,000 a year", "120k–150k USD",
 * "€60.000–€75.000 per annum", "£45k", "$55/hr", "up to $200k", "from 90,000 EUR").
 *
 * Postings mention many numbers (years of experience, team sizes, dates, 401(k) matches, "lift 50
 * pounds"), so an amount only counts as pay when it carries a currency symbol or code. Text
 * without any currency marker returns null unless the caller supplies `defaultCurrency` (e.g.
 * from the board's country) and the text also looks like pay (a salary word, a period, or a "k"
 * amount). When several amounts appear, the first range wins over single figures, because a
 * single figure next to a range is usually a bonus or a benefit.
 */

export interface ParseSalaryOptions {
  /** ISO code assumed for unmarked amounts; without it unmarked amounts are never pay. */
  defaultCurrency?: string;
  /**
   * What a bare "$" (and "kr") means where the posting's country is known: "$" is the US dollar
   * only by default, a Canadian posting's "$" is CAD. Prefixed symbols (CA$, A$, US$) and ISO
   * codes always win over this hint.
   */
  dollarCurrency?: string;
  /** The same for a bare "kr" (SEK, NOK, DKK or ISK); without it "kr" is not read as a currency. */
  kronaCurrency?: string;
}

/** A salary statement found in a text, with where it sits (for reading its context). */
export interface SalaryStatement extends SalaryRange {
  start: number;
  end: number;
  /** The currency symbol was a bare "$"/"kr" resolved through the caller's hint. */
  currencyFromHint?: boolean;
}

/** Symbols and prefixed dollars/yen. Longest first so "CA$" is not read as "$". */
const SYMBOLS: ReadonlyArray<readonly [string, string]> = [
  ['NT$', 'TWD'], ['CAD$', 'CAD'], ['AUD$', 'AUD'], ['US$', 'USD'], ['CA$', 'CAD'], ['AU$', 'AUD'], ['NZ$', 'NZD'],
  ['HK$', 'HKD'], ['SG$', 'SGD'], ['MX$', 'MXN'], ['CN¥', 'CNY'], ['JP¥', 'JPY'], ['C$', 'CAD'],
  ['A$', 'AUD'], ['S$', 'SGD'], ['R$', 'BRL'], ['$', 'USD'], ['€', 'EUR'], ['£', 'GBP'], ['¥', 'JPY'],
  ['₹', 'INR'], ['₩', 'KRW'], ['₽', 'RUB'], ['₺', 'TRY'], ['₪', 'ILS'], ['zł', 'PLN'], ['Rs.', 'INR'],
  ['Rs', 'INR'], ['RMB', 'CNY'], ['euros', 'EUR'], ['euro', 'EUR'], ['kr.', 'kr'], ['kr', 'kr'],
];

const CODES = [
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'INR', 'JPY', 'CNY', 'HKD', 'SGD', 'SEK', 'NOK',
  'DKK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'BRL', 'MXN', 'ZAR', 'ILS', 'KRW', 'RUB', 'TRY', 'AED',
  'TWD', 'ISK',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Codes and letter-prefixed symbols need a left boundary ("ABC$" is not "C$"); a code also needs
// a right boundary ("EURO" is not "EUR").
const LETTER_SYMBOLS = SYMBOLS.filter(([sym]) => /^[A-Za-z]/.test(sym)).map(([sym]) => escape(sym));
const SIGN_SYMBOLS = SYMBOLS.filter(([sym]) => !/^[A-Za-z]/.test(sym)).map(([sym]) => escape(sym));
// A sign needs no boundary: "Up to£55,000" and "30k€" are written without spaces.
const CURRENCY = `(?:(?<![A-Za-z])(?:${LETTER_SYMBOLS.join('|')})|(?:${SIGN_SYMBOLS.join('|')})|(?<![A-Za-z])(?:${CODES.join('|')})(?![A-Za-z]))`;
// Indian lakh grouping 12,00,000; then 1,234 / 1.234 / 1 234 / 1'234 (with optional 2-digit
// decimals); or a plain 1234 / 12.5.
const NUMBER = `\\d{1,2}(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?|\\d{1,3}(?:[,.'’\\u00a0\\u202f ]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d+)?`;
const AMOUNT_RE = new RegExp(
  `(?<pre>${CURRENCY})?[ \\u00a0]?(?<![A-Za-z0-9.,])(?<num>${NUMBER})(?![\\d%])(?:[ \\u00a0]?(?<k>k|thousand)(?![a-z]))?(?:[ \\u00a0]?(?<lakh>lakhs?|lacs?)(?![a-z]))?(?:[ \\u00a0]?(?<big>m|mm|mn|mio|million|millions|b|bn|billion)(?![a-z]))?(?:[ \\u00a0]?(?<post>${CURRENCY}))?`,
  'gi',
);

const RANGE_SEP_RE = /^\s*(?:-{1,2}|–|—|‒|―|to|bis|à|and)\s*$/i;
const UP_TO_RE = /(?:up\s*to|max(?:imum)?\.?|no more than|as much as|≤|<|(?:^|[|:(,])\s*to)\s*:?\s*$/i;
const FROM_RE = /(?:from|starting(?:\s+(?:at|from))?|min(?:imum)?\.?|at least|over|≥|>)\s*:?\s*$/i;
export const SALARY_CUE_RE = /\b(?:salary|salaries|compensation|pay|paid|rate|wage|wages|base|ote|stipend|remuneration|earn|lønn|gehalt|salaire)\b/i;

/** Period phrases directly after an amount, tried in order. */
const PERIOD_AFTER: ReadonlyArray<readonly [RegExp, SalaryPeriod]> = [
  [/^\s*(?:\/|per\s+|an?\s+|each\s+|every\s+)\s*(?:hour|hr)s?\b/i, 'hour'],
  [/^\s*(?:\/\s*h\b|p\/?h\b|hourly\b)/i, 'hour'],
  [/^\s*(?:\/|per\s+|an?\s+|each\s+)\s*(?:day|diem)\b/i, 'day'],
  [/^\s*(?:\/\s*d\b|daily\b|day\s+rate\b)/i, 'day'],
  [/^\s*(?:\/|per\s+|an?\s+|each\s+)\s*(?:week|wk)s?\b/i, 'week'],
  [/^\s*(?:\/\s*w\b|p\/?w\b|weekly\b)/i, 'week'],
  [/^\s*(?:\/|per\s+|an?\s+|each\s+)\s*(?:month|mo|mth)s?\b/i, 'month'],
  [/^\s*(?:\/\s*m\b|pcm\b|monthly\b)/i, 'month'],
  [/^\s*(?:\/|per\s+|an?\s+|each\s+)\s*(?:year|yr|annum)s?\b/i, 'year'],
  [/^\s*(?:\/\s*[ya]\b|p\.\s?a\.?|pa\b|annually\b|yearly\b|annual\b(?!\s+(?:bonus|leave|holiday))|per\s+annum\b)/i, 'year'],
  // German, Scandinavian, French and Chinese postings: "brutto/Jahr", "pro Jahr", "per år", "par an", "(年薪)", "/月".
  [/^\s*(?:brutto\s*|gross\s*)?(?:\/|pro\s+|per\s+|im\s+|par\s+|i\s+)\s*(?:jahr|år|an|année)\b/i, 'year'],
  [/^\s*(?:brutto\s*|gross\s*)?(?:\/|pro\s+|per\s+|im\s+|par\s+|i\s+)\s*(?:monat|måned|månad|mois)\b/i, 'month'],
  [/^\s*(?:brutto\s*)?(?:\/|pro\s+|per\s+|de\s+l')\s*(?:stunde|std|heure|time)\b/i, 'hour'],
  [/^\s*(?:年薪|\/\s*年)/, 'year'],
  [/^\s*(?:月薪|\/\s*月)/, 'month'],
];

/** Period words anywhere shortly before the amount ("Hourly rate: $55", "Annual salary: €60k"). */
const PERIOD_BEFORE: ReadonlyArray<readonly [RegExp, SalaryPeriod]> = [
  [/\b(?:hourly|per hour)\b/i, 'hour'],
  [/\b(?:daily|day rate|per day)\b/i, 'day'],
  [/\b(?:weekly|per week)\b/i, 'week'],
  [/\b(?:monthly|per month)\b/i, 'month'],
  [/\b(?:annual|annually|yearly|per year|per annum)\b/i, 'year'],
];

/**
 * Rough size of one currency unit relative to USD, used only to infer an unstated period from the
 * amount's magnitude (¥5,000 is an hourly wage, $5,000 a monthly one).
 */
export const UNIT_SCALE: Readonly<Record<string, number>> = {
  JPY: 150, KRW: 1300, INR: 80, HUF: 350, RUB: 90, CZK: 23, SEK: 10, NOK: 10, DKK: 7, ZAR: 18,
  MXN: 17, BRL: 5, TRY: 30, PLN: 4, CNY: 7, HKD: 8, RON: 4.5, BGN: 1.8, ILS: 3.7, AED: 3.7, TWD: 32, ISK: 140,
};

interface Amount {
  start: number;
  end: number;
  value: number;
  thousands: boolean;
  currency?: string;
  /** 1000 for "k", 100,000 for "lakh", else 1: applied to the other end of a range written once. */
  multiplier: number;
  /** The symbol as written ("$", "CA$", "€", "kr"), to tell a bare dollar from a specific one. */
  symbol?: string;
  fromHint: boolean;
}

export function parseSalaryText(text: string, options: ParseSalaryOptions = {}): SalaryRange | null {
  const first = findSalaryStatements(text, options)[0];
  if (!first) return null;
  const { start: _start, end: _end, currencyFromHint: _hint, ...range } = first;
  return range;
}

/**
 * Every salary statement of a text: the ranges first (in text order), then the single figures not
 * already part of a range. Callers that need to tell base pay from OTE, a bonus or a price read
 * each statement's surroundings through `start`/`end`.
 */
export function findSalaryStatements(text: string, options: ParseSalaryOptions = {}): SalaryStatement[] {
  if (!text) return [];
  const amounts = findAmounts(text, options);
  if (amounts.length === 0) return [];

  const marked = amounts.some((a) => a.currency !== undefined);
  let fallbackCurrency: string | undefined;
  if (!marked) {
    const cue = SALARY_CUE_RE.test(text) || amounts.some((a) => a.thousands) || amounts.some((a) => periodAfter(text, a.end));
    if (!options.defaultCurrency || !cue) return [];
    fallbackCurrency = options.defaultCurrency.toUpperCase();
  }

  // With an assumed currency, only amounts that look like pay qualify, so "5+ years" never does.
  const qualifies = (a: Amount) =>
    a.currency !== undefined || a.thousands || periodAfter(text, a.end) !== undefined || SALARY_CUE_RE.test(clauseBefore(text, a.start));

  const statements: SalaryStatement[] = [];
  const inRange = new Set<Amount>();
  for (let i = 0; i + 1 < amounts.length; i++) {
    const [first, second] = [amounts[i], amounts[i + 1]];
    const between = text.slice(first.end, second.start);
    if (!RANGE_SEP_RE.test(between)) continue;
    // "and" only joins a range after "between" ("between $50k and $60k"), not in lists.
    if (/and/i.test(between) && !/between\s*$/i.test(text.slice(Math.max(0, first.start - 12), first.start))) continue;
    const pair = pairCurrency(first, second);
    // "$100k or €90k" style alternatives in two currencies are not one range.
    if (pair === null) continue;
    const currency = pair ?? fallbackCurrency;
    if (!currency || !(qualifies(first) || qualifies(second))) continue;
    let [low, high] = [first.value, second.value];
    // "$120-150k", "₹5-15 lakhs": the "k" written once applies to both ends.
    if (second.multiplier > 1 && first.multiplier === 1 && low < 1000) low *= second.multiplier;
    if (first.multiplier > 1 && second.multiplier === 1 && high < 1000) high *= first.multiplier;
    if (low <= 0 || high <= 0) continue;
    const swapped = low > high;
    if (swapped) [low, high] = [high, low];
    // "Grade 6 - £28,142": a grade, step or count next to a figure is not the low end of a range.
    if (high / low > 20) continue;
    const statement = build(text, first.start, second.end, currency, low, high, low === high ? 'exact' : 'range', first.thousands || second.thousands);
    if (swapped) statement.swapped = true;
    if (first.fromHint || second.fromHint) statement.currencyFromHint = true;
    statements.push(statement);
    inRange.add(first).add(second);
    i += 1;
  }

  for (const amount of amounts) {
    if (inRange.has(amount)) continue;
    const currency = amount.currency ?? fallbackCurrency;
    if (!currency || amount.value <= 0 || !qualifies(amount)) continue;
    const before = clauseBefore(text, amount.start);
    let bound: SalaryBound = 'exact';
    let start = amount.start;
    let end = amount.end;
    const upTo = UP_TO_RE.exec(before);
    const qualifier = upTo ?? FROM_RE.exec(before);
    if (qualifier) {
      bound = upTo ? 'up_to' : 'from';
      // Keep the qualifier in `raw` ("up to $200k"), since it changes what the figure means.
      start -= before.length - qualifier.index;
    } else if (text[end] === '+') {
      bound = 'from';
      end += 1;
    } else if (/^\s*[-–]\s*(?:\(|$)/.test(text.slice(end, end + 6))) {
      // "NT$ 60000 - (月薪)": a range with its upper end left open.
      bound = 'from';
    }
    const statement = build(text, start, end, currency, amount.value, amount.value, bound, amount.thousands);
    if (amount.fromHint) statement.currencyFromHint = true;
    statements.push(statement);
  }
  return statements;
}

/**
 * The one currency of a range's two ends: undefined when neither end is marked, null when they
 * disagree. A bare "$" next to a specific dollar takes that dollar ("CA$110K – $140K" is CAD).
 */
function pairCurrency(first: Amount, second: Amount): string | undefined | null {
  const [a, b] = [first.currency, second.currency];
  if (!a || !b || a === b) return a ?? b;
  if (first.symbol === '$' && second.symbol?.endsWith('$')) return b;
  if (second.symbol === '$' && first.symbol?.endsWith('$')) return a;
  return null;
}

function findAmounts(text: string, options: ParseSalaryOptions): Amount[] {
  const amounts: Amount[] = [];
  const re = new RegExp(AMOUNT_RE.source, AMOUNT_RE.flags);
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    const groups = match.groups ?? {};
    const num = groups['num'];
    if (!num) continue;
    let length = match[0].length;
    let post: string | undefined = groups['post'];
    // "Band 7 £23,175": a symbol written before the next figure belongs to that figure, not to "7".
    if (post && !groups['pre'] && !CODES.includes(post.toUpperCase()) && /^[ \u00a0]?\d/.test(text.slice(match.index + length))) {
      length = match[0].slice(0, match[0].lastIndexOf(post)).trimEnd().length;
      post = undefined;
      re.lastIndex = match.index + length;
    }
    const thousands = groups['k'] !== undefined;
    // 401(k) retirement plans are the classic false positive for "k" amounts, and millions or
    // billions are funding, revenue or valuations ("$2M seed round"), not pay.
    if ((thousands && num === '401') || groups['big'] !== undefined) continue;
    let value = parseLocaleNumber(num);
    if (value === undefined) continue;
    if (thousands) value = Math.round(value * 1000 * 100) / 100;
    if (groups['lakh'] !== undefined) value = Math.round(value * 100_000);
    // "$110k CAD": a written code says more than a bare sign.
    const symbol = groups['pre'] && post && CODES.includes(post.toUpperCase()) ? post : (groups['pre'] ?? post);
    const resolved = symbol ? resolveSymbol(symbol, options) : undefined;
    amounts.push({
      start: match.index,
      end: match.index + length,
      value,
      thousands: thousands || groups['lakh'] !== undefined,
      multiplier: groups['lakh'] !== undefined ? 100_000 : thousands ? 1000 : 1,
      currency: resolved?.currency,
      symbol: symbol?.toUpperCase() === 'KR.' ? 'kr' : symbol,
      fromHint: resolved?.fromHint ?? false,
    });
  }
  return amounts;
}

function resolveSymbol(symbol: string, options: ParseSalaryOptions): { currency?: string; fromHint: boolean } {
  if (symbol === '$' && options.dollarCurrency) return { currency: options.dollarCurrency.toUpperCase(), fromHint: true };
  if (/^kr\.?$/i.test(symbol)) return options.kronaCurrency ? { currency: options.kronaCurrency.toUpperCase(), fromHint: true } : { fromHint: false };
  return { currency: currencyCode(symbol), fromHint: false };
}

/**
 * Reads "1,234.56", "1.234,56", "60.000", "1 234", "120'000" and "55.50". With one kind of
 * separator, a single separator followed by exactly three digits is a thousands separator (salary
 * figures like "60.000" are far more common than three-decimal amounts); otherwise a decimal point.
 */
export function parseLocaleNumber(raw: string): number | undefined {
  const s = raw.replace(/[\s'’\u00a0\u202f]/g, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let normalised: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    normalised = s.split(group).join('').replace(decimal, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    const grouping = parts.length > 2 || parts[1].length === 3;
    normalised = grouping ? parts.join('') : parts.join('.');
  } else {
    normalised = s;
  }
  if (!/^\d+(?:\.\d+)?$/.test(normalised)) return undefined;
  return Number(normalised);
}

function currencyCode(symbol: string): string {
  const upper = symbol.toUpperCase();
  if (CODES.includes(upper)) return upper;
  const entry = SYMBOLS.find(([s]) => s.toUpperCase() === upper);
  return entry ? entry[1] : upper;
}

function build(text: string, start: number, end: number, currency: string, min: number, max: number, bound: SalaryBound, thousands = false): SalaryStatement {
  const after = periodAfter(text, end);
  const period = after?.period ?? periodBefore(text, start);
  const rawEnd = after ? end + after.length : end;
  return {
    currency,
    min,
    max,
    period: period ?? inferPeriod(max, currency, thousands),
    raw: text.slice(start, rawEnd).trim(),
    bound,
    periodInferred: period === undefined,
    start,
    end: rawEnd,
  };
}

function periodAfter(text: string, end: number): { period: SalaryPeriod; length: number } | undefined {
  // "€42k+ p.a.", "(£26,403 - £27,254) per annum", "60,000 (月薪)": skip the sign or bracket between.
  const skipped = /^(?:\s*[+)(–-])*/.exec(text.slice(end, end + 6))?.[0].length ?? 0;
  const rest = text.slice(end + skipped, end + skipped + 40);
  for (const [re, period] of PERIOD_AFTER) {
    const match = re.exec(rest);
    if (match) return { period, length: skipped + match[0].length };
  }
  return undefined;
}

function periodBefore(text: string, start: number): SalaryPeriod | undefined {
  const before = clauseBefore(text, start);
  for (const [re, period] of PERIOD_BEFORE) if (re.test(before)) return period;
  return undefined;
}

/** Up to 40 characters before `start`, cut at the last sentence or line boundary. */
function clauseBefore(text: string, start: number): string {
  const window = text.slice(Math.max(0, start - 40), start);
  const cut = Math.max(window.lastIndexOf('\n'), window.lastIndexOf('. '), window.lastIndexOf(';'));
  return cut >= 0 ? window.slice(cut + 1) : window;
}

/**
 * Guesses an unstated period from magnitude (in USD-equivalent units): ≥ 10,000 a year, ≥ 2,000
 * a month, ≥ 300 a day, otherwise an hour. Callers see `periodInferred: true` and can ask the user.
 */
export function inferPeriod(max: number, currency: string, thousands = false): SalaryPeriod {
  const usd = max / (UNIT_SCALE[currency] ?? 1);
  // "₹480K-₹720K": a figure written in thousands is a yearly one from a lower level on.
  if (usd >= 10_000 || (thousands && usd >= 2_000)) return 'year';
  if (usd >= 2_000) return 'month';
  if (usd >= 300) return 'day';
  return 'hour';
}
