export type { SalaryBound, SalaryPeriod, SalaryRange } from './salary.types';
export { parseLocaleNumber, parseSalaryText, type ParseSalaryOptions } from './salary.parser';
export { DEFAULT_ANNUALIZE_OPTIONS, annualize, type AnnualizeOptions } from './annualize.rules';
