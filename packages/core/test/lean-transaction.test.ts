import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { openTwoTenantDatabase } from './support/two-tenants.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { leanTransaction } from '../src/db/fast-path/index.ts';
import { Location } from '../src/modules/locations/location.entity.ts';
import { Tenant } from '../src/modules/tenants/tenant.entity.ts';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openTwoTenantDatabase();
});
afterAll(async () => orm?.close());

/** Location slugs as another connection sees them (only committed rows). */
async function committedSlugs(): Promise<string[]> {
  const rows = await kyselyOf(orm.em.fork()).selectFrom('locations').select('slug').orderBy('slug').execute();
  return rows.map((row) => row.slug);
}

const insertLocation = (db: ReturnType<typeof kyselyOf>, id: number, slug: string) =>
  db.insertInto('locations').values({ id, tenant_id: 1, slug, name: slug }).execute();

describe('leanTransaction', () => {
  it('runs every statement of the work on one transaction and commits it when the work returns', async () => {
    const ids = await leanTransaction(orm.em.fork(), async (tx) => {
      const db = kyselyOf(tx);
      await insertLocation(db, 10, 'committed');
      // Uncommitted: another connection does not see it yet.
      expect(await committedSlugs()).not.toContain('committed');
      const first = await sql<{ id: string }>`select txid_current()::text as id`.execute(db);
      const second = await sql<{ id: string }>`select txid_current()::text as id`.execute(db);
      return [first.rows[0]!.id, second.rows[0]!.id];
    });
    expect(ids[0]).toBe(ids[1]);
    expect(await committedSlugs()).toContain('committed');
  });

  it('rolls everything back and rethrows when the work throws', async () => {
    const failure = new Error('work failed');
    await expect(
      leanTransaction(orm.em.fork(), async (tx) => {
        await insertLocation(kyselyOf(tx), 11, 'rolled-back');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await committedSlugs()).not.toContain('rolled-back');
  });

  it('makes a nested em.transactional a savepoint, and flushes entity changes before the commit', async () => {
    await leanTransaction(orm.em.fork(), async (tx) => {
      await insertLocation(kyselyOf(tx), 12, 'outer');
      await expect(
        tx.transactional(async (inner) => {
          await insertLocation(kyselyOf(inner), 13, 'inner');
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
      // Persisted, not flushed: the commit must flush it.
      tx.create(Location, { id: 14, tenant: tx.getReference(Tenant, 1), slug: 'entity', name: 'entity' });
    });
    const slugs = await committedSlugs();
    expect(slugs).toEqual(expect.arrayContaining(['outer', 'entity']));
    expect(slugs).not.toContain('inner');
  });
});
