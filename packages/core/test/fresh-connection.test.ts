import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createTestDatabase } from './support/database.ts';
import {
  isReadOnlyStatement,
  READ_ONLY_FUNCTIONS,
  reconnectBeforeSend,
  retryWhenSessionLost,
  statementKind,
} from '../src/db/fresh-connection.ts';
import { openOrm, poolOf } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { sql } from 'kysely';

/**
 * A TCP hop between the pool and PostgreSQL that can go away like a restarting PgBouncer or a router with no primary
 * behind it: `cut` ends every connection and refuses new ones for `downMs`; `cutAfterStatement` forwards the bytes of
 * the next statement matching a pattern (it reaches the server and runs) and then ends that connection before the answer.
 */
async function startHop(target: URL) {
  const sockets = new Set<Socket>();
  let cutNext: RegExp | undefined;
  let startDelayMs = 0;
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      let started = false;
      client.on('data', (chunk) => {
        upstream.write(chunk);
        // The first bytes are the start-up; later ones are statements.
        if (started && cutNext?.test(chunk.toString('latin1'))) {
          cutNext = undefined;
          // The answer never reaches the client; the server runs the statement meanwhile.
          upstream.unpipe(client);
          setTimeout(() => {
            client.destroy();
            upstream.destroy();
          }, 200);
        }
        started = true;
      });
      // The server's bytes wait meanwhile (a socket nobody reads stays paused): a start-up that takes this long.
      if (startDelayMs > 0) setTimeout(() => upstream.pipe(client), startDelayMs);
      else upstream.pipe(client);
      for (const socket of [client, upstream]) {
        socket.on('error', () => {});
        socket.on('close', () => sockets.delete(socket));
      }
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  await listen();
  return {
    url: () => `postgres://${target.username}:${target.password}@127.0.0.1:${port}${target.pathname}`,
    cut: async (downMs: number) => {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      await sleep(downMs);
      await listen();
    },
    /** New connections finish their start-up `ms` late (a loaded machine: fork, SCRAM); 0 for none. */
    delayStart: (ms: number) => {
      startDelayMs = ms;
    },
    /** Cuts the connection that next sends a statement matching `statement`, after the server got it. */
    cutAfterStatement: (statement: RegExp) => {
      cutNext = statement;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}

let databaseUrl: string;
let hop: Awaited<ReturnType<typeof startHop>>;
let pool: pg.Pool | undefined;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query('create table if not exists writes (id serial primary key, note text not null)');
  await admin.end();
  hop = await startHop(new URL(databaseUrl));
});
afterEach(async () => {
  hop.delayStart(0);
  await pool?.end();
  pool = undefined;
});
afterAll(async () => hop?.close());

function reconnectingPool(reconnectForMs: number): pg.Pool {
  pool = new pg.Pool({ connectionString: hop.url(), max: 2, connectionTimeoutMillis: 2_000 });
  pool.on('error', () => {});
  reconnectBeforeSend(pool, reconnectForMs);
  return pool;
}

/** pg_terminate_backend of the sessions running a statement like `pattern` (what a fast shutdown does to each). */
async function terminate(pattern: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select pg_terminate_backend(pid) as done from pg_stat_activity where query like $1 and pid <> pg_backend_pid()',
      [pattern],
    );
    expect(rows.length).toBeGreaterThan(0);
  } finally {
    await client.end();
  }
}

async function notes(): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ note: string }>('select note from writes order by id')).rows.map((row) => row.note);
  } finally {
    await client.end();
  }
}

