import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTestDatabase,
  ReadLimiter,
  ContentCache,
  estimateBytes,
  tenantKysely,
  findVacancyPageAnchors,
  NO_VACANCY_FILTERS as NO_FILTERS,
  vacancyPageQuery,
  type TVacancySort,
  ANCHOR_SPACING,
  DEEP_OFFSET,
} from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TResponse, type TTestApi } from './support/api.ts';
import { query } from './support/write-fixtures.ts';
import { DAY, emptyTenant, type TVacancyDoc } from './support/vacancy-fixtures.ts';

/**
 * One caller cannot make the others wait on expensive reads: a key's cache-missing and uncached reads run a few
 * at a time (beyond a short queue: 429 with Retry-After) while other keys are answered at once, deep pages do not
 * walk every row before them, and one tenant's churn cannot evict another tenant's cached answers.
 */

const KEY_A = 'ck_test_reads_umbrella_hammer_01';
const KEY_C = 'ck_test_reads_umbrella_calm_0002';
const KEY_B = 'ck_test_reads_globex_calm_000003';
const KEY_DEEP = 'ck_test_reads_initech_deep_00004';
const LIMITS = { perKey: 4, total: 8, queuePerKey: 16, maxWaitMs: 10_000, reserve: 2 };
/** The turns a key alone may use: all but those kept free for another key's read. */
const ALONE = LIMITS.total - LIMITS.reserve;

function vacancy(id: number, fields: Partial<TVacancyDoc> = {}): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    summary: `What job ${id} is about. `.repeat(20),
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: new Date(Date.now() - DAY - id * 60_000).toISOString(),
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    ...fields,
  };
}

const umbrella = emptyTenant('umbrella', {
  api_keys: [
    { id: 1, name: 'Hammer', key: KEY_A, scopes: ['vacancies:read', 'team:read'] },
    { id: 2, name: 'Calm', key: KEY_C, scopes: ['vacancies:read', 'team:read'] },
  ],
  tags: [{ id: 1, name: { en: 'Science' }, parent_id: null }],
  vacancies: Array.from({ length: 40 }, (_, i) => vacancy(i + 1, { tag_ids: i % 2 === 0 ? [1] : [] })),
});
const globex = emptyTenant('globex', {
  api_keys: [{ id: 3, name: 'Calm', key: KEY_B, scopes: ['vacancies:read'] }],
  vacancies: [vacancy(101), vacancy(102), vacancy(103)],
});
const initech = emptyTenant('initech', {
  api_keys: [{ id: 4, name: 'Deep', key: KEY_DEEP, scopes: ['vacancies:read'] }],
});

let api: TTestApi;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl, { core: { readLimits: LIMITS } });
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [umbrella, globex, initech] });
});
afterAll(async () => api?.close());

/** A transaction of another client that holds an exclusive lock on `table` until `release`. */
async function lockTable(table: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(`lock table ${table} in access exclusive mode`);
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function timed(request: Promise<TResponse>): Promise<{ response: TResponse; ms: number }> {
  const started = performance.now();
  const response = await request;
  return { response, ms: performance.now() - started };
}

function expectShed(response: TResponse): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ message: 'Too Many Attempts.' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  // No rate-limit window stands behind this answer, so none is reported.
  expect(response.headers.get('x-ratelimit-limit')).toBeNull();
}

