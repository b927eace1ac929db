import { useId, useRef, useState } from 'react';

/** A secret shown once, with a copy button (falls back to selecting it when the clipboard is refused). */
export function SecretOutput({
  label,
  value,
  warning,
  heading = 'Copy this secret now.',
  note = 'Receivers verify each delivery with it (Standard Webhooks).',
}: {
  label: string;
  value: string;
  warning: string;
  heading?: string;
  /** Shown until it is copied. */
  note?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const warningId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Without clipboard permission, select it so the user can copy it by hand.
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <>
      <p id={warningId} className="warning" role="note">
        <strong>{heading}</strong> {warning}
      </p>
      <div className="key-output">
        <input
          ref={input}
          className="input mono"
          type="text"
          readOnly
          aria-label={label}
          aria-describedby={warningId}
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          autoFocus
        />
        <button type="button" className="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="muted" role="status">
        {copied ? 'Copied to the clipboard.' : note}
      </p>
    </>
  );
}
