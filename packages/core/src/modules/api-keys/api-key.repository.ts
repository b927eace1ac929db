import type { TDb } from '../../db/kysely.ts';
import type { TApiKeyKind } from './api-key.crypto.ts';

/* A tenant's API keys. Every function takes the tenant-scoped handle: the scope plugin adds the tenant. */

export type TApiKeyRow = {
  id: number;
  name: string;
  start: string;
  kind: string;
  scopes: string[];
  origins: string[] | null;
  created_at: string | Date;
  last_used_at: string | Date | null;
  revoked_at: string | Date | null;
};

const COLUMNS = [
  'id',
  'name',
  'start',
  'kind',
  'scopes',
  'origins',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

/** Whether the handle's tenant exists. */
export async function tenantExists(db: TDb): Promise<boolean> {
  return (await db.selectFrom('tenants').select('id').executeTakeFirst()) !== undefined;
}

export async function insertApiKey(
  db: TDb,
  key: { name: string; keyHash: string; start: string; kind: TApiKeyKind; scopes: string[]; origins: string[] | null },
): Promise<TApiKeyRow> {
  const row = await db
    .insertInto('api_keys')
    // The inferred insert type asks for `id`, which the serial column generates; the plugin adds tenant_id.
    .values({
      name: key.name,
      key_hash: key.keyHash,
      start: key.start,
      kind: key.kind,
      scopes: key.scopes,
      origins: key.origins,
    } as never)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return row as unknown as TApiKeyRow;
}

/** The tenant's keys, newest first (revoked ones included). */
export async function selectApiKeys(db: TDb): Promise<TApiKeyRow[]> {
  const rows = await db.selectFrom('api_keys').select(COLUMNS).orderBy('id', 'desc').execute();
  return rows as unknown as TApiKeyRow[];
}

export async function selectApiKey(db: TDb, id: number): Promise<TApiKeyRow | undefined> {
  return (await db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst()) as unknown as
    | TApiKeyRow
    | undefined;
}

/** Marks a key revoked now, unless it already is (then undefined: its first revocation time stays). */
export async function revokeApiKeyRow(db: TDb, id: number): Promise<TApiKeyRow | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row as unknown as TApiKeyRow | undefined;
}
