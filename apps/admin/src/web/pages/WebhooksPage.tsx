import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AddWebhookDialog } from '../components/AddWebhookDialog.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ActionError, DataTable, QueryStates } from '../components/DataTable.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { DoneAction } from '../components/DialogForm.tsx';
import { SecretOutput } from '../components/SecretOutput.tsx';
import {
  api,
  useDeleteWebhook,
  useDeliveries,
  useEnableWebhook,
  useReplayDelivery,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useWebhooks,
} from '../queries.ts';
import { useConfirmation } from '../confirmation.ts';
import { errorMessage } from '../trpc.ts';
import { formatDateTime, formatRelative } from '../format.ts';

type TEndpointRef = { id: number; url: string };

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const sendTest = useSendTestWebhook();
  const enable = useEnableWebhook();
  const [adding, setAdding] = useState(false);
  const deleting = useConfirmation<TEndpointRef>(remove);
  const rotating = useConfirmation<TEndpointRef>(rotate);
  const [rotatedSecret, setRotatedSecret] = useState<string | undefined>();
  const [shown, setShown] = useState<number | undefined>();

  const confirmDelete = () => {
    const endpoint = deleting.target;
    if (!endpoint) return;
    remove.mutate(
      { id: endpoint.id },
      {
        onSuccess: async () => {
          if (shown === endpoint.id) setShown(undefined);
          deleting.dismiss();
          await queryClient.invalidateQueries({ queryKey: api.admin.webhooks.list.queryKey() });
        },
      },
    );
  };

  const confirmRotate = () => {
    if (!rotating.target) return;
    rotate.mutate(
      { id: rotating.target.id },
      {
        onSuccess: async (result) => {
          rotating.dismiss();
          setRotatedSecret(result.secret);
          await queryClient.invalidateQueries({ queryKey: api.admin.webhooks.list.queryKey() });
        },
      },
    );
  };

  const test = (id: number) => {
    sendTest.mutate(
      { id },
      {
        onSuccess: async () => {
          setShown(id);
          await queryClient.invalidateQueries({
            queryKey: api.admin.webhooks.deliveries.queryKey({ endpoint_id: id }),
          });
        },
      },
    );
  };

  const rows = webhooks.data?.data ?? [];
  const endpointShown = rows.find((endpoint) => endpoint.id === shown);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            Endpoints receive signed events (Standard Webhooks) when vacancies, articles, applications and candidates
            change. Failed deliveries are retried for about a day.
          </p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>

      <section className="card table-card" aria-labelledby="webhooks-heading">
        <div className="card-header">
          <h2 id="webhooks-heading" className="card-title">
            Endpoints
          </h2>
          <ActionError error={sendTest.error} />
        </div>
        <QueryStates
          query={webhooks}
          loading="Loading endpoints…"
          empty="No endpoints yet. Add one to receive events."
          isEmpty={rows.length === 0}
        >
          <DataTable columns={['URL', 'Events', 'Created', 'Status']} actions>
            {rows.map((endpoint) => (
              <tr key={endpoint.id} className={endpoint.enabled ? undefined : 'revoked'}>
                <th scope="row" className="key-name mono">
                  {endpoint.url}
                </th>
                <td>
                  <ul className="chips" aria-label={`Events of ${endpoint.url}`}>
                    {endpoint.event_types.map((type) => (
                      <li key={type} className="chip mono">
                        {type === '*' ? 'all events' : type}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <time dateTime={endpoint.created_at}>{formatDateTime(endpoint.created_at)}</time>
                </td>
                <td>
                  {endpoint.enabled ? (
                    <span className="badge badge-active">Enabled</span>
                  ) : (
                    <span className="badge badge-revoked">Disabled</span>
                  )}
                  {endpoint.disabled_reason && <span className="small muted"> {endpoint.disabled_reason}</span>}
                  {!endpoint.enabled && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="button button-small"
                        disabled={enable.isPending}
                        onClick={() =>
                          enable.mutate(
                            { id: endpoint.id },
                            {
                              onSuccess: () =>
                                void queryClient.invalidateQueries({ queryKey: api.admin.webhooks.list.queryKey() }),
                            },
                          )
                        }
                      >
                        Enable
                      </button>
                    </>
                  )}
                  {endpoint.previous_secret_expires_at && (
                    <span className="small muted">
                      {' '}
                      Previous secret signs until {formatDateTime(endpoint.previous_secret_expires_at)}
                    </span>
                  )}
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-pressed={shown === endpoint.id}
                    onClick={() => setShown(shown === endpoint.id ? undefined : endpoint.id)}
                  >
                    Deliveries
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    disabled={sendTest.isPending}
                    onClick={() => test(endpoint.id)}
                  >
                    Send test
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => rotating.ask({ id: endpoint.id, url: endpoint.url })}
                  >
                    Rotate secret
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small button-danger-outline"
                    onClick={() => deleting.ask({ id: endpoint.id, url: endpoint.url })}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        </QueryStates>
      </section>

      {endpointShown && <Deliveries endpoint={endpointShown} />}

      <AddWebhookDialog open={adding} eventTypes={webhooks.data?.event_types ?? []} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting.target !== undefined}
        title={`Delete the endpoint ${deleting.target?.url ?? ''}?`}
        confirmLabel="Delete"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : undefined}
        onConfirm={confirmDelete}
        onCancel={deleting.dismiss}
      >
        <p>No more events are sent to it, and its delivery log is deleted. This cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={rotating.target !== undefined}
        title={`Rotate the secret of ${rotating.target?.url ?? ''}?`}
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        error={rotate.error ? errorMessage(rotate.error) : undefined}
        onConfirm={confirmRotate}
        onCancel={rotating.dismiss}
      >
        <p>
          A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours, so the
          receiver can switch without missing a delivery.
        </p>
      </ConfirmDialog>
      <Dialog open={rotatedSecret !== undefined} title="New signing secret" onClose={() => setRotatedSecret(undefined)}>
        {rotatedSecret && (
          <SecretOutput
            label="New signing secret"
            value={rotatedSecret}
            warning="It will not be shown again; the previous secret keeps signing for 24 hours."
          />
        )}
        <DoneAction onDone={() => setRotatedSecret(undefined)} />
      </Dialog>
    </>
  );
}