describe('a key with too many expensive reads in flight', () => {
  it('a key alone uses every turn but the reserve, is shed beyond them and its queue; other keys start at once, and every answer is right', async () => {
    // Warm every key's tenant: the names vacancies refer to and the visibility boundary are cached per version.
    for (const key of [KEY_A, KEY_C, KEY_B]) expect((await api.get('/vacancies', key)).status).toBe(200);
    const shedBefore = api.services.reads.shed;
    // Misses of KEY_A below need the tags table (their tag filter); hold it so they stay in flight.
    const lock = await lockTable('tags');
    let pending: Array<Promise<TResponse>> = [];
    try {
      const count = ALONE + LIMITS.queuePerKey + 4;
      pending = Array.from({ length: count }, (_, i) => api.get(`/vacancies?tags[]=1&per_page=${i + 1}`, KEY_A));
      // Work-conserving: alone, the key runs more reads than its share — all but the reserved turns.
      await until(
        () => api.services.reads.shed - shedBefore === 4 && api.services.reads.load.waiting === LIMITS.queuePerKey,
        'the queue to fill',
      );
      expect(api.services.reads.load.running).toBe(ALONE);

      // Meanwhile: a miss and a hit of another key of the same tenant, and a miss of another tenant's key, at once.
      const others = await Promise.all([
        timed(api.get('/vacancies?per_page=7', KEY_C)),
        timed(api.get('/vacancies', KEY_C)),
        timed(api.get('/vacancies?per_page=2', KEY_B)),
      ]);
      for (const { response, ms } of others) {
        expect(response.status).toBe(200);
        expect(ms).toBeLessThan(1_500);
      }
      expect(others[0]!.response.body.data).toHaveLength(7);
      expect(others[2]!.response.body.data.map((v: { id: number }) => v.id)).toEqual([101, 102]);
    } finally {
      await lock.release();
    }
    const responses = await Promise.all(pending);
    const shed = responses.filter((response) => response.status === 429);
    expect(shed).toHaveLength(4);
    for (const response of shed) expectShed(response);
    // Vacancies with tag 1 are the odd ids, newest (lowest id) first.
    responses.forEach((response, i) => {
      if (response.status === 429) return;
      expect(response.status).toBe(200);
      expect(response.body.meta.total).toBe(20);
      expect(response.body.data.map((v: { id: number }) => v.id)).toEqual(
        Array.from({ length: Math.min(i + 1, 20) }, (_, j) => 2 * j + 1),
      );
    });
    expect(api.services.reads.load).toEqual({ running: 0, waiting: 0 });
    const metrics = (await api.services.metrics.render()).body;
    expect(metrics).toContain(`careers_expensive_reads_shed_total ${api.services.reads.shed}`);
  });

  it('is shed on uncached reads too (team), in the same turns', async () => {
    const shedBefore = api.services.reads.shed;
    const lock = await lockTable('team_members');
    let pending: Array<Promise<TResponse>> = [];
    try {
      pending = Array.from({ length: ALONE + LIMITS.queuePerKey + 2 }, (_, i) =>
        api.get(`/team?per_page=${(i % 50) + 1}`, KEY_A),
      );
      await until(() => api.services.reads.shed - shedBefore === 2, 'two reads to be shed');
      // Another key's cached read needs no turn: it is not held up.
      const other = await timed(api.get('/vacancies', KEY_B));
      expect(other.response.status).toBe(200);
      expect(other.ms).toBeLessThan(1_500);
    } finally {
      await lock.release();
    }
    const responses = await Promise.all(pending);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(ALONE + LIMITS.queuePerKey);
    for (const response of responses.filter((r) => r.status !== 200)) expectShed(response);
  });
});

