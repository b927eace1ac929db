import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Socket } from 'node:net';
import fc from 'fast-check';
import { migrateUp, openOrm } from '@careers/core';
import {
  canStartPgBouncer,
  canStartReplicatedPostgres,
  createTestDatabase,
  startReplicatedPostgres,
  type TReplicatedPostgres,
} from '@careers/core/testing';
import { fetchChecked, startTestApi, type TTestApi } from './support/api.ts';
import { startApiProcess } from './support/processes.ts';
import { seed } from './support/seed.ts';
import { keys, query, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * Public reads with a streaming replica (DATABASE_READ_URL), on a real PostgreSQL 15 primary and replica:
 * answers computed on the replica are the primary's, a client's write is seen by its next request on any API
 * process even while the replica lags, and a replica that is down costs seconds, never an error.
 * Skipped where Debian's PostgreSQL 15 binaries are absent.
 */

const [reader, writer] = [
  keys(1, 1, ['vacancies:read', 'locations:read'])[0]!,
  keys(2, 1, ['vacancies:read', 'vacancies:write'])[0]!,
];
const DOMAIN = 'careers.replica.example';

let cluster: TReplicatedPostgres;
/** Two API processes over the primary and the replica (each its own content cache), and one on the primary only. */
let first: TTestApi;
let second: TTestApi;
let primaryOnly: TTestApi;

const sql = (text: string, values: unknown[] = []) => query(cluster.primaryUrl, text, values);
const titleOf = async (api: TTestApi, slug: string) =>
  (await api.get(`/vacancies/${slug}`, reader.key)).body.data.title as string;
/** A read through one of the two processes shows every title as last acknowledged (a list) or the one asked for. */
async function expectAcknowledged(read: { via: number; id: number; list: boolean }, acknowledged: Map<string, string>) {
  const api = [first, second][read.via]!;
  if (read.list) {
    const listed = (await api.get('/vacancies?per_page=10', reader.key)).body.data as Array<{
      slug: string;
      title: string;
    }>;
    for (const { slug, title } of listed) expect(title, slug).toBe(acknowledged.get(slug));
  } else {
    expect(await titleOf(api, `job-${read.id}`)).toBe(acknowledged.get(`job-${read.id}`));
  }
}

const withoutViews = (body: unknown) =>
  JSON.parse(JSON.stringify(body, (key, value: unknown) => (key === 'views_count' ? undefined : value)));
const READS = [
  '/vacancies',
  '/vacancies?include=facets&sort=title',
  '/vacancies/facets',
  '/vacancies/job-1',
  '/vacancies/job-2?include_structured_data=true',
  '/locations?include_vacancy_count=true',
];

describe.skipIf(!canStartReplicatedPostgres())('public reads with a read replica', () => {
  beforeAll(async () => {
    cluster = await startReplicatedPostgres();
    const orm = await openOrm(cluster.primaryUrl);
    await migrateUp(orm);
    await orm.close();
    await seed(cluster.primaryUrl, {
      tenants: [
        tenant('replica', {
          career_site: { domain: DOMAIN, url_pattern: `https://${DOMAIN}/jobs/{slug}` },
          api_keys: [reader, writer].map((k) => ({ ...k, name: `key ${k.id}` })),
          locations: [{ id: 1, slug: 'utrecht', name: 'Utrecht', locality: 'Utrecht', country_code: 'NL' }],
          vacancies: [1, 2, 3, 4].map((id) => vacancy(id, `job-${id}`, { title: `Job ${id}`, location_id: 1 })),
        }),
      ],
    });
    await cluster.caughtUp();
    // One public address, so that the answers of the three compare whole (pagination links included).
    const publicUrl = 'https://api.replica.example';
    const withReplica = { publicUrl, core: { readReplicaUrl: cluster.replicaUrl } };
    [first, second, primaryOnly] = await Promise.all([
      startTestApi(cluster.primaryUrl, withReplica),
      startTestApi(cluster.primaryUrl, withReplica),
      startTestApi(cluster.primaryUrl, { publicUrl }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first, second, primaryOnly].map((api) => api?.close()));
    await cluster?.stop();
  });

  it('answers from the replica what the primary answers', async () => {
    const before = first.services.replica!.stats.onReplica;
    for (const path of READS) {
      const [fromReplica, fromPrimary] = await Promise.all([
        first.get(path, reader.key),
        primaryOnly.get(path, reader.key),
      ]);
      expect(fromReplica.status, path).toBe(200);
      // Both processes count the detail views they serve: the counters are live fields, read on the primary anyway.
      expect(withoutViews(fromReplica.body), path).toEqual(withoutViews(fromPrimary.body));
    }
    expect(first.services.replica!.stats.onReplica - before).toBe(READS.length);
    const { body: metrics } = await first.services.metrics.render();
    expect(metrics).toMatch(
      new RegExp(
        `careers_content_cache_computations_total\\{database="replica"\\} ${first.services.replica!.stats.onReplica}\\n`,
      ),
    );
  });

  it("shows a client its own writes on every process while the replica's replay is paused", async () => {
    await cluster.pauseReplay();
    try {
      expect(await titleOf(second, 'job-1')).toBe('Job 1');
      // A canonical URL reported through one process, read through the other.
      const url = `https://${DOMAIN}/jobs/job-1?ref=report`;
      expect((await first.post('/vacancies/job-1/canonical-url', { url }, writer.key)).status).toBe(200);
      expect((await second.get('/vacancies/job-1', reader.key)).body.data.url).toBe(url);
      // A content change on the primary: the next read of either process shows it, computed on the primary.
      const onPrimary = second.services.replica!.stats.onPrimary;
      await sql(`update vacancies set title = 'Job 1 renamed' where slug = 'job-1'`);
      expect(await titleOf(second, 'job-1')).toBe('Job 1 renamed');
      expect(await titleOf(first, 'job-1')).toBe('Job 1 renamed');
      expect(
        (await second.get('/vacancies?sort=title', reader.key)).body.data.map((v: { title: string }) => v.title),
      ).toContain('Job 1 renamed');
      expect(second.services.replica!.stats.onPrimary).toBeGreaterThan(onPrimary);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
    await sql(`update vacancies set title = 'Job 1 again' where slug = 'job-1'`);
    await cluster.caughtUp();
    const onReplica = second.services.replica!.stats.onReplica;
    expect(await titleOf(second, 'job-1')).toBe('Job 1 again');
    expect(second.services.replica!.stats.onReplica).toBe(onReplica + 1);
  });

  it('never shows an answer older than a write the client saw acknowledged, whatever the lag', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), id: fc.integer({ min: 1, max: 2 }) }),
      fc.record({
        kind: fc.constant('read' as const),
        via: fc.constantFrom(0, 1),
        id: fc.integer({ min: 1, max: 2 }),
        list: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('pause' as const) }),
      fc.record({ kind: fc.constant('resume' as const) }),
    );
    let generation = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (steps) => {
        // What every client has seen acknowledged so far: the titles as committed on the primary.
        const acknowledged = new Map(
          (await sql('select slug, title from vacancies')).map((row) => [row.slug as string, row.title as string]),
        );
        try {
          for (const s of steps) {
            if (s.kind === 'read') await expectAcknowledged(s, acknowledged);
            else if (s.kind === 'pause') await cluster.pauseReplay();
            else if (s.kind === 'resume') await cluster.resumeReplay();
            else {
              const title = `Job ${s.id} v${++generation}`;
              await sql('update vacancies set title = $1 where slug = $2', [title, `job-${s.id}`]);
              acknowledged.set(`job-${s.id}`, title);
            }
          }
        } finally {
          await cluster.resumeReplay();
        }
      }),
      { numRuns: 12 },
    );
  }, 60_000);

  it('falls back to the primary within seconds when the replica is down, and goes back to it when it returns', async () => {
    await cluster.stopReplica();
    try {
      await sql(`update vacancies set title = 'Job 2 while down' where slug = 'job-2'`);
      const started = Date.now();
      const response = await first.get('/vacancies/job-2', reader.key);
      expect(response.status).toBe(200);
      expect(response.body.data.title).toBe('Job 2 while down');
      expect(first.services.replica!.stats.failures).toBeGreaterThan(0);
      // The breaker holds further reads on the primary without trying the replica again.
      const failures = first.services.replica!.stats.failures;
      await sql(`update vacancies set title = 'Job 2 still down' where slug = 'job-2'`);
      expect(await titleOf(first, 'job-2')).toBe('Job 2 still down');
      expect(first.services.replica!.stats.failures).toBe(failures);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await cluster.startReplica();
    }
    await cluster.caughtUp();
  });

  it.skipIf(!canStartPgBouncer())(
    'serves through PgBouncer in transaction mode: two API processes, replay paused, a write through one read through the other',
    async () => {
      const bouncerUrl = await cluster.startPgBouncer();
      // PgBouncer refuses the startup parameters that carry session settings; DB_TRANSACTION_POOLING leaves them out.
      await expect(startApiProcess(bouncerUrl)).rejects.toThrow(/unsupported startup parameter/);
      const env = { DB_TRANSACTION_POOLING: '1', DATABASE_READ_URL: cluster.replicaUrl };
      const processes = await Promise.all([startApiProcess(bouncerUrl, env), startApiProcess(bouncerUrl, env)]);
      const [one, other] = processes.map((api) => ({
        get: (path: string) => fetchChecked(api.baseUrl + path, { headers: { authorization: `Bearer ${reader.key}` } }),
        post: (path: string, body: unknown) =>
          fetchChecked(api.baseUrl + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.key}` },
            body: JSON.stringify(body),
          }),
      }));
      try {
        expect((await other!.get('/vacancies/job-4')).body.data.title).toBe('Job 4');
        await cluster.pauseReplay();
        const url = `https://${DOMAIN}/jobs/job-4?via=bouncer`;
        expect((await one!.post('/vacancies/job-4/canonical-url', { url })).status).toBe(200);
        expect((await other!.get('/vacancies/job-4')).body.data.url).toBe(url);
        await sql(`update vacancies set title = 'Job 4 via bouncer' where slug = 'job-4'`);
        expect((await one!.get('/vacancies/job-4')).body.data.title).toBe('Job 4 via bouncer');
        expect((await other!.get('/vacancies?per_page=10')).body.data.map((v: { title: string }) => v.title)).toContain(
          'Job 4 via bouncer',
        );
      } finally {
        await cluster.resumeReplay();
        await Promise.all(processes.map((api) => api.stop()));
      }
    },
    60_000,
  );

  it('uses the replica again once it is back and the breaker has let a read through', async () => {
    const replica = first.services.replica!;
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    await sql(`update vacancies set title = 'Job 3 back' where slug = 'job-3'`);
    await cluster.caughtUp();
    const onReplica = replica.stats.onReplica;
    expect(await titleOf(first, 'job-3')).toBe('Job 3 back');
    expect(replica.stats.onReplica).toBe(onReplica + 1);
  });
});

