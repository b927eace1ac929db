import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createTestDatabase } from './support/database.ts';
import { reconnectBeforeSend } from '../src/db/fresh-connection.ts';

/**
 * A TCP hop between the pool and PostgreSQL that can go away like a restarting PgBouncer or a router with no primary
 * behind it: `cut` ends every connection and refuses new ones for `downMs`; `cutAfterNextStatement` forwards the next
 * bytes a client sends (a statement reaches the server and runs) and then ends that connection before the answer.
 */
async function startHop(target: URL) {
  const sockets = new Set<Socket>();
  let cutNext = false;
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
        if (started && cutNext) {
          cutNext = false;
          // The answer never reaches the client; the server runs the statement meanwhile.
          upstream.unpipe(client);
          setTimeout(() => {
            client.destroy();
            upstream.destroy();
          }, 200);
        }
        started = true;
      });
      upstream.pipe(client);
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
    cutAfterNextStatement: () => {
      cutNext = true;
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
    expect((await db.query("insert into writes (note) values ('after a restart') returning note")).rows).toEqual([{ note: 'after a restart' }]);
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

  it('never runs again a statement that may have run: the caller sees the failure, the row is stored once', async () => {
    const db = reconnectingPool(3_000);
    await db.query('select 1');
    hop.cutAfterNextStatement();
    await expect(db.query("insert into writes (note) values ('sent, then cut')")).rejects.toThrow(/Connection terminated/);
    expect((await notes()).filter((note) => note === 'sent, then cut')).toEqual(['sent, then cut']);
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
