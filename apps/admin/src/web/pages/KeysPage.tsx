import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiAccessSwitch } from '../components/ApiAccessSwitch.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { CreateKeyDialog } from '../components/CreateKeyDialog.tsx';
import { DataTable, QueryStates } from '../components/DataTable.tsx';
import { api, useKeys, useRevokeKey } from '../queries.ts';
import { useConfirmation } from '../confirmation.ts';
import { errorMessage } from '../trpc.ts';
import { formatDateTime, formatRelative } from '../format.ts';

type TKeyRef = { id: number; name: string };

export function KeysPage({ apiEnabled }: { apiEnabled: boolean }) {
  const queryClient = useQueryClient();
  const keys = useKeys();
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const revoking = useConfirmation<TKeyRef>(revoke);

  const confirmRevoke = () => {
    if (!revoking.target) return;
    revoke.mutate(
      { id: revoking.target.id },
      {
        onSuccess: async () => {
          revoking.dismiss();
          await queryClient.invalidateQueries({ queryKey: api.admin.keys.list.queryKey() });
          void queryClient.invalidateQueries({ queryKey: api.admin.overview.queryKey() });
        },
      },
    );
  };

  const rows = keys.data?.data ?? [];
  const active = rows.filter((key) => !key.revoked_at).length;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>API keys</h1>
          <p className="muted">
            Keys let your career website and integrations call the Careers API. Each key has only the scopes you give
            it.
          </p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          Create key
        </button>
      </div>

      <ApiAccessSwitch enabled={apiEnabled} />

      <section className="card table-card" aria-labelledby="keys-heading">
        <div className="card-header">
          <h2 id="keys-heading" className="card-title">
            Keys
          </h2>
          <span className="muted">{keys.data ? `${active} active, ${rows.length - active} revoked` : ''}</span>
        </div>
        <QueryStates
          query={keys}
          loading="Loading keys…"
          empty="No keys yet. Create one for your career website to start."
          isEmpty={rows.length === 0}
        >
          <DataTable columns={['Name', 'Key', 'Kind', 'Scopes', 'Created', 'Last used', 'Status']} actions>
            {rows.map((key) => (
              <tr key={key.id} className={key.revoked_at ? 'revoked' : undefined}>
                <th scope="row" className="key-name">
                  {key.name}
                </th>
                <td>
                  <code className="key-start">{key.start}…</code>
                </td>
                <td>
                  {key.kind === 'publishable' ? 'Publishable' : 'Secret'}
                  {key.origins && (
                    <ul className="chips" aria-label={`Allowed origins of ${key.name}`}>
                      {key.origins.map((origin) => (
                        <li key={origin} className="chip mono">
                          {origin}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  <ul className="chips" aria-label={`Scopes of ${key.name}`}>
                    {key.scopes.length === 0 ? (
                      <li className="chip chip-muted">health only</li>
                    ) : (
                      key.scopes.map((scope) => (
                        <li key={scope} className="chip mono">
                          {scope === '*' ? 'all scopes (legacy)' : scope}
                        </li>
                      ))
                    )}
                  </ul>
                </td>
                <td>
                  <time dateTime={key.created_at} title={formatDateTime(key.created_at)}>
                    {formatDateTime(key.created_at)}
                  </time>
                </td>
                <td>
                  {key.last_used_at ? (
                    <time dateTime={key.last_used_at} title={formatDateTime(key.last_used_at)}>
                      {formatRelative(key.last_used_at)}
                    </time>
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td>
                  {key.revoked_at ? (
                    <>
                      <span className="badge badge-revoked">Revoked</span>
                      <time className="revoked-at small muted" dateTime={key.revoked_at}>
                        {formatDateTime(key.revoked_at)}
                      </time>
                    </>
                  ) : (
                    <span className="badge badge-active">Active</span>
                  )}
                </td>
                <td className="actions">
                  {!key.revoked_at && (
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      onClick={() => revoking.ask({ id: key.id, name: key.name })}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </QueryStates>
      </section>

      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking.target !== undefined}
        title={`Revoke “${revoking.target?.name ?? ''}”?`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        error={revoke.error ? errorMessage(revoke.error) : undefined}
        onConfirm={confirmRevoke}
        onCancel={revoking.dismiss}
      >
        <p>Everything that uses this key is refused within a second. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
