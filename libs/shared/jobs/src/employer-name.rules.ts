/**
 * Employer names versus job-board tokens. Greenhouse, Lever and Ashby address a board by a token
 * ("acme", "globex-labs"); when neither the user (a source's `company_name`) nor the board names the
 * employer, the token is all a posting carries, and a letter would open "Dear acme hiring team".
 *
 * A token is one lower-case word of ASCII letters and digits, optionally joined by '-' or '_'.
 * Employers write their names with capitals, spaces or punctuation ("Acme Labs", "ACME", "Acme,
 * Inc.", "monday.com"), so those never count as tokens.
 *
 * Job identity does not depend on this: a job found by a token keeps its keys when it later learns
 * the employer's name (see JobRepository.adoptEmployerName).
 */
const BOARD_TOKEN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export function looksLikeBoardToken(company: string): boolean {
  const name = company.trim();
  return BOARD_TOKEN.test(name) && /[a-z]/.test(name);
}
