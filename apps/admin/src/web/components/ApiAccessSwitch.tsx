import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, useSetApiAccess } from '../queries.ts';
import { errorMessage } from '../trpc.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

/** The tenant's API access. Switching it off stops every career site at once, so that asks first. */
export function ApiAccessSwitch({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const setApiAccess = useSetApiAccess();
  const [confirming, setConfirming] = useState(false);
  const labelId = useId();
  const descriptionId = useId();

  const apply = (next: boolean) => {
    setApiAccess.mutate(
      { enabled: next },
      {
        onSuccess: async () => {
          setConfirming(false);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: api.admin.me.queryKey() }),
            queryClient.invalidateQueries({ queryKey: api.admin.overview.queryKey() }),
          ]);
        },
      },
    );
  };

  return (
    <section className="card access-card" aria-labelledby={labelId}>
      <div className="access-text">
        <h2 id={labelId} className="card-title">
          API access
        </h2>
        <p id={descriptionId} className="muted">
          {enabled
            ? 'On: career sites and integrations can call the API with their keys.'
            : 'Off: every key is refused with “API access is not enabled for this tenant.”'}
        </p>
        {setApiAccess.error && !confirming && (
          <p className="form-error" role="alert">
            {errorMessage(setApiAccess.error)}
          </p>
        )}
      </div>
      <button
        type="button"
        role="switch"
        className="switch"
        aria-checked={enabled}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        disabled={setApiAccess.isPending}
        onClick={() => (enabled ? setConfirming(true) : apply(true))}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-state" aria-hidden="true">
          {enabled ? 'On' : 'Off'}
        </span>
      </button>
      <ConfirmDialog
        open={confirming}
        title="Switch off API access?"
        confirmLabel="Switch off"
        pending={setApiAccess.isPending}
        error={setApiAccess.error ? errorMessage(setApiAccess.error) : undefined}
        onConfirm={() => apply(false)}
        onCancel={() => {
          setConfirming(false);
          setApiAccess.reset();
        }}
      >
        <p>Every API key of this tenant will be refused within a second, until you switch access back on.</p>
      </ConfirmDialog>
    </section>
  );
}
