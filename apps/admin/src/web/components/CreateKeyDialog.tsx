import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from './Dialog.tsx';
import { DoneAction, FormActions, TextField } from './DialogForm.tsx';
import { SecretOutput } from './SecretOutput.tsx';
import { api, useCreateKey } from '../queries.ts';
import { errorMessage, fieldErrors } from '../trpc.ts';
import {
  isPublishableScope,
  normalizeOrigin,
  SCOPE_DESCRIPTIONS,
  SCOPE_PRESETS,
  SCOPES,
  type TKeyKind,
  type TScope,
} from '../scopes.ts';

type TCreated = { name: string; plaintext: string; kind: TKeyKind };

/**
 * Create a key: name, kind (secret for servers, publishable for a career site in the browser, with its allowed
 * origins), scopes (presets or one by one), then the plaintext once.
 */
export function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const createKey = useCreateKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<TScope>>(new Set());
  const [kind, setKind] = useState<TKeyKind>('secret');
  const [origins, setOrigins] = useState<string[]>(['']);
  const [created, setCreated] = useState<TCreated | undefined>();
  const nameId = useId();

  const close = () => {
    setName('');
    setScopes(new Set());
    setKind('secret');
    setOrigins(['']);
    setCreated(undefined);
    createKey.reset();
    onClose();
  };

  const toggle = (scope: TScope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };

  /** A publishable key may only have the public scopes: switching to it drops the others. */
  const chooseKind = (next: TKeyKind) => {
    setKind(next);
    if (next === 'publishable') setScopes(new Set([...scopes].filter(isPublishableScope)));
  };

  // Editing the origins makes the server's answer about them stale (its errors name rows by position).
  const setOrigin = (index: number, value: string) => {
    if (createKey.error) createKey.reset();
    setOrigins(origins.map((origin, i) => (i === index ? value : origin)));
  };
  const removeOrigin = (index: number) => {
    if (createKey.error) createKey.reset();
    setOrigins(origins.length === 1 ? [''] : origins.filter((_, i) => i !== index));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ordered = SCOPES.filter((scope) => scopes.has(scope));
    const input =
      kind === 'publishable'
        ? {
            name,
            scopes: ordered,
            kind,
            origins: origins.map((origin) => origin.trim()).filter((origin) => origin !== ''),
          }
        : { name, scopes: ordered, kind };
    createKey.mutate(input, {
      onSuccess: async (result) => {
        setCreated({ name: result.key.name, plaintext: result.plaintext, kind: result.key.kind });
        await queryClient.invalidateQueries({ queryKey: api.admin.keys.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: api.admin.overview.queryKey() });
      },
    });
  };

  const errors = createKey.error ? fieldErrors(createKey.error) : {};
  const nameError = errors.name?.[0];
  const originsError = errors.origins?.[0];
  const scopesError = Object.entries(errors).find(([field]) => field.startsWith('scopes'))?.[1]?.[0];
  // Server errors name the origins sent (blank rows left out); map them back to the rows.
  const sentRows = origins.flatMap((origin, row) => (origin.trim() === '' ? [] : [row]));
  const originErrorOf = (row: number): string | undefined => {
    const sent = sentRows.indexOf(row);
    const fromServer = sent >= 0 ? errors[`origins.${sent}`]?.[0] : undefined;
    if (fromServer) return fromServer;
    const value = origins[row]?.trim() ?? '';
    return value !== '' && normalizeOrigin(value) === null
      ? 'Not an origin: scheme, host and optional port, e.g. https://careers.example.com'
      : undefined;
  };
  const otherError =
    createKey.error &&
    !nameError &&
    !originsError &&
    !scopesError &&
    !Object.keys(errors).some((f) => f.startsWith('origins.'))
      ? errorMessage(createKey.error)
      : undefined;

  return (
    <Dialog open={open} title={created ? 'API key created' : 'Create API key'} onClose={close}>
      {created ? (
        <div className="created-key">
          <SecretOutput
            label="New API key"
            value={created.plaintext}
            heading="Copy this key now."
            warning="It will not be shown again: only its first characters are stored."
            note={`Key “${created.name}” is ready to use.`}
          />
          <DoneAction onDone={close} />
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField
            label="Name"
            type="text"
            value={name}
            maxLength={255}
            placeholder="e.g. Career website (production)"
            error={nameError}
            onChange={setName}
          />
          <div className="presets" role="group" aria-label="Presets">
            <span className="presets-label" aria-hidden="true">
              Presets
            </span>
            {SCOPE_PRESETS.map((preset) => (
              <button
                key={preset.name}
                type="button"
                className="button button-small"
                aria-pressed={
                  preset.kind === kind &&
                  preset.scopes.length === scopes.size &&
                  preset.scopes.every((scope) => scopes.has(scope))
                }
                onClick={() => {
                  setKind(preset.kind);
                  setScopes(new Set(preset.scopes));
                }}
              >
                {preset.name}
              </button>
            ))}
          </div>
          <fieldset className="scopes key-kind">
            <legend>Kind</legend>
            <div className="scope">
              <input
                id={`${nameId}-secret`}
                type="radio"
                name={`${nameId}-kind`}
                checked={kind === 'secret'}
                onChange={() => chooseKind('secret')}
              />
              <label htmlFor={`${nameId}-secret`}>Secret</label>
              <span className="muted scope-description">For servers (ck_live_…); never put it in a web page</span>
            </div>
            <div className="scope">
              <input
                id={`${nameId}-publishable`}
                type="radio"
                name={`${nameId}-kind`}
                checked={kind === 'publishable'}
                onChange={() => chooseKind('publishable')}
              />
              <label htmlFor={`${nameId}-publishable`}>Publishable</label>
              <span className="muted scope-description">
                For a career site in the browser (pk_live_…): only from its origins, public scopes only
              </span>
            </div>
          </fieldset>
          {kind === 'publishable' && (
            <fieldset className="scopes origins">
              <legend>Allowed origins</legend>
              {origins.map((origin, row) => {
                const error = originErrorOf(row);
                const inputId = `${nameId}-origin-${row}`;
                return (
                  <div key={row} className="origin-row">
                    <input
                      id={inputId}
                      className="input mono"
                      type="url"
                      value={origin}
                      placeholder="https://careers.example.com"
                      aria-label={`Allowed origin ${row + 1}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${inputId}-error` : undefined}
                      onChange={(event) => setOrigin(row, event.target.value)}
                    />
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Remove origin ${row + 1}`}
                      onClick={() => removeOrigin(row)}
                    >
                      Remove
                    </button>
                    {error && (
                      <p id={`${inputId}-error`} className="field-error">
                        {error}
                      </p>
                    )}
                  </div>
                );
              })}
              <button type="button" className="button button-small" onClick={() => setOrigins([...origins, ''])}>
                Add origin
              </button>
              {originsError && <p className="field-error">{originsError}</p>}
              <p className="muted hint">
                Scheme, host and port as the browser sends them, e.g. https://careers.example.com or
                http://localhost:5173.
              </p>
            </fieldset>
          )}
          <fieldset className="scopes">
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <div key={scope} className="scope">
                <input
                  id={`${nameId}-${scope}`}
                  type="checkbox"
                  checked={scopes.has(scope)}
                  disabled={kind === 'publishable' && !isPublishableScope(scope)}
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
            {scopesError && <p className="field-error">{scopesError}</p>}
          </fieldset>
          <FormActions error={otherError} pending={createKey.isPending} submitLabel="Create key" onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}
