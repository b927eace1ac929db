import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openTwoTenantDatabase } from './support/two-tenants.ts';
import { kyselyOf, tenantKysely } from '../src/db/kysely.ts';
import { TENANT_SCOPED_TABLES, TenantScopeViolation } from '../src/db/tenant-scope.ts';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openTwoTenantDatabase();
});
afterAll(async () => orm?.close());

describe('tenant scope plugin', () => {
  it('knows every table with a tenant_id column', () => {
    for (const table of [
      'vacancies',
      'locations',
      'api_keys',
      'candidates',
      'article_translations',
      'applications',
      'documents',
    ]) {
      expect(TENANT_SCOPED_TABLES.has(table)).toBe(true);
    }
    expect(TENANT_SCOPED_TABLES.has('tenants')).toBe(false);
  });

  it('scopes selects, aliases, joins and subqueries to the tenant', async () => {
    const db = tenantKysely(orm.em.fork(), 1);
    expect(await db.selectFrom('locations').select('name').execute()).toEqual([{ name: 'A office' }]);
    expect(await db.selectFrom('locations as l').select('l.name').where('l.slug', '=', 'same').execute()).toEqual([
      { name: 'A office' },
    ]);
    const joined = await db
      .selectFrom('tenants as t')
      .leftJoin('locations as l', 'l.slug', 't.slug')
      .select(['t.slug', 'l.name'])
      .execute();
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
    expect(all).toEqual([
      { id: 1, name: 'A office' },
      { id: 2, name: 'renamed' },
    ]);
    await db.deleteFrom('locations').execute();
    expect(await kyselyOf(orm.em.fork()).selectFrom('locations').select('id').execute()).toEqual([{ id: 1 }]);
  });

  describe('inserts', () => {
    const raw = () => kyselyOf(orm.em.fork());
    const locationsNamed = (prefix: string) =>
      raw()
        .selectFrom('locations')
        .select(['id', 'tenant_id', 'slug'])
        .where('slug', 'like', `${prefix}%`)
        .orderBy('id')
        .execute();
    let nextId = 100;

    it("give a row without tenant_id the scoped tenant's id and accept the scoped tenant's own", async () => {
      const db = tenantKysely(orm.em.fork(), 1);
      await db
        .insertInto('locations')
        .values({ id: nextId++, slug: 'ins-implicit', name: 'x' } as never)
        .execute();
      await db
        .insertInto('locations')
        .values({ id: nextId++, tenant_id: 1, slug: 'ins-explicit', name: 'x' })
        .execute();
      await db
        .insertInto('locations')
        .values([
          { id: nextId++, slug: 'ins-many-1', name: 'x' } as never,
          { id: nextId++, slug: 'ins-many-2', name: 'y' } as never,
        ])
        .execute();
      expect((await locationsNamed('ins-')).map((row) => row.tenant_id)).toEqual([1, 1, 1, 1]);
    });

    it('refuse a row for another tenant, or a tenant_id that cannot be checked, and write nothing', async () => {
      const db = tenantKysely(orm.em.fork(), 1);
      const attempts = [
        db.insertInto('locations').values({ id: nextId++, tenant_id: 2, slug: 'bad-other', name: 'x' }),
        db.insertInto('locations').values([
          { id: nextId++, tenant_id: 1, slug: 'bad-mixed-own', name: 'x' },
          { id: nextId++, tenant_id: 2, slug: 'bad-mixed-other', name: 'x' },
        ]),
        db
          .insertInto('locations')
          .values({ id: nextId++, tenant_id: sql<number>`1 + 1`, slug: 'bad-expression', name: 'x' }),
        db
          .insertInto('locations')
          .columns(['id', 'tenant_id', 'slug', 'name'])
          .expression((eb) =>
            eb
              .selectFrom('tenants')
              .select([
                sql<number>`9999`.as('id'),
                sql<number>`2`.as('tenant_id'),
                sql<string>`'bad-select'`.as('slug'),
                'name',
              ]),
          ),
        db.insertInto('tenants').values({ id: 3, slug: 'c', name: 'C' } as never),
      ];
      for (const attempt of attempts) await expect(attempt.execute()).rejects.toBeInstanceOf(TenantScopeViolation);
      expect(await locationsNamed('bad-')).toEqual([]);
      expect(await raw().selectFrom('tenants').select('id').where('id', '=', 3).execute()).toEqual([]);
    });

    it("accept an insert … select only when it selects the tenant's id as a value, and scope its select", async () => {
      const db = tenantKysely(orm.em.fork(), 1);
      const copyLocations = (tenantId: unknown, slug: string) =>
        db
          .insertInto('locations')
          .columns(['id', 'tenant_id', 'slug', 'name'])
          .expression((eb) =>
            eb
              .selectFrom('locations as source')
              .select([
                sql<number>`source.id + 1000`.as('id'),
                eb.val(tenantId as number).as('tenant_id'),
                eb.val(slug).as('slug'),
                'source.name',
              ])
              .where('source.slug', '=', 'same'),
          );
      // Both tenants have a location `same`: the scoped select copies tenant 1's only.
      await copyLocations(1, 'sel-own').execute();
      expect(await locationsNamed('sel-')).toEqual([{ id: 1001, tenant_id: 1, slug: 'sel-own' }]);
      // Every part of a UNION ALL is checked (a cast of the value counts as the value).
      const union = (second: number) =>
        db
          .insertInto('locations')
          .columns(['id', 'tenant_id', 'slug', 'name'])
          .expression((eb) => {
            const part = (id: number, tenantId: number, slug: string) =>
              eb
                .selectFrom('tenants')
                .select([
                  eb.cast<number>(eb.val(id), 'integer').as('id'),
                  eb.cast<number>(eb.val(tenantId), 'integer').as('tenant_id'),
                  eb.cast<string>(eb.val(slug), 'text').as('slug'),
                  'name',
                ]);
            return part(2001, 1, 'sel-union-a').unionAll(part(2002, second, 'sel-union-b'));
          });
      await union(1).execute();
      expect((await locationsNamed('sel-union')).map((row) => [row.slug, row.tenant_id])).toEqual([
        ['sel-union-a', 1],
        ['sel-union-b', 1],
      ]);
      for (const attempt of [copyLocations(2, 'sel-other'), copyLocations('2', 'sel-other-text'), union(2)]) {
        await expect(attempt.execute()).rejects.toBeInstanceOf(TenantScopeViolation);
      }
      expect(await locationsNamed('sel-')).toHaveLength(3);
    });

    it("never update another tenant's row on conflict, nor move a row to another tenant", async () => {
      const db = tenantKysely(orm.em.fork(), 2);
      // id 1 is tenant 1's location: the conflict is on a key shared by all tenants.
      const upserted = await db
        .insertInto('locations')
        .values({ id: 1, tenant_id: 2, slug: 'conflict', name: 'taken over' })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name: 'taken over' }))
        .returning('id')
        .execute();
      expect(upserted).toEqual([]);
      expect(
        await raw().selectFrom('locations').select(['tenant_id', 'name']).where('id', '=', 1).executeTakeFirst(),
      ).toEqual({ tenant_id: 1, name: 'A office' });
      await expect(
        db
          .insertInto('locations')
          .values({ id: 1, tenant_id: 2, slug: 'conflict', name: 'x' })
          .onConflict((oc) => oc.column('id').doUpdateSet({ tenant_id: 1 }))
          .execute(),
      ).rejects.toBeInstanceOf(TenantScopeViolation);
      await expect(
        tenantKysely(orm.em.fork(), 1).updateTable('locations').set({ tenant_id: 2 }).execute(),
      ).rejects.toBeInstanceOf(TenantScopeViolation);
      // Its own row is still updated on conflict.
      await db
        .insertInto('locations')
        .values({ id: nextId, tenant_id: 2, slug: 'own-conflict', name: 'first' })
        .execute();
      const own = await db
        .insertInto('locations')
        .values({ id: nextId++, tenant_id: 2, slug: 'own-conflict', name: 'second' })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name: 'second' }))
        .returning('name')
        .execute();
      expect(own).toEqual([{ name: 'second' }]);
    });

    it('write only rows of the scoped tenant, whatever tenant ids a batch names', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 }),
          fc.array(fc.constantFrom<number | undefined>(1, 2, undefined), { minLength: 1, maxLength: 5 }),
          async (scoped, tenantIds) => {
            const prefix = `prop-${run++}-`;
            const rows = tenantIds.map((tenantId, i) => ({
              id: nextId++,
              slug: `${prefix}${i}`,
              name: 'p',
              ...(tenantId === undefined ? {} : { tenant_id: tenantId }),
            }));
            const written = await tenantKysely(orm.em.fork(), scoped)
              .insertInto('locations')
              .values(rows as never)
              .execute()
              .then(
                () => true,
                (error: unknown) => {
                  expect(error).toBeInstanceOf(TenantScopeViolation);
                  return false;
                },
              );
            const stored = await locationsNamed(prefix);
            expect(written).toBe(tenantIds.every((tenantId) => tenantId === undefined || tenantId === scoped));
            expect(stored.map((row) => row.tenant_id)).toEqual(written ? rows.map(() => scoped) : []);
          },
        ),
        { numRuns: 40 },
      );
    });
  });
});
