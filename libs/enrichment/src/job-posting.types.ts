/**
 * The fields enrichment extracts from a schema.org JobPosting. Everything except `title` is
 * optional because real postings omit most of them; absent fields are left out (not set to
 * null) so the object serialises compactly and "unknown" is never confused with a real value.
 */
export interface JobPostingFields {
  title: string;
  /** Readable text (see htmlToReadableText): paragraphs separated by blank lines, no HTML. */
  description?: string;
  /** As published (normally ISO 8601); not reinterpreted, because time zones are often missing. */
  datePosted?: string;
  validThrough?: string;
  /** Normalised to schema.org's upper-snake vocabulary, e.g. "Full-time" → "FULL_TIME". */
  employmentType: string[];
  hiringOrganization?: string;
  /** Human-readable "Locality, Region, Country" strings, deduplicated, in published order. */
  locations: string[];
  /** Raw jobLocationType values, e.g. ["TELECOMMUTE"]. */
  jobLocationType: string[];
  /** True only when the posting declares TELECOMMUTE; false means "not declared", not "on-site". */
  remote: boolean;
  /** Where remote applicants must be (applicantLocationRequirements names), if stated. */
  applicantLocations: string[];
  baseSalary?: JobPostingSalary;
  /** The `baseSalary` MonetaryAmount exactly as the page published it (the compensation refresh reads it). */
  baseSalaryRaw?: unknown;
  directApply?: boolean;
  identifier?: string;
}

/**
 * schema.org MonetaryAmount flattened. A single `value` fills both min and max; an open-ended
 * range keeps only the side that was published. At least one of min/max is always present.
 */
export interface JobPostingSalary {
  currency?: string;
  min?: number;
  max?: number;
  /** schema.org unitText upper-cased: HOUR, DAY, WEEK, MONTH or YEAR (others passed through). */
  unitText?: string;
}