describe('ReadLimiter', () => {
  const reader = (id: number) => ({ apiKey: { id }, response: { headers: {} as Record<string, string> } });
  const gate = () => {
    let open!: () => void;
    return { promise: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
  };

  it('refuses a read that waited too long, and gives freed turns to waiting keys in rotation', async () => {
    const limiter = new ReadLimiter({ perKey: 2, total: 2, queuePerKey: 3, maxWaitMs: 100 });
    const busy = gate();
    const running = [limiter.run(reader(1), () => busy.promise), limiter.run(reader(1), () => busy.promise)];
    const late = reader(1);
    await expect(limiter.run(late, async () => 'never')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(Number(late.response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);

    // Key 1 queues three more, then key 2 one: key 2's read is the second to get a turn, not the fourth.
    const order: string[] = [];
    const slow = new ReadLimiter({ perKey: 1, total: 1, queuePerKey: 3, maxWaitMs: 5_000 });
    const first = gate();
    const reads = [slow.run(reader(1), () => first.promise)];
    for (const name of ['a1', 'a2', 'a3']) reads.push(slow.run(reader(1), async () => void order.push(name)));
    reads.push(slow.run(reader(2), async () => void order.push('b1')));
    await expect(slow.run(reader(1), async () => undefined)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    first.open();
    await Promise.all(reads);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    busy.open();
    await Promise.all(running);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
    expect(limiter.shed).toBe(1);
  });
});

describe('ReadLimiter, work-conserving', () => {
  const reader = (id: number) => ({ apiKey: { id }, response: { headers: {} as Record<string, string> } });

  it('property: a key alone gets every turn but the reserve; another key starts at once in it, and once one waits, freed turns go to keys below their share first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 4 }),
        async (perKey, extra, reserve, asking) => {
          // Alone, key 1 runs all but the reserved turns (and at least its share).
          const total = perKey + extra + reserve;
          const alone = total - reserve;
          const limiter = new ReadLimiter({ perKey, total, queuePerKey: total * 2, maxWaitMs: 5_000, reserve });
          const gates: Array<() => void> = [];
          const started: string[] = [];
          const read = (key: number, name: string) =>
            limiter.run(reader(key), () => (started.push(name), new Promise<void>((resolve) => gates.push(resolve))));
          // Key 1 alone: as many reads run as the process allows, beyond its share.
          const reads = Array.from({ length: alone + 3 }, (_, i) => read(1, `a${i}`));
          await Promise.resolve();
          expect(limiter.load).toEqual({ running: alone, waiting: 3 });
          // Other keys ask: the reserved turns start some at once; then each freed turn goes to one of them (below
          // their share) before key 1's queued reads, while key 1 runs at least its share.
          const others = Math.min(asking, reserve + extra);
          for (let key = 2; key < 2 + others; key++) reads.push(read(key, `k${key}`));
          await new Promise((resolve) => setImmediate(resolve));
          expect(started.filter((name) => name.startsWith('k'))).toHaveLength(Math.min(others, reserve));
          for (let i = 0; i < others - Math.min(others, reserve); i++) {
            gates.shift()!();
            await new Promise((resolve) => setImmediate(resolve));
            expect(started.at(-1)).toMatch(/^k/);
          }
          // Then key 1's queue drains; everything ends, nothing is left running.
          while (gates.length > 0) {
            gates.shift()!();
            await new Promise((resolve) => setImmediate(resolve));
          }
          await Promise.all(reads);
          expect(started.filter((name) => name.startsWith('a'))).toHaveLength(alone + 3);
          expect(limiter.load).toEqual({ running: 0, waiting: 0 });
          expect(limiter.shed).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('ContentCache with ReadLimiter', () => {
  const readerOf = (tenantId: number, keyId: number) => ({
    db: tenantKysely(api.services.orm.em.fork(), tenantId),
    tenant: { id: tenantId },
    apiKey: { id: keyId },
    response: { headers: {} as Record<string, string> },
  });

  it('lets a read join a computation that runs without a turn of its own, and sheds a miss beyond the turns', async () => {
    const reads = new ReadLimiter({ perKey: 1, total: 1, queuePerKey: 0, maxWaitMs: 1_000 });
    const cache = new ContentCache({ maxBytes: 1024 * 1024, reads });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = cache.read(readerOf(1, 1), { key: 'same', compute: async () => (await gate, { value: 'answer' }) });
    await until(() => reads.load.running === 1, 'the computation to start');
    // Another key, same question: it waits for the running computation, not for a turn.
    const joined = cache.read(readerOf(1, 2), { key: 'same', compute: async () => ({ value: 'second computation' }) });
    // Another question while the only turn is taken and no one may queue: shed.
    const other = readerOf(1, 2);
    await expect(cache.read(other, { key: 'other', compute: async () => ({ value: 'x' }) })).rejects.toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
    });
    expect(other.response.headers['Retry-After']).toMatch(/^\d+$/);
    open();
    expect((await first).value).toBe('answer');
    expect((await joined).value).toBe('answer');
    expect(reads.shed).toBe(1);
  });

  it('property: after a tenant stores, it holds at most max(1/4, 1/active) of the budget, and the cache at most the budget', async () => {
    const budget = 64 * 1024;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tenant: fc.integer({ min: 1, max: 6 }),
            key: fc.integer({ min: 1, max: 40 }),
            size: fc.integer({ min: 100, max: 2_500 }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        async (operations) => {
          const cache = new ContentCache({ maxBytes: budget });
          const readers = new Map([1, 2, 3, 4, 5, 6].map((id) => [id, readerOf(id, id)]));
          for (const { tenant, key, size } of operations) {
            const value = 'x'.repeat(size);
            await cache.read(readers.get(tenant)!, { key: `k${key}:${size}`, compute: async () => ({ value }) });
            const active = [1, 2, 3, 4, 5, 6].filter((id) => cache.tenantBytes(id) > 0).length;
            expect(cache.tenantBytes(tenant)).toBeLessThanOrEqual(Math.max(budget / 4, budget / Math.max(1, active)));
            expect(cache.size.bytes).toBeLessThanOrEqual(budget);
            // The entry just stored is kept (it is the tenant's newest, and never larger than an eighth of the budget).
            expect(cache.tenantBytes(tenant)).toBeGreaterThanOrEqual(estimateBytes(value));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('deep pages', () => {
  const SIZE = 14_000;
  const SORTS: TVacancySort[] = ['published_at', 'title', 'created_at'];
  let initechId: number;
  /** Brute force: every visible vacancy of the tenant in each order, from one plain ordered query. */
  const expected = new Map<string, number[]>();

  beforeAll(async () => {
    initechId = (await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'initech'`))[0]!.id;
    // Many ties in every sort key (so pages cross anchors inside runs of equal keys), and some invisible rows.
    await query(
      databaseUrl,
      `insert into vacancies (tenant_id, slug, title, language, status, channels, published_at, created_at)
       select $1, 'deep-' || i, 'Role ' || (i % 37), 'en', case when i % 50 = 0 then 'draft' else 'published' end, '{api}',
              now() - interval '1 day' - (i % 400) * interval '1 minute' - (i % 7) * interval '1 microsecond',
              now() - interval '2 days' - (i % 91) * interval '1 second'
       from generate_series(1, ${SIZE}) as i`,
      [initechId],
    );
    await query(databaseUrl, 'analyze vacancies');
    for (const sort of SORTS) {
      const key = sort === 'title' ? 'lower(title)' : sort;
      for (const direction of ['asc', 'desc']) {
        const rows = await query<{ id: number }>(
          databaseUrl,
          `select id from vacancies where tenant_id = $1 and status = 'published' and 'api' = any(channels) and published_at <= now()
             and (ends_at is null or ends_at > now()) order by ${key} ${direction}, id ${direction}`,
          [initechId],
        );
        expected.set(
          `${sort} ${direction}`,
          rows.map((row) => row.id),
        );
      }
    }
  });

  it('answer exactly what a plain ordered list holds at that place, past the end included', async () => {
    const total = expected.get('title asc')!.length;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: DEEP_OFFSET - 2_000, max: total + 300 }),
        async (sort, direction, perPage, offset) => {
          const page = Math.floor(offset / perPage) + 1;
          const response = await api.get(
            `/vacancies?sort=${sort}&sort_direction=${direction}&per_page=${perPage}&page=${page}`,
            KEY_DEEP,
          );
          expect(response.status).toBe(200);
          expect(response.body.meta.total).toBe(total);
          const start = (page - 1) * perPage;
          expect(response.body.data.map((v: { id: number }) => v.id)).toEqual(
            expected.get(`${sort} ${direction}`)!.slice(start, start + perPage),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('walk at most the rows between two anchors, however deep', async () => {
    const db = tenantKysely(api.services.orm.em.fork(), initechId);
    const order = { sort: 'published_at' as const, direction: 'desc' as const };
    const offset = 12_345;
    const anchors = await findVacancyPageAnchors(db, NO_FILTERS, order, ANCHOR_SPACING);
    expect(anchors).toHaveLength(Math.ceil(expected.get('published_at desc')!.length / ANCHOR_SPACING));
    const from = anchors[Math.floor(offset / ANCHOR_SPACING)]!;
    const plain = await vacanciesRowsWalked(vacancyPageQuery(db, NO_FILTERS, order, { limit: 20, offset }).compile());
    const anchored = await vacanciesRowsWalked(
      vacancyPageQuery(db, NO_FILTERS, order, { limit: 20, offset: offset % ANCHOR_SPACING, from }).compile(),
    );
    expect(plain).toBeGreaterThan(offset);
    expect(anchored).toBeLessThanOrEqual(ANCHOR_SPACING + 2 * 20 + 100);
  });
});

/** Rows of `vacancies` the query's plan read (index entries or heap rows, filtered ones included). */
async function vacanciesRowsWalked(compiled: { sql: string; parameters: readonly unknown[] }): Promise<number> {
  const [row] = await query<{ 'QUERY PLAN': unknown }>(databaseUrl, `explain (analyze, format json) ${compiled.sql}`, [
    ...compiled.parameters,
  ]);
  type TNode = {
    'Relation Name'?: string;
    'Actual Rows'?: number;
    'Actual Loops'?: number;
    'Rows Removed by Filter'?: number;
    Plans?: TNode[];
  };
  const walk = (node: TNode): number =>
    (node['Relation Name'] === 'vacancies'
      ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node['Rows Removed by Filter'] ?? 0)
      : 0) + (node.Plans ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk((row!['QUERY PLAN'] as Array<{ Plan: TNode }>)[0]!.Plan);
}

describe('the content cache shared by tenants', () => {
  it("keeps a tenant's answers while another tenant churns through more than the whole budget", async () => {
    const budget = 256 * 1024;
    const small = await startTestApi(databaseUrl, { core: { contentCacheBytes: budget } });
    try {
      const globexPaths = ['/vacancies', '/vacancies/job-101', '/vacancies/facets'];
      for (const path of globexPaths) expect((await small.get(path, KEY_B)).status).toBe(200);
      // Umbrella asks 30 distinct questions of ~3–30 KB each: together more than the whole budget.
      for (let perPage = 1; perPage <= 15; perPage++) {
        for (const direction of ['asc', 'desc'])
          expect((await small.get(`/vacancies?per_page=${perPage}&sort_direction=${direction}`, KEY_C)).status).toBe(
            200,
          );
      }
      // Its own oldest answers made room for its newer ones.
      const missesBefore = small.services.content.misses;
      expect((await small.get('/vacancies?per_page=1&sort_direction=asc', KEY_C)).status).toBe(200);
      expect(small.services.content.misses - missesBefore).toBe(1);
      const umbrellaId = (
        await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'umbrella'`)
      )[0]!.id;
      // Two tenants hold entries: each may hold at most half.
      expect(small.services.content.tenantBytes(umbrellaId)).toBeLessThanOrEqual(budget / 2);
      expect(small.services.content.size.bytes).toBeLessThanOrEqual(budget);

      const hitsBefore = small.services.content.hits;
      for (const path of globexPaths) expect((await small.get(path, KEY_B)).status).toBe(200);
      expect(small.services.content.hits - hitsBefore).toBe(globexPaths.length);
    } finally {
      await small.close();
    }
  });
});