describe('reconnectBeforeSend', () => {
  it('waits out a database that refuses connections for a moment (a PgBouncer restart), then runs the statement', async () => {
    const db = reconnectingPool(3_000);
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const down = hop.cut(500);
    await sleep(20);
    const started = Date.now();
    expect((await db.query("insert into writes (note) values ('after a restart') returning note")).rows).toEqual([
      { note: 'after a restart' },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await down;
    expect(await notes()).toContain('after a restart');
  });

  it('runs a transaction on a fresh connection after the pooled ones were closed, once', async () => {
    const db = reconnectingPool(3_000);
    // Two idle connections in the pool, both cut while idle.
    const [a, b] = [await db.connect(), await db.connect()];
    a.release();
    b.release();
    await hop.cut(100);
    const client = await db.connect();
    try {
      await client.query('begin');
      await client.query("insert into writes (note) values ('in a transaction')");
      await client.query('commit');
    } finally {
      client.release();
    }
    expect((await notes()).filter((note) => note === 'in a transaction')).toEqual(['in a transaction']);
  });

  it('never runs again a write whose COMMIT may have reached the server: the caller sees the failure, the row is stored once', async () => {
    const db = reconnectingPool(3_000);
    await db.query('select 1');
    // The simple-query message of the COMMIT (the statement's own text also holds the word).
    hop.cutAfterStatement(/Q[\s\S]{4}commit\0/);
    await expect(db.query("insert into writes (note) values ('committed, then cut')")).rejects.toThrow(
      /Connection terminated/,
    );
    expect((await notes()).filter((note) => note === 'committed, then cut')).toEqual(['committed, then cut']);
  });

  it('runs a write again when its session was lost before its COMMIT (the server rolled it back): stored once, answered', async () => {
    const db = reconnectingPool(3_000);
    await db.query('select 1');
    hop.cutAfterStatement(/rolled back, then again/);
    expect(
      (await db.query("insert into writes (note) values ('rolled back, then again') returning note")).rows,
    ).toEqual([{ note: 'rolled back, then again' }]);
    // The cut transaction's backend ends when it sees its connection gone: give it a moment before counting.
    await sleep(300);
    expect((await notes()).filter((note) => note === 'rolled back, then again')).toEqual(['rolled back, then again']);
  });

  it('runs a read again on a fresh connection when its answer was lost (a read in a transaction of its own)', async () => {
    const db = reconnectingPool(3_000);
    await db.query('select 1');
    hop.cutAfterStatement(/count\(\*\)::int as reads/);
    expect((await db.query('select count(*)::int as reads from writes where note = $1', ['none'])).rows).toEqual([
      { reads: 0 },
    ]);
  });

  it('runs a read again when the server ends its session mid-statement (57P01, as a shutdown does)', async () => {
    const db = reconnectingPool(3_000);
    const running = db.query("select 'after a shutdown' as note from pg_sleep(0.5)");
    await sleep(200);
    await terminate('%pg_sleep(0.5)%');
    expect((await running).rows).toEqual([{ note: 'after a shutdown' }]);
  });

  it('runs a write again when the server ends its session before its COMMIT, and stores it once', async () => {
    const db = reconnectingPool(3_000);
    const running = db.query(
      "insert into writes (note) select 'terminated, then again' from pg_sleep(0.5) returning note",
    );
    await sleep(200);
    await terminate('%terminated, then again%');
    expect((await running).rows).toEqual([{ note: 'terminated, then again' }]);
    expect((await notes()).filter((note) => note === 'terminated, then again')).toEqual(['terminated, then again']);
  });

  it('leaves a statement that failed on its own as it was: the error passes, nothing is retried', async () => {
    const db = reconnectingPool(3_000);
    await expect(db.query('insert into writes (note) values (null)')).rejects.toMatchObject({ code: '23502' });
    await expect(db.query('select 1/0')).rejects.toMatchObject({ code: '22012' });
    expect((await db.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('gives up on a read whose fresh connection never comes, and the caller releases its client once, without error', async () => {
    const db = reconnectingPool(400);
    const client = await db.connect();
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    const running = client.query("select 'never answered' as note from pg_sleep(0.3)");
    await sleep(100);
    // The session is lost under a read (which may run again), then no connection comes within the window.
    const down = hop.cut(1_500);
    await expect(running).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(() => client.release(true)).not.toThrow();
    await down;
    expect((await db.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
  });

  it('gives up after its window: a database that stays away fails the checkout', async () => {
    const db = reconnectingPool(400);
    await db.query('select 1');
    const down = hop.cut(2_000);
    await sleep(20);
    const started = Date.now();
    await expect(db.query('select 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(Date.now() - started).toBeLessThan(1_500);
    await down;
  });
});

describe('retryWhenSessionLost', () => {
  /** One attempt of a transaction that writes `note` once; `during` runs before its COMMIT. */
  const writeOnce =
    (db: pg.Pool, note: string, attempts: boolean[], during?: (client: pg.PoolClient) => Promise<unknown>) =>
    async (again: boolean) => {
      attempts.push(again);
      const client = await db.connect();
      let broken = false;
      try {
        await client.query('begin');
        const done = again && ((await client.query('select 1 from writes where note = $1', [note])).rowCount ?? 0) > 0;
        if (!done) await client.query('insert into writes (note) values ($1)', [note]);
        if (!again) await during?.(client);
        await client.query('commit');
      } catch (error) {
        broken = true;
        throw error;
      } finally {
        client.release(broken);
      }
    };

  it('runs a transaction again when the server ended its session mid-way (57P01): stored once', async () => {
    const db = reconnectingPool(3_000);
    const attempts: boolean[] = [];
    const note = 'ended mid-transaction';
    await retryWhenSessionLost(
      writeOnce(db, note, attempts, (client) => client.query('select pg_terminate_backend(pg_backend_pid())')),
    );
    expect(attempts).toEqual([false, true]);
    expect((await notes()).filter((stored) => stored === note)).toEqual([note]);
  });

  it('does not write twice when the session was lost after the COMMIT reached the server', async () => {
    const db = reconnectingPool(3_000);
    const attempts: boolean[] = [];
    const note = 'committed, answer lost';
    const attempt = writeOnce(db, note, attempts);
    await retryWhenSessionLost(async (again) => {
      await attempt(again);
      if (!again)
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    expect(attempts).toEqual([false, true]);
    expect((await notes()).filter((stored) => stored === note)).toEqual([note]);
  });

  it('never runs again a transaction that failed on its own or timed out', async () => {
    for (const failure of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ]) {
      let attempts = 0;
      await expect(
        retryWhenSessionLost(async () => {
          attempts++;
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(attempts).toBe(1);
    }
  });

  it('gives up after its window', async () => {
    let attempts = 0;
    const started = Date.now();
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), {});
    await expect(
      retryWhenSessionLost(async () => {
        attempts++;
        throw lost;
      }, 300),
    ).rejects.toBe(lost);
    expect(attempts).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('a transaction whose session ends', () => {
  it('gives its connection back: the ROLLBACK of a lost session counts as done (the server rolled back), so nothing stays checked out', async () => {
    const orm = await openOrm(databaseUrl);
    try {
      for (let i = 0; i < 3; i++) {
        await expect(
          orm.em.transactional(async (tx) => {
            await sql`insert into writes (note) values ('never kept')`.execute(kyselyOf(tx));
            await sql`select pg_terminate_backend(pg_backend_pid())`.execute(kyselyOf(tx));
          }),
        ).rejects.toMatchObject({ code: '57P01' });
      }
      const stats = (await poolOf(orm))!;
      expect(stats.totalCount - stats.idleCount).toBe(0);
      expect(await notes()).not.toContain('never kept');
      expect(await orm.em.getConnection().execute('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      const closed = orm.close(true).then(() => 'closed');
      expect(await Promise.race([closed, sleep(5_000).then(() => 'still waiting')])).toBe('closed');
    }
  });
});

describe('closing while a connection is still starting', () => {
  it('hands out no connection that arrives after the pool began to close: it is released, and the close does not wait for it', async () => {
    hop.delayStart(300);
    const db = reconnectingPool(1_000);
    const checkout = db.connect();
    await sleep(50);
    pool = undefined;
    const ended = db.end();
    await expect(checkout).rejects.toThrow('the database pool is closing');
    await ended;
    expect(db.totalCount).toBe(0);
  });

  it('closes the ORM while its first statement is still connecting: the statement fails, the close returns', async () => {
    hop.delayStart(300);
    const orm = await openOrm(hop.url());
    const statement = orm.em.getConnection().execute('select 1 as one');
    await sleep(50);
    const closed = orm.close().then(() => 'closed');
    await expect(statement).rejects.toThrow('the database pool is closing');
    // Before, Kysely's driver failed on the late connection without releasing it, and the close waited forever.
    expect(await Promise.race([closed, sleep(3_000).then(() => 'still waiting')])).toBe('closed');
  });

  it('opening the ORM and asking for its pool runs no statement of its own (nothing left running at a close)', async () => {
    const orm = await openOrm(hop.url());
    try {
      const native = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
      expect(native.totalCount).toBe(0);
    } finally {
      await orm.close();
    }
  });
});

describe('which statements may run again', () => {
  it('tells reads from statements that may write', () => {
    for (const read of [
      'select 1',
      '  /* a comment */ select "v"."id", "v"."updated_at" from "vacancies" as "v" where "v"."tenant_id" = $1 limit $2',
      'with counts as (select location_id, count(*) from vacancies group by 1) select * from counts',
      'select careers_events_horizon() as horizon',
      "select careers_search_text($1) @@ websearch_to_tsquery('simple', $2)",
    ])
      expect([read, statementKind(read)]).toEqual([read, 'read']);
    for (const write of [
      'insert into writes (note) values ($1)',
      'update vacancies set canonical_url = $1 where id = $2',
      'delete from rate_limit_windows where bucket = $1',
      'with next as (select id from pgboss.job limit 1 for update skip locked) update pgboss.job set state = 1 from next',
      'select id from vacancies where id = $1 for update',
      'select id from vacancies for key share',
      "select nextval('events_position_seq')",
      'select pg_advisory_lock(1)',
      "select set_config('x.y', '1', false)",
      'select pgboss.create_queue($1, $2)',
      'select "pgboss"."create_queue"($1)',
      'select careers_refresh_vacancy_search($1)',
      'select careers_announce_time_passing()',
      'select * into copy_of_vacancies from vacancies',
      '-- insert\nselect careers_something_new()',
    ])
      expect([write, statementKind(write)]).toEqual([write, 'write']);
    for (const other of [
      'vacuum analyze vacancies',
      'set statement_timeout = 1000',
      'select 1; delete from writes',
      'copy writes from stdin',
      'listen x',
    ])
      expect([other, statementKind(other)]).toEqual([other, 'other']);
    expect(statementKind('BEGIN')).toBe('begin');
    expect(isReadOnlyStatement('select /* update */ 1')).toBe(true);
  });

  it('lists as read-only only project functions that cannot write (STABLE or IMMUTABLE, or the checked horizon)', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; volatility: string }>(
        "select proname as name, provolatile as volatility from pg_proc where proname like 'careers\\_%' and proname = any($1)",
        [[...READ_ONLY_FUNCTIONS]],
      );
      expect(rows.map((row) => row.name).sort()).toEqual([...READ_ONLY_FUNCTIONS].sort());
      // careers_events_horizon is VOLATILE only for its transaction-scoped locks (see READ_ONLY_FUNCTIONS).
      expect(rows.filter((row) => row.volatility === 'v').map((row) => row.name)).toEqual(['careers_events_horizon']);
    } finally {
      await client.end();
    }
  });
});
