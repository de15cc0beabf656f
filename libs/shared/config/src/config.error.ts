/** One problem with one settings key. `key` is the dotted path (`llm.base_url`) or a pseudo-key in
 * parentheses (`(file)`, `(document)`, `(patch)`) when the problem is not tied to a single key. */
export interface ConfigIssue {
  key: string;
  value: unknown;
  rule: string;
}

const MAX_VALUE_CHARS = 80;

function renderValue(value: unknown): string {
  let text: string;
  if (value === undefined) {
    text = 'undefined';
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  // A pasted blob (a whole document under one key) would otherwise drown the rest of the message.
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

export function formatIssue(source: string, issue: ConfigIssue): string {
  return `${source}: "${issue.key}" = ${renderValue(issue.value)}: ${issue.rule}`;
}

/**
 * Thrown for anything wrong with the configuration. It always carries every issue found, not just
 * the first, so a user fixing config.json by hand sees the whole list in one run; the Settings API
 * maps `issues` to its 400 body.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: ConfigIssue[];
  readonly source: string;

  constructor(issues: ConfigIssue[], source = 'config.json') {
    super(issues.map((issue) => formatIssue(source, issue)).join('\n'));
    this.issues = issues;
    this.source = source;
  }
}

export function isConfigError(err: unknown): err is ConfigError {
  return err instanceof ConfigError;
}
