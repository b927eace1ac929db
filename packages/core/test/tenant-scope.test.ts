import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '../src/testing/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf, tenantKysely } from '../src/db/kysely.ts';
import { TENANT_SCOPED_TABLES } from '../src/db/tenant-scope.ts';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  const db = kyselyOf(orm.em.fork());
  await db.insertInto('tenants').values([{ id: 1, slug: 'a', name: 'A' }, { id: 2, slug: 'b', name: 'B' }]).execute();
  await db
    .insertInto('locations')
    .values([
      { id: 1, tenant_id: 1, slug: 'same', name: 'A office' },
      { id: 2, tenant_id: 2, slug: 'same', name: 'B office' },
    ])
    .execute();
});
afterAll(async () => orm?.close());

describe('tenant scope plugin', () => {
  it('knows every table with a tenant_id column', () => {
    for (const table of ['vacancies', 'locations', 'api_keys', 'candidates', 'article_translations', 'applications', 'documents']) {
      expect(TENANT_SCOPED_TABLES.has(table)).toBe(true);
    }
    expect(TENANT_SCOPED_TABLES.has('tenants')).toBe(false);
  });

  it('scopes selects, aliases, joins and subqueries to the tenant', async () => {
    const db = tenantKysely(orm.em.fork(), 1);
    expect(await db.selectFrom('locations').select('name').execute()).toEqual([{ name: 'A office' }]);
    expect(await db.selectFrom('locations as l').select('l.name').where('l.slug', '=', 'same').execute()).toEqual([{ name: 'A office' }]);
    const joined = await db.selectFrom('tenants as t').leftJoin('locations as l', 'l.slug', 't.slug').select(['t.slug', 'l.name']).execute();
    expect(joined).toEqual([{ slug: 'a', name: null }]);
    const sub = await db
      .selectFrom('tenants')
      .select((eb) => eb.selectFrom('locations').select(eb.fn.countAll<number>().as('n')).as('n'))
      .executeTakeFirst();
    expect(Number(sub?.n)).toBe(1);
  });

  it('scopes updates and deletes', async () => {
    const db = tenantKysely(orm.em.fork(), 2);
    await db.updateTable('locations').set({ name: 'renamed' }).execute();
    const all = await kyselyOf(orm.em.fork()).selectFrom('locations').select(['id', 'name']).orderBy('id').execute();
    expect(all).toEqual([{ id: 1, name: 'A office' }, { id: 2, name: 'renamed' }]);
    await db.deleteFrom('locations').execute();
    expect(await kyselyOf(orm.em.fork()).selectFrom('locations').select('id').execute()).toEqual([{ id: 1 }]);
  });
});