const STATE_LABELS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;

/** The recent deliveries of one endpoint, refreshed while shown; any of them can be sent again. */
function Deliveries({ endpoint }: { endpoint: TEndpointRef }) {
  const queryClient = useQueryClient();
  const deliveries = useDeliveries(endpoint.id);
  const replay = useReplayDelivery();
  const rows = deliveries.data?.data ?? [];
  return (
    <section className="card table-card" aria-labelledby="deliveries-heading">
      <div className="card-header">
        <h2 id="deliveries-heading" className="card-title">
          Recent deliveries to <span className="mono">{endpoint.url}</span>
        </h2>
        <ActionError error={replay.error} />
      </div>
      <QueryStates
        query={deliveries}
        loading="Loading deliveries…"
        empty="No deliveries yet. Send a test event to try the endpoint."
        isEmpty={rows.length === 0}
      >
        <DataTable columns={['Event', 'State', 'Attempts', 'Last status', 'Next try']} actions label="Deliveries">
          {rows.map((delivery) => (
            <tr key={delivery.id}>
              <th scope="row">
                <span className="mono">{delivery.event_type}</span>
                <br />
                <span className="small muted mono">{delivery.event_id}</span>
              </th>
              <td>
                <span
                  className={`badge ${delivery.state === 'failed' ? 'badge-revoked' : delivery.state === 'delivered' ? 'badge-active' : ''}`}
                >
                  {STATE_LABELS[delivery.state]}
                </span>
              </td>
              <td>{delivery.attempts}</td>
              <td title={delivery.last_error ?? undefined}>
                {delivery.last_status_code ?? (delivery.last_error ? 'no response' : '–')}
              </td>
              <td>
                {delivery.next_attempt_at ? (
                  <time dateTime={delivery.next_attempt_at}>{formatRelative(delivery.next_attempt_at)}</time>
                ) : (
                  '–'
                )}
              </td>
              <td className="actions">
                <button
                  type="button"
                  className="button button-small"
                  disabled={replay.isPending}
                  aria-label={`Replay ${delivery.event_type} ${delivery.event_id}`}
                  onClick={() =>
                    replay.mutate(
                      { id: delivery.id },
                      {
                        onSuccess: () =>
                          void queryClient.invalidateQueries({
                            queryKey: api.admin.webhooks.deliveries.queryKey({ endpoint_id: endpoint.id }),
                          }),
                      },
                    )
                  }
                >
                  Replay
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </QueryStates>
    </section>
  );
}
