/**
 * The local currency of a posting's country, used only where the text leaves the currency open: a
 * bare "$" (a Canadian posting's "$120,000" is CAD, not USD), a bare "kr", or figures with no
 * currency at all ("SALARY: 100-140k" on a New York posting). A written code or prefixed symbol
 * (CA$, US$, EUR) always wins. Countries are ISO 3166 alpha-2 codes or their English names, as
 * boards give them.
 */
const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', HK: 'HKD', SG: 'SGD', MX: 'MXN', TW: 'TWD', AR: 'ARS',
  CL: 'CLP', CO: 'COP', BR: 'BRL', GB: 'GBP', UK: 'GBP', IE: 'EUR', DE: 'EUR', AT: 'EUR', FR: 'EUR',
  NL: 'EUR', BE: 'EUR', LU: 'EUR', ES: 'EUR', PT: 'EUR', IT: 'EUR', FI: 'EUR', EE: 'EUR', LV: 'EUR',
  LT: 'EUR', GR: 'EUR', SK: 'EUR', SI: 'EUR', HR: 'EUR', MT: 'EUR', CY: 'EUR', CH: 'CHF', SE: 'SEK',
  NO: 'NOK', DK: 'DKK', IS: 'ISK', PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', BG: 'BGN', IN: 'INR',
  JP: 'JPY', CN: 'CNY', KR: 'KRW', IL: 'ILS', AE: 'AED', ZA: 'ZAR', TR: 'TRY',
};

const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  'united states': 'US', usa: 'US', 'united states of america': 'US', canada: 'CA', australia: 'AU',
  'new zealand': 'NZ', 'hong kong': 'HK', singapore: 'SG', mexico: 'MX', taiwan: 'TW', brazil: 'BR',
  'united kingdom': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', ireland: 'IE', germany: 'DE',
  austria: 'AT', france: 'FR', netherlands: 'NL', 'the netherlands': 'NL', belgium: 'BE', spain: 'ES',
  portugal: 'PT', italy: 'IT', finland: 'FI', switzerland: 'CH', sweden: 'SE', norway: 'NO',
  denmark: 'DK', iceland: 'IS', poland: 'PL', 'czech republic': 'CZ', czechia: 'CZ', hungary: 'HU',
  romania: 'RO', india: 'IN', japan: 'JP', china: 'CN', israel: 'IL', 'south africa': 'ZA',
};

/** ISO alpha-2 code of a country code or name, or undefined when unknown. */
export function countryCode(country: string | null | undefined): string | undefined {
  if (!country) return undefined;
  const trimmed = country.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return trimmed.toUpperCase();
  return COUNTRY_NAMES[trimmed.toLowerCase()];
}

/** The local currency of a country, or undefined when unknown. */
export function countryCurrency(country: string | null | undefined): string | undefined {
  const code = countryCode(country);
  return code ? COUNTRY_CURRENCY[code] : undefined;
}

/** What a bare "$" means in that country: its own dollar (or peso) where it has one. */
export function dollarCurrencyOf(country: string | null | undefined): string | undefined {
  const currency = countryCurrency(country);
  return currency && ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'TWD', 'ARS', 'CLP', 'COP'].includes(currency) ? currency : undefined;
}

/** What a bare "kr" means in that country. */
export function kronaCurrencyOf(country: string | null | undefined): string | undefined {
  const currency = countryCurrency(country);
  return currency && ['SEK', 'NOK', 'DKK', 'ISK'].includes(currency) ? currency : undefined;
}
