import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { readEventsAfter, recordEvent } from '../src/modules/events/events.service.ts';
import { readAllEventsAfter } from '../src/modules/events/events.jobs.service.ts';

let url: string;
let orm: MikroORM;
const clients: pg.Client[] = [];

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url);
  await kyselyOf(orm.em.fork())
    .insertInto('tenants')
    .values([
      { id: 1, slug: 'acme', name: 'Acme' },
      { id: 2, slug: 'other', name: 'Other' },
    ])
    .execute();
  for (let i = 0; i < 6; i++) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
  }
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await orm?.close();
});

const insertSql = `insert into events (tenant_id, type, object, object_id, data) values ($1, 'application.created', 'application', $2, '{}')`;

describe('event outbox', () => {
  it('records an event with an evt_ id and its data, positioned at commit', async () => {
    const db = kyselyOf(orm.em.fork());
    const { id } = await recordEvent(
      { db: db, tenant: { id: 1 } },
      { type: 'application.created', object: 'application', objectId: 7, data: { vacancy_id: 3 } },
    );
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    const rows = await readEventsAfter({ db: db, tenant: { id: 1 } }, { after: 0, limit: 10 });
    const row = rows.find((r) => r.id === id)!;
    expect(row).toMatchObject({
      tenant: 'acme',
      type: 'application.created',
      object: 'application',
      object_id: '7',
      data: { id: 7, vacancy_id: 3 },
    });
    expect(row.position).toBeGreaterThan(0);
  });

  it('an event rolled back with its transaction is never seen', async () => {
    const before = await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 1000 });
    await clients[0]!.query('begin');
    await clients[0]!.query(insertSql, [1, 'rolled-back']);
    await clients[0]!.query('rollback');
    const after = await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 1000 });
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it('readers see every entry exactly once, in commit order, whatever order transactions begin and commit in', async () => {
    const reader = kyselyOf(orm.em.fork());
    let cursor = (await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    let tenantCursor =
      (await readEventsAfter({ db: reader, tenant: { id: 2 } }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    let label = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: clients.length })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
              fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n }),
            ),
          ),
        async ([n, commitOrder, sizes]) => {
          const seen: string[] = [];
          const seenForTenant: string[] = [];
          const page = async () => {
            for (;;) {
              const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 2 });
              seen.push(...rows.map((r) => r.object_id));
              if (rows.length > 0) cursor = rows.at(-1)!.position;
              const own = await readEventsAfter({ db: reader, tenant: { id: 2 } }, { after: tenantCursor, limit: 1 });
              seenForTenant.push(...own.map((r) => r.object_id));
              if (own.length > 0) tenantCursor = own.at(-1)!.position;
              if (rows.length === 0 && own.length === 0) return;
            }
          };
          const written: string[][] = [];
          // Transactions begin (and write) in index order…
          for (let t = 0; t < n; t++) {
            await clients[t]!.query('begin');
            written[t] = [];
            for (let k = 0; k < sizes[t]!; k++) {
              const objectId = `w${label++}`;
              await clients[t]!.query(insertSql, [2, objectId]);
              written[t]!.push(objectId);
            }
            await page();
          }
          // …and commit in another order while the reader pages all the while.
          const expected: string[] = [];
          for (const t of commitOrder) {
            await clients[t]!.query('commit');
            expected.push(...written[t]!);
            await page();
          }
          expect(seen).toEqual(expected);
          expect(seenForTenant).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('committers do not wait for each other, and a reader never passes a position that may still become visible', async () => {
    const reader = kyselyOf(orm.em.fork());
    const cursor =
      (await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    const tenantCursor =
      (await readEventsAfter({ db: reader, tenant: { id: 1 } }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    const [late, early] = [clients[0]!, clients[1]!];
    await late.query('begin');
    await late.query(insertSql, [1, 'late']);
    // Positions drawn now (as at commit), and the transaction stays open: it holds its committing lock.
    await late.query('set constraints events_sequence_at_commit immediate');
    try {
      const started = performance.now();
      await early.query('begin');
      await early.query(insertSql, [1, 'early']);
      await early.query('commit');
      // Under one global lock this commit waited for the other transaction to end.
      expect(performance.now() - started).toBeLessThan(500);
      // 'early' is visible with a higher position than 'late', which may still commit: neither is read yet.
      expect(await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 100 })).toEqual([]);
      expect(await readEventsAfter({ db: reader, tenant: { id: 1 } }, { after: tenantCursor, limit: 100 })).toEqual([]);
      await late.query('commit');
    } finally {
      await late.query('rollback').catch(() => undefined);
    }
    const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 100 });
    expect(rows.map((row) => row.object_id)).toEqual(['late', 'early']);
    expect(
      (await readEventsAfter({ db: reader, tenant: { id: 1 } }, { after: tenantCursor, limit: 100 })).map(
        (row) => row.object_id,
      ),
    ).toEqual(['late', 'early']);
  });

  it('events written inside savepoints are positioned with their transaction, in insertion order', async () => {
    const cursor =
      (await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    const client = clients[0]!;
    await client.query('begin');
    await client.query(insertSql, [1, 'outer-1']);
    await client.query('savepoint kept');
    await client.query(insertSql, [1, 'inner-kept']);
    await client.query('release savepoint kept');
    await client.query('savepoint dropped');
    await client.query(insertSql, [1, 'inner-undone']);
    await client.query('rollback to savepoint dropped');
    await client.query(insertSql, [1, 'outer-2']);
    await client.query('commit');
    const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 100 });
    expect(rows.map((r) => r.object_id)).toEqual(['outer-1', 'inner-kept', 'outer-2']);
  });

  it('positioning at commit reads as many blocks after thousands of earlier events as after none', async () => {
    // Positioning writes a new row version; the old one's index entries stay until VACUUM, which this open
    // snapshot holds back. The commit must find its own events without walking those entries.
    const [holder, writer] = [clients[4]!, clients[5]!];
    const blocksRead = `select (select sum(pg_stat_get_xact_blocks_fetched(indexrelid)) from pg_index where indrelid = 'events'::regclass)
      + pg_stat_get_xact_blocks_fetched('events'::regclass) as blocks`;
    const blocksToPositionOne = async () => {
      await writer.query('begin');
      await writer.query(insertSql, [1, 'probe']);
      const before = Number((await writer.query(blocksRead)).rows[0].blocks);
      await writer.query('set constraints events_sequence_at_commit immediate');
      const after = Number((await writer.query(blocksRead)).rows[0].blocks);
      await writer.query('commit');
      return after - before;
    };
    await holder.query('begin isolation level repeatable read');
    await holder.query('select 1');
    try {
      const alone = await blocksToPositionOne();
      for (let i = 0; i < 2000; i++) await writer.query(insertSql, [1, `earlier-${i}`]);
      // As autovacuum would: with statistics, the planner must still take the writer's index.
      await writer.query('analyze events');
      const afterMany = await blocksToPositionOne();
      expect(afterMany).toBeLessThan(alone * 2); // 23 → 24 here; walking the old entries read 110 (480 before writer_xact)
    } finally {
      await holder.query('rollback');
    }
  });

  it('concurrent committers: every entry exactly once under parallel commits', async () => {
    let cursor = (await readAllEventsAfter({ em: orm.em.fork() }, { after: 0, limit: 100_000 })).at(-1)?.position ?? 0;
    const seen: string[] = [];
    let writing = true;
    const pager = (async () => {
      while (writing) {
        const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 7 });
        seen.push(...rows.map((r) => r.object_id));
        if (rows.length > 0) cursor = rows.at(-1)!.position;
      }
    })();
    const written = await Promise.all(
      clients.map(async (client, c) => {
        const ids: string[] = [];
        for (let i = 0; i < 30; i++) {
          await client.query('begin');
          const objectId = `p${c}-${i}`;
          await client.query(insertSql, [1, objectId]);
          if (i % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
          await client.query('commit');
          ids.push(objectId);
        }
        return ids;
      }),
    );
    writing = false;
    await pager;
    for (;;) {
      const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 100 });
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => r.object_id));
      cursor = rows.at(-1)!.position;
    }
    expect(seen.sort()).toEqual(written.flat().sort());
  });
});
