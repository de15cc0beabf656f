/**
 * Temporal workflow ids for apply runs: `apply-{tenant}-{jobKey}`.
 *
 * The id is deterministic on purpose. Temporal refuses to start a second running workflow with
 * the same id, so a double-clicked "Apply" or a retried API call cannot launch two browser
 * sessions for the same job — the id is the first line of defence against a duplicate
 * submission. Both parts are restricted to a conservative grammar so the id is safe in logs,
 * URLs, search attributes and file names, and so no part can smuggle in another id's structure
 * (whitespace, slashes, control characters).
 *
 * Caveat: "-" is allowed in both parts, so the id is not reversible and, in principle, two pairs
 * can produce the same id ("a-b" + "c" and "a" + "b-c"). Tenant ids and job keys must therefore
 * come from generators that cannot collide that way (e.g. tenant ids without "-"); callers must
 * never parse the id back into its parts.
 */
const SAFE_PART = /^[A-Za-z0-9._:-]+$/;

export const APPLY_WORKFLOW_ID_PREFIX = 'apply';

export class InvalidWorkflowIdPartError extends Error {
  constructor(
    readonly part: 'tenant' | 'jobKey',
    readonly value: unknown,
  ) {
    super(
      `Invalid ${part} for apply workflow id: ${describe(value)}; ` +
        'it must be a non-empty string of letters, digits, ".", "_", ":" or "-"',
    );
    this.name = 'InvalidWorkflowIdPartError';
  }
}

export function applyWorkflowId(tenant: string, jobKey: string): string {
  assertSafePart('tenant', tenant);
  assertSafePart('jobKey', jobKey);
  return `${APPLY_WORKFLOW_ID_PREFIX}-${tenant}-${jobKey}`;
}

function assertSafePart(part: 'tenant' | 'jobKey', value: unknown): void {
  if (typeof value !== 'string' || !SAFE_PART.test(value)) throw new InvalidWorkflowIdPartError(part, value);
}

/** Shows the bad value without letting control characters or huge strings into logs. */
function describe(value: unknown): string {
  if (typeof value !== 'string') return `expected a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length === 0) return 'empty string';
  const shown = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  return `got ${shown}`;
}
