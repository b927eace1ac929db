import { DataTable, QueryStates } from '../components/DataTable.tsx';
import { useAuditLog } from '../queries.ts';
import { errorMessage } from '../trpc.ts';
import { formatDateTime, formatRelative } from '../format.ts';

const ACTION_LABELS: Record<string, string> = {
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'api_access.switched': 'API access switched',
  'webhook.created': 'Webhook added',
  'webhook.rotated': 'Webhook secret rotated',
  'webhook.deleted': 'Webhook removed',
  'candidate.exported': 'Candidate exported',
  'candidate.erased': 'Candidate erased',
  'retention.swept': 'Retention sweep',
};

function listOf(value: unknown): string | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value.length === 0
      ? 'none'
      : value.join(', ')
    : undefined;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return listOf(value) ?? JSON.stringify(value);
}

/** One line per entry's details, in words for the actions the dashboard knows; any other details as `key: value`. */
export function summarizeDetails(action: string, details: Record<string, unknown>): string {
  switch (action) {
    case 'api_key.created': {
      const kind = details.kind === 'publishable' ? 'publishable' : 'secret';
      const scopes = listOf(details.scopes);
      return [
        typeof details.name === 'string' ? `“${details.name}”` : undefined,
        `${kind} key`,
        scopes && `scopes: ${scopes === '*' ? 'all' : scopes}`,
      ]
        .filter(Boolean)
        .join(', ');
    }
    case 'api_access.switched':
      return typeof details.api_enabled === 'boolean' ? `API access ${details.api_enabled ? 'on' : 'off'}` : '';
    case 'webhook.created': {
      const events = listOf(details.event_types);
      return events ? `events: ${events === 'none' ? 'all' : events}` : '';
    }
    case 'retention.swept': {
      const count = (value: unknown, noun: string) => `${valueText(value)} ${noun}${value === 1 ? '' : 's'}`;
      const parts = [
        `${count(details.erased_candidates, 'candidate')} and ${count(details.erased_applications, 'application')} erased`,
      ];
      if (typeof details.as_of === 'string') parts.push(`as of ${formatDateTime(details.as_of)}`);
      return parts.join(', ');
    }
    default:
      return Object.entries(details)
        .map(([key, value]) => `${key.replaceAll('_', ' ')}: ${valueText(value)}`)
        .join('; ');
  }
}

/** Who did what and when in this tenant: newest first, older entries a page at a time. */
export function AuditLogPage() {
  const audit = useAuditLog();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Who changed keys, API access and webhooks, and who exported or erased a person’s data. Candidates are named
            by id only.
          </p>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => void audit.refetch()}
          disabled={audit.isFetching}
          aria-busy={audit.isFetching}
        >
          Refresh
        </button>
      </div>

      <section className="card table-card" aria-labelledby="audit-heading">
        <div className="card-header">
          <h2 id="audit-heading" className="card-title">
            Entries
          </h2>
          <span className="muted">{audit.data ? `${entries.length} shown, newest first` : ''}</span>
        </div>
        <QueryStates
          query={audit}
          loading="Loading the audit log…"
          empty="Nothing recorded yet."
          isEmpty={entries.length === 0}
        >
          <DataTable columns={['When', 'Who', 'What', 'Subject', 'Details']} labelledBy="audit-heading">
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <time dateTime={entry.created_at} title={formatDateTime(entry.created_at)}>
                    {formatRelative(entry.created_at)}
                  </time>
                </td>
                <td className="audit-actor">{entry.actor}</td>
                <th scope="row">
                  {ACTION_LABELS[entry.action] ?? entry.action}
                  <span className="small muted mono audit-action"> {entry.action}</span>
                </th>
                <td>{entry.subject ?? <span className="muted">tenant</span>}</td>
                <td className="audit-details">
                  {summarizeDetails(entry.action, entry.details) || <span className="muted">–</span>}
                </td>
              </tr>
            ))}
          </DataTable>
          <div className="table-footer">
            {audit.isFetchNextPageError && (
              <p className="form-error" role="alert">
                {errorMessage(audit.error)}
              </p>
            )}
            {audit.hasNextPage ? (
              <button
                type="button"
                className="button"
                onClick={() => void audit.fetchNextPage()}
                disabled={audit.isFetchingNextPage}
                aria-busy={audit.isFetchingNextPage}
              >
                Show older entries
              </button>
            ) : (
              <span className="muted small">The beginning of the log.</span>
            )}
          </div>
        </QueryStates>
      </section>
    </>
  );
}
