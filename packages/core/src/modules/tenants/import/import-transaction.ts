import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { connectionOfItsOwn, crossTenantDb, type TDb } from '../../../db/kysely.ts';

/** The import's one transaction: a pooled connection of its own (COPY needs the driver's client) and Kysely on it. */
export type TImportTransaction = {
  client: pg.PoolClient;
  db: TDb;
  /** Rows inserted, updated or deleted so far, per table. */
  written: Map<string, number>;
};

/** Counts rows written to `table` (for deciding which tables need fresh planner statistics). */
export function countWritten(trx: TImportTransaction, table: string, rows: number | null | undefined): void {
  if (rows) trx.written.set(table, (trx.written.get(table) ?? 0) + rows);
}

/**
 * Runs `work` in one transaction on a connection taken from the ORM's pool (through `em`), committing when it resolves and
 * rolling back when it throws. Everything the import sets up in the session (temp tables, `set local`) ends with
 * the transaction, so the connection goes back to the pool as it came.
 */
export async function inImportTransaction<T>(
  em: EntityManager,
  work: (trx: TImportTransaction) => Promise<T>,
): Promise<T> {
  const client = await connectionOfItsOwn(em);
  const db = crossTenantDb(client);
  let broken: Error | undefined;
  try {
    await client.query('begin');
    try {
      const result = await work({ client, db, written: new Map() });
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: unknown) => {
        // A connection that cannot roll back is not given back to the pool.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } finally {
    client.release(broken);
    await db.destroy();
  }
}
