import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from './Dialog.tsx';
import { DoneAction, FormActions, TextField } from './DialogForm.tsx';
import { SecretOutput } from './SecretOutput.tsx';
import { api, useCreateWebhook } from '../queries.ts';
import { errorMessage, fieldErrors } from '../trpc.ts';

/** Add an endpoint: URL and event types (or all), then its signing secret, once. */
export function AddWebhookDialog({
  open,
  eventTypes,
  onClose,
}: {
  open: boolean;
  eventTypes: readonly string[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [secret, setSecret] = useState<string | undefined>();
  const eventsId = useId();

  const close = () => {
    setUrl('');
    setAll(true);
    setSelected(new Set());
    setSecret(undefined);
    create.reset();
    onClose();
  };

  const toggle = (type: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(type);
    else next.delete(type);
    setSelected(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url, event_types: all ? ['*'] : eventTypes.filter((type) => selected.has(type)) },
      {
        onSuccess: async (result) => {
          setSecret(result.secret);
          await queryClient.invalidateQueries({ queryKey: api.admin.webhooks.list.queryKey() });
        },
      },
    );
  };

  const errors = create.error ? fieldErrors(create.error) : {};
  const urlError = errors.url?.[0];
  const typesError = Object.entries(errors).find(([field]) => field.startsWith('event_types'))?.[1]?.[0];
  const otherError = create.error && !urlError && !typesError ? errorMessage(create.error) : undefined;

  return (
    <Dialog open={open} title={secret ? 'Webhook endpoint added' : 'Add webhook endpoint'} onClose={close}>
      {secret ? (
        <div className="created-key">
          <SecretOutput
            label="Signing secret"
            value={secret}
            warning="It will not be shown again: it is stored encrypted."
          />
          <DoneAction onDone={close} />
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField
            label="Endpoint URL"
            type="url"
            value={url}
            maxLength={2048}
            placeholder="https://example.com/webhooks/careers"
            error={urlError}
            onChange={setUrl}
          />
          <fieldset className="scopes">
            <legend>Events</legend>
            <div className="scope">
              <input
                id={`${eventsId}-all`}
                type="checkbox"
                checked={all}
                onChange={(event) => setAll(event.target.checked)}
              />
              <label htmlFor={`${eventsId}-all`}>All events</label>
            </div>
            {!all &&
              eventTypes.map((type) => (
                <div key={type} className="scope">
                  <input
                    id={`${eventsId}-${type}`}
                    type="checkbox"
                    checked={selected.has(type)}
                    onChange={(event) => toggle(type, event.target.checked)}
                  />
                  <label htmlFor={`${eventsId}-${type}`} className="mono">
                    {type}
                  </label>
                </div>
              ))}
            {typesError && <p className="field-error">{typesError}</p>}
          </fieldset>
          <FormActions error={otherError} pending={create.isPending} submitLabel="Add endpoint" onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}