describe('a read replica that never answers', () => {
  it('costs the first read at most the connect timeout, and the next ones nothing while the breaker is open', async () => {
    // Accepts connections and never says a word: a frozen server or a partition, not a refusal.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const databaseUrl = await createTestDatabase();
    await seed(databaseUrl, {
      tenants: [
        tenant('silent', {
          api_keys: [{ ...reader, name: 'reader' }],
          vacancies: [vacancy(1, 'job-1', { title: 'Job 1' })],
        }),
      ],
    });
    const { port } = silent.address() as { port: number };
    const api = await startTestApi(databaseUrl, {
      core: { readReplicaUrl: `postgres://postgres@127.0.0.1:${port}/careers` },
    });
    try {
      let started = Date.now();
      expect(await titleOf(api, 'job-1')).toBe('Job 1');
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(api.services.replica!.stats).toMatchObject({ onReplica: 0, onPrimary: 1, failures: 1 });
      await query(databaseUrl, `update vacancies set title = 'Job 1 again' where slug = 'job-1'`);
      started = Date.now();
      expect(await titleOf(api, 'job-1')).toBe('Job 1 again');
      expect(Date.now() - started).toBeLessThan(500);
      expect(api.services.replica!.stats).toMatchObject({ onPrimary: 2, failures: 1 });
    } finally {
      await api.close();
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});
