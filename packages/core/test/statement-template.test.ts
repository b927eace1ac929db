import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { sql, type UpdateResult } from 'kysely';
import { openTwoTenantDatabase } from './support/two-tenants.ts';
import { kyselyOf, tenantKysely } from '../src/db/kysely.ts';
import { StatementTemplate, preparedStatementName } from '../src/db/fast-path/index.ts';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openTwoTenantDatabase([{ id: 3, tenant_id: 2, slug: 'other', name: 'B depot' }]);
});
afterAll(async () => orm?.close());

describe('statement templates', () => {
  const bySlug = new StatementTemplate<{ slug: string }, { id: number; name: string; tenant_name: string }>((db, arg) =>
    db
      .selectFrom('locations as l')
      .innerJoin('tenants as t', 't.id', 'l.tenant_id')
      .select(['l.id', 'l.name', 't.name as tenant_name'])
      .where(
        'l.slug',
        '=',
        arg((args) => args.slug),
      )
      .orderBy('l.id'),
  );

  it('built once, answer each run with its own values and tenant, as the same query through tenantKysely does', async () => {
    for (const [tenantId, slug] of [
      [1, 'same'],
      [2, 'same'],
      [2, 'other'],
      [1, 'other'],
    ] as const) {
      const db = tenantKysely(orm.em.fork(), tenantId);
      const expected = await db
        .selectFrom('locations as l')
        .innerJoin('tenants as t', 't.id', 'l.tenant_id')
        .select(['l.id', 'l.name', 't.name as tenant_name'])
        .where('l.slug', '=', slug)
        .orderBy('l.id')
        .execute();
      expect(await bySlug.execute(db, { slug }, tenantId)).toEqual(expected);
    }
    expect(await bySlug.execute(tenantKysely(orm.em.fork(), 1), { slug: 'other' }, 1)).toEqual([]);
  });

  it('are prepared on the connection that runs them (parsed and planned once), with the same answers on every run', async () => {
    await orm.em.fork().transactional(async (em) => {
      const db = tenantKysely(em, 2);
      const first = await bySlug.execute(db, { slug: 'same' }, 2);
      for (let run = 0; run < 7; run++) expect(await bySlug.execute(db, { slug: 'same' }, 2)).toEqual(first);
      expect(await bySlug.execute(db, { slug: 'other' }, 2)).toEqual([{ id: 3, name: 'B depot', tenant_name: 'B' }]);
      const prepared = await kyselyOf(em)
        .selectFrom(sql<{ name: string; statement: string }>`pg_prepared_statements`.as('p'))
        .select(['p.name', 'p.statement'])
        .execute();
      const statement = prepared.find((row) => row.name === preparedStatementName(row.statement));
      expect(statement?.statement).toMatch(/from "locations" as "l"/);
    });
  });

  it('write only the tenant they run for (inserts get its id, updates touch only its rows)', async () => {
    const insert = new StatementTemplate<{ id: number; slug: string }, { id: number }>((db, arg, tenantId) =>
      db
        .insertInto('locations')
        .values({ id: arg((args) => args.id), tenant_id: tenantId, slug: arg((args) => args.slug), name: 'made' })
        .returning('id'),
    );
    const rename = new StatementTemplate<{ name: string }, UpdateResult>((db, arg) =>
      db
        .updateTable('locations')
        .set({ name: arg((args) => args.name) })
        .where('slug', '=', 'made'),
    );
    await insert.execute(tenantKysely(orm.em.fork(), 1), { id: 10, slug: 'made' }, 1);
    await insert.execute(tenantKysely(orm.em.fork(), 2), { id: 11, slug: 'made' }, 2);
    await rename.execute(tenantKysely(orm.em.fork(), 2), { name: 'renamed' }, 2);
    const rows = await kyselyOf(orm.em.fork())
      .selectFrom('locations')
      .select(['id', 'tenant_id', 'name'])
      .where('id', 'in', [10, 11])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 10, tenant_id: 1, name: 'made' },
      { id: 11, tenant_id: 2, name: 'renamed' },
    ]);
  });

  it('refuse to run a tenant-scoped statement without a tenant; unscoped ones see every tenant', async () => {
    await expect(bySlug.execute(kyselyOf(orm.em.fork()), { slug: 'same' })).rejects.toThrow(/needs the tenant/);
    const unscoped = StatementTemplate.unscoped<{ slug: string }, { id: number }>((db, arg) =>
      db
        .selectFrom('locations')
        .select('id')
        .where(
          'slug',
          '=',
          arg((args) => args.slug),
        )
        .orderBy('id'),
    );
    expect(await unscoped.execute(kyselyOf(orm.em.fork()), { slug: 'same' })).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
