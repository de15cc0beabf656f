// One labelled control with its 400 field errors beside it: the label names the control, the error
// is tied to it with aria-describedby and aria-invalid, so a screen reader reads both together.
import { type ReactElement, cloneElement, useId } from 'react';
import { errorsFor, type ApiError } from '../api/http';
import { FieldErrors, fieldErrorId } from './states';
import './form-field.css';

export function FormField({ label, field, error, hint, children }: { label: string; field: string; error: ApiError | null; hint?: string; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  const invalid = errorsFor(error, field).length > 0;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [invalid ? fieldErrorId(field) : null, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy })}
      {hint && (
        <span className="hint muted" id={hintId}>
          {hint}
        </span>
      )}
      <FieldErrors error={error} field={field} />
    </div>
  );
}
