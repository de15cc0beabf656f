// The three states every page shows besides its data: loading, empty and error. One look everywhere,
// announced to screen readers (role=status / role=alert).
import type { ReactNode } from 'react';
import { describeApiError, errorsFor, type ApiError } from '../api/http';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      {children}
    </div>
  );
}

/** An error banner with an optional retry button. */
export function ErrorBanner({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <span>{describeApiError(error)}</span>
      {error.blockers.length > 1 && (
        <ul>
          {error.blockers.map((b) => (
            <li key={b}>
              <code>{b}</code>
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/**
 * The 400 field errors for one form field, rendered next to it. Give the input
 * `aria-describedby={fieldErrorId(field)}` so the message is read with the control.
 */
export function FieldErrors({ error, field }: { error: ApiError | null; field: string }) {
  const mine = errorsFor(error, field);
  if (mine.length === 0) return null;
  return (
    <span className="field-error" id={fieldErrorId(field)} role="alert">
      {mine.map((f) => (f.field === field ? f.rule : `${f.field}: ${f.rule}`)).join('; ')}
    </span>
  );
}

export const fieldErrorId = (field: string) => `err-${field.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
