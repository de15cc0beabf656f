import type { CompensationRowInput } from './compensation.types';
import type { CompensationSourceRow } from './compensation-identity';
import { ashbyRows, greenhouseRows, jobSpyRows, jsonLdBaseSalaryRows, leverRows, remoteOkRows, smartRecruitersRows, workableRows } from './compensation.structured';
import { countryCode } from './country-currency.rules';
import { SALARY_CUE_RE, findSalaryStatements } from './salary.parser';

/**
 * A compensation statement as a source adapter captured it, stored with the source posting it came
 * from (job_sources.compensation_json). Adapters keep the board's raw value and do not interpret it
 * (a domain lib cannot use another's rules); `fieldPath` names the shape, and this lib reads it:
 *
 * | fieldPath | value |
 * |---|---|
 * | `ashby.compensation` | Ashby's `compensation` object |
 * | `lever.salaryRange` | Lever's `salaryRange {min, max, currency, interval}` |
 * | `greenhouse.pay_input_ranges` | Greenhouse's `pay_input_ranges` array (pay_transparency=true) |
 * | `remoteok.salary_min_max` | `{salary_min, salary_max}` (yearly USD, 0 = none) |
 * | `workable.salary` | Workable's `salary` (object or text) |
 * | `smartrecruiters.compensation` | SmartRecruiters' `compensation {min, max, currency, period}` (object or text) |
 * | `jobspy.amounts` | a JobSpy row's `{min_amount, max_amount, currency, interval}` |
 * | `jsonld.baseSalary` | a JSON-LD JobPosting's `baseSalary` (MonetaryAmount) |
 * | anything else | the statement's text (`lever.salaryDescription`, `remotive.salary`, `greenhouse.metadata.Salary Range`, …) |
 */
export interface StoredCompensationStatement {
  fieldPath: string;
  value: unknown;
}

/** What a refresh knows about one job: its sources' statements and the texts the job store keeps. */
export interface JobCompensationInputs {
  jobKey: string;
  location: string | null;
  salaryText: string | null;
  descriptionText: string | null;
  /** In first-seen order; `statements` null when the source predates statement collection. */
  sources: Array<{ sourceId: string; externalId: string; statements: StoredCompensationStatement[] | null }>;
  /** What the posting page itself states (its JSON-LD baseSalary), attributed to the job's first source. */
  pageStatements?: StoredCompensationStatement[] | null;
}

/** At most this many description sentences per job: a salary is stated once or twice, not twenty times. */
const MAX_DESCRIPTION_ROWS = 4;

/**
 * Every compensation statement of a job, each with its exact source identity: the statements each
 * source gave as data or text (collected by its adapter), the job's salary text when no source gave
 * statements (jobs stored before statements were collected), and the description's sentences that
 * state pay. The posting's country (from its location, when it names one) tells what a bare "$" is.
 */
export function compensationRowsOf(job: JobCompensationInputs): CompensationSourceRow[] {
  const country = countryOfLocation(job.location) ?? null;
  const rows: CompensationSourceRow[] = [];
  for (const source of job.sources) {
    for (const statement of source.statements ?? []) {
      for (const row of statementRows(statement, country, job.descriptionText)) {
        const fieldPath = row.field ?? statement.fieldPath;
        rows.push({ ...row, sourceId: source.sourceId, externalJobId: source.externalId, fieldPath, field: fieldPath, country });
      }
    }
  }
  const first = job.sources[0];
  if (!first) return rows;
  for (const statement of job.pageStatements ?? []) {
    for (const row of statementRows(statement, country)) {
      const fieldPath = row.field ?? statement.fieldPath;
      rows.push({ ...row, sourceId: first.sourceId, externalJobId: first.externalId, fieldPath, field: fieldPath, country });
    }
  }
  if (rows.length === 0 && job.salaryText?.trim()) {
    rows.push({ sourceId: first.sourceId, externalJobId: first.externalId, fieldPath: 'salary_text', field: 'salary_text', text: job.salaryText.trim(), country });
  }
  for (const sentence of salarySentences(job.descriptionText ?? '').slice(0, MAX_DESCRIPTION_ROWS)) {
    rows.push({ sourceId: first.sourceId, externalJobId: first.externalId, fieldPath: 'description', field: 'description', text: sentence, country });
  }
  return rows;
}

/**
 * The rows one captured statement gives, by its shape (see StoredCompensationStatement). The
 * posting's text tells a Greenhouse range's interval, which the range itself does not state.
 */
export function statementRows(statement: StoredCompensationStatement, country: string | null, postingText?: string | null): CompensationRowInput[] {
  const { fieldPath, value } = statement;
  switch (fieldPath) {
    case 'ashby.compensation':
      return ashbyRows(value, country);
    case 'lever.salaryRange':
      return leverRows({ salaryRange: value }, country);
    case 'greenhouse.pay_input_ranges':
      return greenhouseRows(value, country, postingText);
    case 'remoteok.salary_min_max':
      return remoteOkRows(value);
    case 'workable.salary':
      return workableRows(value, country);
    case 'jsonld.baseSalary':
      return jsonLdBaseSalaryRows(value, country);
    case 'smartrecruiters.compensation':
      return smartRecruitersRows(value, country);
    case 'jobspy.amounts':
      return jobSpyRows(value, country);
    default:
      return typeof value === 'string' && value.trim() ? [{ text: value.trim(), field: fieldPath, country }] : [];
  }
}

/**
 * The sentences (or lines) of a description that state pay: a currency figure, or a pay word next
 * to a figure. Each is a row of its own, so one edited paragraph does not change the others'
 * identities, and a model step reads one statement instead of the whole posting.
 */
export function salarySentences(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\n+|(?<=[.!?])\s+(?=[A-Z])/)) {
    const sentence = raw.replace(/\s+/g, ' ').trim();
    if (sentence.length < 4 || sentence.length > 600 || !/\d/.test(sentence)) continue;
    const stated = findSalaryStatements(sentence).length > 0 || (SALARY_CUE_RE.test(sentence) && /\d+\s?k\b|\d{2,3}[,.' ]\d{3}/i.test(sentence));
    if (stated && !out.includes(sentence)) out.push(sentence);
  }
  return out;
}

const COUNTRY_TOKENS: Readonly<Record<string, string>> = { us: 'US', usa: 'US', 'u.s.': 'US', uk: 'GB', 'u.k.': 'GB' };

/**
 * The country a location names, or undefined. Only country names (and US/USA/UK) count: a trailing
 * two-letter part is usually a US state ("San Francisco, CA"), not Canada.
 */
export function countryOfLocation(location: string | null | undefined): string | undefined {
  if (!location) return undefined;
  const parts = location.split(/[,;/()|–-]+/).map((p) => p.trim().toLowerCase()).filter(Boolean).reverse();
  for (const part of parts) {
    const token = COUNTRY_TOKENS[part];
    if (token) return token;
    if (part.length > 2) {
      const code = countryCode(part);
      if (code) return code;
    }
  }
  return undefined;
}
