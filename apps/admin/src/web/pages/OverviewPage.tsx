import { useId } from 'react';
import { DataTable } from '../components/DataTable.tsx';
import { useOverview } from '../queries.ts';
import { errorMessage } from '../trpc.ts';
import { formatDateTime, formatRelative } from '../format.ts';

const STATUS_LABELS = { queued: 'Queued', processing: 'Processing', completed: 'Completed', failed: 'Failed' } as const;

function Stat({ label, value, note }: { label: string; value: number; note: string }) {
  const labelId = useId();
  return (
    <div className="card stat" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="stat-label">
        {label}
      </span>
      <span className="stat-value">{value}</span>
      <span className="muted">{note}</span>
    </div>
  );
}

export function OverviewPage({ onOpenKeys }: { onOpenKeys: () => void }) {
  const overview = useOverview();
  if (overview.isPending) {
    return (
      <p className="empty" role="status">
        Loading overview…
      </p>
    );
  }
  if (overview.isError) {
    return (
      <p className="form-error" role="alert">
        {errorMessage(overview.error)}
      </p>
    );
  }
  const data = overview.data;
  const statuses = Object.keys(STATUS_LABELS) as Array<keyof typeof STATUS_LABELS>;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p className="muted">
            As of <time dateTime={data.generated_at}>{formatDateTime(data.generated_at)}</time>; refreshes every 30
            seconds.
          </p>
        </div>
      </div>

      {!data.api_enabled && (
        <p className="banner banner-danger" role="alert">
          API access is switched off: every API key is refused.{' '}
          <a
            href="/keys"
            onClick={(event) => {
              event.preventDefault();
              onOpenKeys();
            }}
          >
            Switch it on
          </a>
        </p>
      )}

      <section className="stats" aria-label="Key figures">
        <Stat label="Visible vacancies" value={data.visible_vacancies} note="published on the API channel" />
        <Stat label="Applications" value={data.applications_last_7_days} note="in the last 7 days" />
        <Stat
          label="Active API keys"
          value={data.active_api_keys}
          note={`API access ${data.api_enabled ? 'on' : 'off'}`}
        />
      </section>

      <section className="card" aria-labelledby="vacancy-applications-heading">
        <div className="card-header">
          <h2 id="vacancy-applications-heading" className="card-title">
            Applications per vacancy
          </h2>
          <span className="muted">
            {data.applications_per_vacancy.length < data.vacancies_total
              ? `the ${data.applications_per_vacancy.length} most applied-to of ${data.vacancies_total} vacancies`
              : 'every vacancy, most applied-to first'}
          </span>
        </div>
        {data.applications_per_vacancy.length === 0 ? (
          <p className="empty">No vacancies yet.</p>
        ) : (
          <DataTable
            columns={['Vacancy', 'Status', 'Applications', 'Last 7 days']}
            labelledBy="vacancy-applications-heading"
          >
            {data.applications_per_vacancy.map((vacancy) => (
              <tr key={vacancy.id}>
                <th scope="row" className="key-name">
                  {vacancy.title}
                  <span className="muted mono small">{vacancy.slug}</span>
                </th>
                <td>{vacancy.status}</td>
                <td>{vacancy.applications}</td>
                <td>{vacancy.applications_last_7_days}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>

      <section className="card" aria-labelledby="processing-heading">
        <div className="card-header">
          <h2 id="processing-heading" className="card-title">
            Resume processing
          </h2>
          <span className="muted">candidates created from uploaded resumes</span>
        </div>
        <dl className="status-counts">
          {statuses.map((status) => (
            <div
              key={status}
              className={`status-count status-${status}${data.resume_processings[status] === 0 ? ' is-zero' : ''}`}
            >
              <dt>{STATUS_LABELS[status]}</dt>
              <dd>{data.resume_processings[status]}</dd>
            </div>
          ))}
        </dl>
        <h3 className="subheading">Latest failures</h3>
        {data.latest_failures.length === 0 ? (
          <p className="empty">No failed resumes. Everything uploaded was processed or is on its way.</p>
        ) : (
          <DataTable columns={['File', 'Error', 'Attempts', 'Failed']}>
            {data.latest_failures.map((failure) => (
              <tr key={failure.processing_id}>
                <th scope="row" className="key-name">
                  {failure.filename}
                  <span className="muted mono small">{failure.processing_id}</span>
                </th>
                <td className="error-text">{failure.error ?? 'No error recorded'}</td>
                <td>{failure.attempts}</td>
                <td>
                  <time dateTime={failure.failed_at} title={formatDateTime(failure.failed_at)}>
                    {formatRelative(failure.failed_at)}
                  </time>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
