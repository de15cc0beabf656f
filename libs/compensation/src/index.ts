export type { SalaryBound, SalaryPeriod, SalaryRange } from './salary.types';
export { findSalaryStatements, parseLocaleNumber, parseSalaryText, type ParseSalaryOptions, type SalaryStatement } from './salary.parser';
export { DEFAULT_ANNUALIZE_OPTIONS, annualize, type AnnualizeOptions } from './annualize.rules';
export type * from './compensation.types';
export { DECISION_THRESHOLD, PARSER_VERSION, determineCompensation } from './compensation.determination';
export { summarizeCompensation, type CompensationSummary, type DeterminedRow } from './compensation.summary';
export { ashbyRows, greenhouseRows, intervalOf, jsonLdBaseSalaryRows, leverRows, remoteOkRows, workableRows } from './compensation.structured';
export { countryCurrency, dollarCurrencyOf, kronaCurrencyOf } from './country-currency.rules';
