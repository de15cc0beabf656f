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
  ['₹', 'INR'], ['₩', 'KRW'], ['₽', 'RUB'], ['₺', 'TRY'], ['₪', 'ILS'], ['₱', 'PHP'], ['₫', 'VND'],
  ['₦', 'NGN'], ['₴', 'UAH'], ['₸', 'KZT'], ['฿', 'THB'], ['zł', 'PLN'], ['Kč', 'CZK'], ['руб.', 'RUB'],
  ['руб', 'RUB'], ['Rs.', 'INR'], ['Rs', 'INR'], ['RMB', 'CNY'], ['euros', 'EUR'], ['euro', 'EUR'],
  ['kr.', 'kr'], ['kr', 'kr'],
];

const CODES = [
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'INR', 'JPY', 'CNY', 'HKD', 'SGD', 'SEK', 'NOK',
  'DKK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'BRL', 'MXN', 'ZAR', 'ILS', 'KRW', 'RUB', 'TRY', 'AED',
  'TWD', 'ISK', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR', 'KZT', 'UAH', 'BYN', 'UZS', 'KGS', 'VND', 'PHP', 'IDR',
  'MYR', 'THB', 'PKR', 'BDT', 'LKR', 'NGN', 'KES', 'GHS', 'EGP', 'MAD', 'TND', 'ARS', 'CLP', 'COP', 'PEN',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Codes and letter-prefixed symbols need a left boundary ("ABC$" is not "C$"); a code also needs
// a right boundary ("EURO" is not "EUR").
const LETTER_SYMBOLS = SYMBOLS.filter(([sym]) => /^\p{L}/u.test(sym)).map(([sym]) => escape(sym));
const SIGN_SYMBOLS = SYMBOLS.filter(([sym]) => !/^\p{L}/u.test(sym)).map(([sym]) => escape(sym));
// A sign needs no boundary: "Up to£55,000" and "30k€" are written without spaces.
const CURRENCY = `(?:(?<![A-Za-z])(?:${LETTER_SYMBOLS.join('|')})|(?:${SIGN_SYMBOLS.join('|')})|(?<![A-Za-z])(?:${CODES.join('|')})(?![A-Za-z]))`;
// Indian lakh grouping 12,00,000; then 1,234 / 1.234 / 1 234 / 1'234 (with optional 2-digit
// decimals); or a plain 1234 / 12.5.
const NUMBER = `\\d{1,2}(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?|\\d{1,3}(?:[,.'’\\u00a0\\u202f ]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d+)?`;
// A unit letter ends where no letter follows, Latin or Cyrillic too ("52 000 Kč" is not 52,000 k).
const LATIN_CYRILLIC = '\\u00c0-\\u024f\\u0400-\\u04ff';
const AMOUNT_RE = new RegExp(
  `(?<pre>${CURRENCY})?[ \\u00a0]?(?<![A-Za-z0-9.,])(?<num>${NUMBER})(?![\\d%])(?:[ \\u00a0]?(?<k>k|thousand)(?![a-z${LATIN_CYRILLIC}]))?(?:[ \\u00a0]?(?:(?<lakh>lpa|lakhs?|lacs?|l)|(?<crore>crores?|cr))(?![a-z${LATIN_CYRILLIC}]))?(?:[ \\u00a0]?(?<big>m|mm|mn|mio|million|millions|b|bn|billion)(?![a-z${LATIN_CYRILLIC}]))?(?:[ \\u00a0]?(?<post>${CURRENCY}))?`,
  'gi',
);

// "to" in the languages postings are written in: "bis" (de), "à" (fr), "a"/"hasta" (es), "a"/"até"
// (pt), "do" (pl, "od X do Y"), "tot" (nl), "till" (sv), "~" and "〜" (zh/ja), "..".
const RANGE_SEP_RE = /^\s*(?:-{1,2}|–|—|‒|―|~|～|〜|\.\.|to|bis|à|a|hasta|até|do|tot|till|and|und|et|y|e|och|og|en|i)\s*$/i;
/** Conjunctions that join a range only after "between" in some language ("zwischen 16 € und 20 €"). */
const AND_SEP_RE = /^\s*(?:and|und|et|y|e|och|og|en|i)\s*$/i;
const BETWEEN_RE = /\b(?:between|zwischen|entre|tra|fra|mellan|mellom|tussen|mezi|pomiędzy|między)\s*$/i;
// Open bounds before a figure: "up to", "bis zu", "jusqu'à", "hasta", "até", "fino a", "tot", "upp
// till", "do" (pl); "from", "ab", "von", "à partir de", "a partir de", "desde", "od", "vanaf", "från".
const UP_TO_RE = /(?:up\s*to|max(?:imum|imal)?\.?|no more than|as much as|bis(?:\s+zu)?|höchstens|jusqu['’]\s?à|hasta|até|fino\s+a|tot|upp\s+till|\bdo|≤|<|(?:^|[|:(,])\s*to)\s*:?\s*$/i;
const FROM_RE = /(?:from|starting(?:\s+(?:at|from))?|min(?:imum)?\.?|at least|over|\bab|\bvon|mindestens|[àa] partir de|desde|\bod|vanaf|från|≥|>)\s*:?\s*$/i;
/** Open upper bounds after a figure: "+", "and above", "or more", "oder mehr", "et plus", "o más", "ou mais", "lub więcej". */
const AND_ABOVE_RE = /^(?:\+|\s*(?:and|or)\s+(?:above|more|up|higher)\b|oder\s+mehr\b|et\s+plus\b|ou\s+plus\b|o\s+más\b|ou\s+mais\b|lub\s+więcej\b)/i;
/**
 * Words that say a figure is pay, in the languages postings are written in: English, German, French,
 * Spanish, Portuguese, Italian, Dutch, the Scandinavian languages, Polish, Czech, Finnish, Russian,
 * Japanese, Chinese and Vietnamese. Letters on both sides end a word ("\\b" knows only ASCII).
 */
export const SALARY_CUE_RE = new RegExp(
  `(?<![\\p{L}])(?:${[
    'salary', 'salaries', 'compensation', 'pay', 'paid', 'rate', 'wage', 'wages', 'base', 'ote', 'stipend', 'remuneration', 'earn', 'earnings', 'income',
    'gehalt', 'gehälter', 'lohn', 'stundenlohn', 'vergütung', 'entgelt', 'bruttogehalt', 'jahresgehalt', 'monatsgehalt', 'einstiegsgehalt', 'verdienst',
    'salaire', 'rémunération', 'paie', 'salario', 'sueldo', 'retribución', 'remuneración', 'salário', 'remuneração',
    'stipendio', 'retribuzione', 'RAL', 'compenso', 'salaris', 'loon', 'lön', 'månadslön', 'timlön', 'lønn', 'løn', 'månedsløn',
    'wynagrodzenie', 'pensja', 'płaca', 'stawka', 'zarobki', 'mzda', 'plat', 'palkka', 'kuukausipalkka', 'tuntipalkka',
    'зарплата', 'заработная', 'оклад', 'з/п', 'lương',
  ].join('|')})(?![\\p{L}])|給与|年収|月給|時給|薪|工资|待遇`,
  'iu',
);

/**
 * Period words by language: English, German, French, Spanish, Portuguese, Italian, Dutch, Swedish,
 * Norwegian/Danish, Polish and Czech, full and abbreviated ("Std.", "mies.", "godz.", "mån").
 */
const UNIT_WORDS: ReadonlyArray<readonly [SalaryPeriod, string]> = [
  ['hour', 'hours?|hrs?|h|stunden?|std\\.?|heures?|horas?|ora|uur|timmen?|tim|timen|godz\\.?|godzin[aęy]?|hod\\.?|hodinu'],
  ['day', 'days?|diem|tag|jours?|d[ií]as?|giorno|dag(?:en)?|dzie[nń]|dniówka|den'],
  ['week', 'weeks?|wk|woche|semaines?|semanas?|settimana|veckan?|uke|tydzie[nń]|týden'],
  ['month', 'months?|mo|mth|monat|mois|mes|mês|mese|maand|månad(?:en)?|mån|måned(?:en)?|mies\\.?|miesiąc|mc|msc|měsíc|měs\\.?'],
  ['year', 'years?|yr|annum|jahr|an|année|año|ano|anno|jaar|år(?:et)?|rok|roku'],
];
/** Words that say the period on their own ("monthly", "monatlich", "miesięcznie", "p.a."). */
const PERIOD_ADVERBS: ReadonlyArray<readonly [SalaryPeriod, string]> = [
  ['hour', 'hourly|stündlich|p\\/?hr?'],
  ['day', 'daily|day\\s+rate|täglich|dziennie|diario'],
  ['week', 'weekly|pw|p\\/w|wöchentlich|hebdomadaire|semanal|settimanale|wekelijks|tygodniowo'],
  ['month', 'monthly|pcm|monatlich|mtl\\.?|mensuel(?:le)?|mensual(?:es)?|mensal|mensile|maandelijks|i månaden|per måned|miesięcznie|měsíčně'],
  ['year', 'p\\.\\s?a\\.?|pa|per annum|annually|yearly|annual(?!\\s+(?:bonus|leave|holiday))|jährlich|annuel(?:le)?|anual(?:es)?|annuo|annuale|jaarlijks|årligen|rocznie|ročně'],
];
/** Gross/net words that may stand between a figure and its period ("zł brutto / mies.", "€ brut par an"). */
const GROSS_NET = '(?:(?:brutto|netto|gross|net|brut|bruto|neto|lordi|netti)\\s*(?:\\(\\+\\s*VAT\\)\\s*)?)?';
// "per", "pro", "par", "por", "al", "a", "an", "each", "every", "die" (de), "im", "i", "za", "na", "om", "la", "el".
const PER = '(?:\\/|\\b(?:per|pro|par|por|al|a|an|each|every|die|der|im|i|za|na|om|la|el|the)\\s+)';

/** Period phrases directly after an amount, tried in order. */
const PERIOD_AFTER: ReadonlyArray<readonly [RegExp, SalaryPeriod]> = [
  ...UNIT_WORDS.map(([period, words]) => [new RegExp(`^\\s*${GROSS_NET}${PER}\\s*(?:${words})(?![\\p{L}])\\.?`, 'iu'), period] as const),
  ...PERIOD_ADVERBS.map(([period, words]) => [new RegExp(`^\\s*${GROSS_NET}(?:${words})(?![\\p{L}])`, 'iu'), period] as const),
  [/^\s*(?:\/\s*[ya]\b)/i, 'year'],
  [/^\s*(?:\/\s*d\b)/i, 'day'],
  [/^\s*(?:\/\s*m\b)/i, 'month'],
  [/^\s*(?:brutto\s*)?(?:de\s+l')\s*heure\b/i, 'hour'],
  [/^\s*(?:年薪|\/\s*年)/, 'year'],
  [/^\s*(?:月薪|\/\s*月)/, 'month'],
];

/** Period words anywhere shortly before the amount ("Hourly rate: $55", "Annual salary: €60k", "Stundenlohn 16 €"). */
const PERIOD_BEFORE: ReadonlyArray<readonly [RegExp, SalaryPeriod]> = [
  [/\b(?:hourly|per hour|stundenlohn|stundensatz|taux horaire|tarif horaire|salario por hora|stawka godzinowa|uurloon|timlön)/i, 'hour'],
  [/\b(?:daily|day rate|per day|tagessatz|tjm|stawka dzienna|dagtarief)/i, 'day'],
  [/\b(?:weekly|per week|wochenlohn)\b/i, 'week'],
  [/\b(?:monthly|per month|monatsgehalt|monatlich|bruttomonatsgehalt|salaire mensuel|sueldo mensual|salário mensal|stipendio mensile|maandsalaris|månadslön|månedsløn|månedslønn|wynagrodzenie miesięczne|měsíční mzda)/i, 'month'],
  [/\b(?:annual|annually|yearly|per year|per annum|jahresgehalt|bruttojahresgehalt|jährlich|salaire annuel|sueldo anual|salário anual|RAL|retribuzione annua|jaarsalaris|årslön|årsløn|årslønn|wynagrodzenie roczne)/i, 'year'],
];

/**
 * Rough size of one currency unit relative to USD, used only to infer an unstated period from the
 * amount's magnitude (¥5,000 is an hourly wage, $5,000 a monthly one).
 */
export const UNIT_SCALE: Readonly<Record<string, number>> = {
  JPY: 150, KRW: 1300, INR: 80, HUF: 350, RUB: 90, CZK: 23, SEK: 10, NOK: 10, DKK: 7, ZAR: 18,
  MXN: 17, BRL: 5, TRY: 30, PLN: 4, CNY: 7, HKD: 8, RON: 4.5, BGN: 1.8, ILS: 3.7, AED: 3.7, TWD: 32, ISK: 140,
  SAR: 3.75, QAR: 3.64, KWD: 0.31, BHD: 0.38, OMR: 0.38, KZT: 480, UAH: 41, BYN: 3.3, UZS: 12_500, KGS: 87,
  VND: 25_000, PHP: 56, IDR: 16_000, MYR: 4.5, THB: 35, PKR: 280, BDT: 120, LKR: 300, NGN: 1500, KES: 130,
  GHS: 15, EGP: 48, MAD: 10, TND: 3.1, ARS: 900, CLP: 950, COP: 4000, PEN: 3.7,
};

/** Currencies whose postings state monthly pay by custom (Central and Eastern Europe, Türkiye, Brazil). */
const MONTHLY_QUOTED: ReadonlySet<string> = new Set(['PLN', 'CZK', 'HUF', 'RON', 'BGN', 'RUB', 'UAH', 'BYN', 'KZT', 'TRY', 'BRL']);

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
  /** Written in "LPA" (lakh per annum): the unit says the period. */
  perAnnum?: boolean;
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
    // "and" only joins a range after "between" ("between $50k and $60k", "zwischen 16 € und 20 €"), not in lists.
    if (AND_SEP_RE.test(between) && !BETWEEN_RE.test(text.slice(Math.max(0, first.start - 14), first.start))) continue;
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
    const statement = build(text, first.start, second.end, currency, low, high, low === high ? 'exact' : 'range', first.thousands || second.thousands, first.perAnnum || second.perAnnum);
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
    } else if (AND_ABOVE_RE.test(text.slice(end, end + 20))) {
      bound = 'from';
      end += (AND_ABOVE_RE.exec(text.slice(end, end + 20)) as RegExpExecArray)[0].length;
    } else if (/^\s*[-–]\s*(?:\(|$)/.test(text.slice(end, end + 6))) {
      // "NT$ 60000 - (月薪)": a range with its upper end left open.
      bound = 'from';
    }
    const statement = build(text, start, end, currency, amount.value, amount.value, bound, amount.thousands, amount.perAnnum);
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
    // "$110k CAD": a written code says more than a bare sign.
    const symbol = groups['pre'] && post && CODES.includes(post.toUpperCase()) ? post : (groups['pre'] ?? post);
    const resolved = symbol ? resolveSymbol(symbol, options) : undefined;
    const indian = indianUnit(groups['lakh'], groups['crore'], resolved?.currency);
    if (thousands) value = Math.round(value * 1000 * 100) / 100;
    if (indian) value = Math.round(value * indian.multiplier);
    // Lakh and crore are Indian units: "12 LPA" or "12 lakhs per annum" is rupees even unwritten, but
    // "10 lakh merchants" is a count, so an unmarked lakh needs "LPA" or a period right after it.
    const end = match.index + length;
    const impliedRupees = indian && !resolved?.currency && (indian.perAnnum || periodAfter(text, end) !== undefined);
    amounts.push({
      start: match.index,
      end,
      value,
      thousands: thousands || indian !== undefined,
      multiplier: indian ? indian.multiplier : thousands ? 1000 : 1,
      currency: impliedRupees ? 'INR' : resolved?.currency,
      symbol: symbol?.toUpperCase() === 'KR.' ? 'kr' : symbol,
      fromHint: resolved?.fromHint ?? false,
      perAnnum: indian?.perAnnum,
    });
  }
  return amounts;
}

/**
 * The Indian unit written after a figure: a lakh is 100,000 and a crore 10,000,000; "LPA" is lakh per
 * annum. A bare "L" counts as a lakh only after rupees ("₹12L"): elsewhere it is too short to trust.
 */
function indianUnit(lakh: string | undefined, crore: string | undefined, currency: string | undefined): { multiplier: number; perAnnum: boolean } | undefined {
  if (crore !== undefined) return { multiplier: 10_000_000, perAnnum: false };
  if (lakh === undefined || (lakh.toLowerCase() === 'l' && currency !== 'INR')) return undefined;
  return { multiplier: 100_000, perAnnum: lakh.toLowerCase() === 'lpa' };
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

function build(text: string, start: number, end: number, currency: string, min: number, max: number, bound: SalaryBound, thousands = false, perAnnum = false): SalaryStatement {
  const after = periodAfter(text, end);
  const period = after?.period ?? (perAnnum ? 'year' : periodBefore(text, start));
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
  // "₹480K-₹720K": a figure written in thousands is a yearly one from a lower level on, except in
  // currencies whose postings quote monthly pay ("15k–20k PLN", "PLN 18–24k" are monthly).
  if (usd >= 10_000 || (thousands && usd >= 2_000 && !MONTHLY_QUOTED.has(currency))) return 'year';
  if (usd >= 2_000) return 'month';
  if (usd >= 300) return 'day';
  return 'hour';
}
