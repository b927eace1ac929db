import type pg from 'pg';

/**
 * Server-side prepared statements for the hot statements whose SQL never changes (StatementTemplate's, and the few
 * registered with `preparedSql`). A statement sent by name is parsed and planned once per connection; sent unnamed,
 * PostgreSQL parses and plans it on every run, which on POST /applications was ~0.7 ms of its CPU per request.
 *
 * The query builders send `client.query(text, values)`; for a registered text on a prepared pool, this sends
 * `{ name, text, values }` instead (node-postgres prepares a name on a connection's first use of it). Anything else
 * goes through unchanged. A transaction-pooling PgBouncer (DB_TRANSACTION_POOLING) hands each transaction another
 * server connection, where the name would not exist: such pools are never prepared.
 */

/** SQL text → statement name. Texts come from code (a few dozen), never from input, so the map stays small. */
const names = new Map<string, string>();

/** Registers `text` as a statement to prepare and returns it unchanged. */
export function preparedSql(text: string): string {
  if (!names.has(text)) names.set(text, `careers_${names.size + 1}`);
  return text;
}

/** The name `text` is prepared under, when it is registered. */
export function preparedStatementName(text: string): string | undefined {
  return names.get(text);
}

const PREPARED = Symbol('careers.preparedStatements');

type TQuery = (config: unknown, values?: unknown, callback?: unknown) => unknown;
type TPreparableClient = pg.PoolClient & { [PREPARED]?: true };

/** Sends the registered statements of every client `pool` hands out by name (each client is changed once). */
export function prepareRegisteredStatements(pool: pg.Pool): void {
  pool.on('acquire', (client: TPreparableClient) => {
    if (client[PREPARED]) return;
    client[PREPARED] = true;
    const query = client.query.bind(client) as TQuery;
    (client as unknown as { query: TQuery }).query = (config, values, callback) => {
      const name = typeof config === 'string' && Array.isArray(values) ? names.get(config) : undefined;
      return name === undefined ? query(config, values, callback) : query({ name, text: config, values }, callback);
    };
  });
}
