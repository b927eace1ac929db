import type { ReactNode } from 'react';
import { errorMessage } from '../trpc.ts';

/** A scrollable table with column headings; `actions` adds a last, unlabelled column for row buttons. */
export function DataTable({
  columns,
  actions = false,
  label,
  labelledBy,
  children,
}: {
  columns: readonly string[];
  actions?: boolean;
  label?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className="table" aria-label={label} aria-labelledby={labelledBy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a list read shows until it has rows: loading, its error, or the empty message; then the rows. */
export function QueryStates({
  query,
  loading,
  empty,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  loading: string;
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="empty" role="status">
        {loading}
      </p>
    );
  if (query.isError)
    return (
      <p className="form-error" role="alert">
        {errorMessage(query.error)}
      </p>
    );
  if (isEmpty) return <p className="empty">{empty}</p>;
  return <>{children}</>;
}

/** A failed row action's message, beside a card's title. */
export function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <span className="form-error" role="alert">
      {errorMessage(error)}
    </span>
  );
}
