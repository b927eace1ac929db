import { useId } from 'react';

/** The first field of a dialog's form: a labelled text input with the server's error for it beneath. */
export function TextField({
  label,
  type,
  value,
  maxLength,
  placeholder,
  error,
  onChange,
}: {
  label: string;
  type: 'text' | 'url';
  value: string;
  maxLength: number;
  placeholder: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type={type}
        value={value}
        maxLength={maxLength}
        required
        autoFocus
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The foot of a dialog's form: an error no field owns, then Cancel and the submit button (busy while pending). */
export function FormActions({
  error,
  pending,
  submitLabel,
  onCancel,
}: {
  error: string | undefined;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}

/** The single button that closes a dialog once its work is done. */
export function DoneAction({ onDone }: { onDone: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button button-primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
