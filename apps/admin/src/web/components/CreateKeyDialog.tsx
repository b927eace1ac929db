import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from './Dialog.tsx';
import { queryKeys, useCreateKey } from '../queries.ts';
import { errorMessage, fieldErrors } from '../trpc.ts';
import { SCOPE_DESCRIPTIONS, SCOPE_PRESETS, SCOPES, type TScope } from '../scopes.ts';

type TCreated = { name: string; plaintext: string };

/** Create a key: name, scopes (presets or one by one), then the plaintext once. */
export function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const createKey = useCreateKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<TScope>>(new Set());
  const [created, setCreated] = useState<TCreated | undefined>();
  const [copied, setCopied] = useState(false);
  const keyInput = useRef<HTMLInputElement>(null);
  const nameId = useId();
  const nameErrorId = useId();
  const warningId = useId();

  const close = () => {
    setName('');
    setScopes(new Set());
    setCreated(undefined);
    setCopied(false);
    createKey.reset();
    onClose();
  };

  const toggle = (scope: TScope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ordered = SCOPES.filter((scope) => scopes.has(scope));
    createKey.mutate(
      { name, scopes: ordered },
      {
        onSuccess: async (result) => {
          setCreated({ name: result.key.name, plaintext: result.plaintext });
          await queryClient.invalidateQueries({ queryKey: queryKeys.keys });
          void queryClient.invalidateQueries({ queryKey: queryKeys.overview });
        },
      },
    );
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.plaintext);
    } catch {
      // Without clipboard permission, select the key so the user can copy it by hand.
      keyInput.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };

  const errors = createKey.error ? fieldErrors(createKey.error) : {};
  const nameError = errors.name?.[0];
  const otherError = createKey.error && !nameError ? errorMessage(createKey.error) : undefined;

  return (
    <Dialog open={open} title={created ? 'API key created' : 'Create API key'} onClose={close}>
      {created ? (
        <div className="created-key">
          <p id={warningId} className="warning" role="note">
            <strong>Copy this key now.</strong> It will not be shown again: only its first characters are stored.
          </p>
          <div className="key-output">
            <input
              ref={keyInput}
              className="input mono"
              type="text"
              readOnly
              aria-label="New API key"
              aria-describedby={warningId}
              value={created.plaintext}
              onFocus={(event) => event.currentTarget.select()}
              autoFocus
            />
            <button type="button" className="button" onClick={() => void copy()}>
              Copy
            </button>
          </div>
          <p className="muted" role="status">
            {copied ? 'Copied to the clipboard.' : `Key “${created.name}” is ready to use.`}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              className="input"
              type="text"
              value={name}
              maxLength={255}
              required
              autoFocus
              autoComplete="off"
              placeholder="e.g. Career website (production)"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            {nameError && (
              <p id={nameErrorId} className="field-error">
                {nameError}
              </p>
            )}
          </div>
          <div className="presets" role="group" aria-label="Presets">
            <span className="presets-label" aria-hidden="true">
              Presets
            </span>
            {SCOPE_PRESETS.map((preset) => (
              <button
                key={preset.name}
                type="button"
                className="button button-small"
                aria-pressed={preset.scopes.length === scopes.size && preset.scopes.every((scope) => scopes.has(scope))}
                onClick={() => setScopes(new Set(preset.scopes))}
              >
                {preset.name}
              </button>
            ))}
          </div>
          <fieldset className="scopes">
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <div key={scope} className="scope">
                <input
                  id={`${nameId}-${scope}`}
                  type="checkbox"
                  checked={scopes.has(scope)}
                  aria-describedby={`${nameId}-${scope}-description`}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                <label htmlFor={`${nameId}-${scope}`} className="mono">
                  {scope}
                </label>
                <span id={`${nameId}-${scope}-description`} className="muted scope-description">
                  {SCOPE_DESCRIPTIONS[scope]}
                </span>
              </div>
            ))}
            {scopes.size === 0 && <p className="muted hint">Without a scope the key can only call /health.</p>}
          </fieldset>
          {otherError && (
            <p className="form-error" role="alert">
              {otherError}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={createKey.isPending} aria-busy={createKey.isPending}>
              Create key
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
