import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { pruneExpiredEvents, announceTimePassing } from '@careers/core/worker';
import { startTestApi, type TTestApi } from './support/api.ts';
import { startApiProcess } from './support/processes.ts';

const KEYS = {
  full: 'ck_test_changes_full_key_000001',
  vacancies: 'ck_test_changes_vacancies_00002',
  articles: 'ck_test_changes_articles_000003',
  none: 'ck_test_changes_team_only_00004',
  apply: 'ck_test_changes_applications_05',
  globex: 'ck_test_changes_globex_key_0006',
};
const DAY = 24 * 3600 * 1000;
const NOW = Date.now();
// Fixed once, so that importing the same document again changes nothing.
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

type TVacancy = {
  id: number;
  slug: string;
  title: string;
  status?: string;
  channels?: string[];
  published_at?: string | null;
  ends_at?: string | null;
};
const vacancy = (v: TVacancy) => ({
  language: 'en',
  status: 'published',
  channels: ['api'],
  published_at: ago(3),
  ends_at: null,
  ...v,
});

function document(vacancies: TVacancy[]) {
  return {
    tenants: [
      {
        id: 1,
        slug: 'acme',
        name: 'Acme',
        default_language: 'en',
        api_keys: [
          { id: 1, name: 'full', key: KEYS.full, scopes: ['vacancies:read', 'articles:read'], revoked: false },
          { id: 2, name: 'vacancies', key: KEYS.vacancies, scopes: ['vacancies:read'], revoked: false },
          { id: 3, name: 'articles', key: KEYS.articles, scopes: ['articles:read'], revoked: false },
          { id: 4, name: 'team', key: KEYS.none, scopes: ['team:read'], revoked: false },
          { id: 5, name: 'apply', key: KEYS.apply, scopes: ['applications:write'], revoked: false },
        ],
        vacancies: vacancies.map(vacancy),
        articles: [
          {
            id: 1,
            slug: 'hello',
            type: 'news',
            status: 'published',
            published_at: ago(2),
            created_at: ago(4),
            translations: { en: { title: 'Hello', body_html: '<p>Hi</p>' } },
          },
          {
            id: 2,
            slug: 'later',
            type: 'news',
            status: 'draft',
            published_at: null,
            created_at: ago(4),
            translations: { en: { title: 'Later', body_html: '<p>Soon</p>' } },
          },
        ],
      },
      {
        id: 2,
        slug: 'globex',
        name: 'Globex',
        default_language: 'en',
        api_keys: [
          { id: 6, name: 'globex', key: KEYS.globex, scopes: ['vacancies:read', 'articles:read'], revoked: false },
        ],
        vacancies: [vacancy({ id: 90, slug: 'globex-job', title: 'Globex job' })],
      },
    ],
  };
}

const VACANCIES: TVacancy[] = [
  { id: 1, slug: 'engineer', title: 'Engineer' },
  { id: 2, slug: 'designer', title: 'Designer' },
  { id: 3, slug: 'draft', title: 'Draft', status: 'draft' },
  { id: 4, slug: 'scheduled', title: 'Scheduled', published_at: ago(-3) },
];

let api: TTestApi;
let databaseUrl: string;
let sql: pg.Client;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument({ em: api.services.orm.em }, document(VACANCIES));
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await api?.close();
});

type TEntry = {
  cursor: string;
  event_id: string;
  type: string;
  object: string;
  id: number;
  slug: string | null;
  occurred_at: string;
};

/** Pages through the feed from `after` with `next_cursor` until has_more is false. */
async function readAll(after: string | undefined, options: { key?: string; limit?: number; query?: string } = {}) {
  const entries: TEntry[] = [];
  let cursor = after;
  for (;;) {
    const params = [cursor ? `after=${cursor}` : '', `limit=${options.limit ?? 100}`, options.query ?? '']
      .filter(Boolean)
      .join('&');
    const response = await api.get(`/changes?${params}`, options.key ?? KEYS.full);
    expect(response.status, response.text).toBe(200);
    entries.push(...response.body.data);
    cursor = response.body.next_cursor;
    if (!response.body.has_more) return { entries, cursor: cursor! };
  }
}
const brief = (entries: TEntry[]) => entries.map((e) => `${e.type} ${e.slug}`);

describe('GET /changes', () => {
  let start: string;

  it('answers the entries of the tenant in the documented shape, in commit order', async () => {
    const response = await api.get('/changes', KEYS.full);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'has_more', 'next_cursor']);
    expect(response.body.has_more).toBe(false);
    const entries = response.body.data as TEntry[];
    // The import writes articles before vacancies (ids in order within a statement).
    expect(brief(entries)).toEqual([
      'article.published hello',
      'vacancy.published engineer',
      'vacancy.published designer',
    ]);
    expect(entries[1]).toEqual({
      cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'vacancy.published',
      object: 'vacancy',
      id: 1,
      slug: 'engineer',
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(response.body.next_cursor).toBe(entries.at(-1)!.cursor);
    start = response.body.next_cursor;
    // Another tenant's feed is its own.
    const globex = await api.get('/changes', KEYS.globex);
    expect(brief(globex.body.data)).toEqual(['vacancy.published globex-job']);
  });

  it('pages with next_cursor: every entry once, has_more until the end, then `after` again', async () => {
    const all = await readAll(undefined, { limit: 1 });
    expect(brief(all.entries)).toEqual([
      'article.published hello',
      'vacancy.published engineer',
      'vacancy.published designer',
    ]);
    const first = await api.get('/changes?limit=2', KEYS.full);
    expect(first.body.has_more).toBe(true);
    const empty = await api.get(`/changes?after=${start}`, KEYS.full);
    expect(empty.body).toEqual({ data: [], next_cursor: start, has_more: false });
  });

  it('scopes decide which entries a key reads; types[] narrows them', async () => {
    expect(brief((await readAll(undefined, { key: KEYS.vacancies })).entries)).toEqual([
      'vacancy.published engineer',
      'vacancy.published designer',
    ]);
    expect(brief((await readAll(undefined, { key: KEYS.articles })).entries)).toEqual(['article.published hello']);
    expect(brief((await readAll(undefined, { query: 'types[]=article' })).entries)).toEqual([
      'article.published hello',
    ]);
    expect(brief((await readAll(undefined, { query: 'types[]=vacancy&types[]=article' })).entries)).toHaveLength(3);
    const none = await api.get('/changes', KEYS.none);
    expect(none.status).toBe(403);
    expect(none.body).toEqual({
      message: 'This API key does not have the required scope: vacancies:read.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'vacancies:read',
    });
    // The scope comes before input validation.
    expect((await api.get('/changes?limit=0', KEYS.none)).status).toBe(403);
    const denied = await api.get('/changes?types[]=article', KEYS.vacancies);
    expect(denied.status).toBe(403);
    expect(denied.body.required_scope).toBe('articles:read');
  });

  it('422 on a cursor that is not ours, on limit and on types', async () => {
    const otherTenant = (await api.get('/changes', KEYS.globex)).body.next_cursor;
    const forged = Buffer.from('c1.1.99999999').toString('base64url');
    for (const after of ['nonsense', otherTenant, forged, `${start}=`, 'YWJj', '']) {
      const response = await api.get(`/changes?after=${encodeURIComponent(after)}`, KEYS.full);
      expect(response.status, after).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(['after']);
    }
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=x', 'limit'],
      ['types[]=application', 'types.0'],
    ] as const) {
      const response = await api.get(`/changes?${query}`, KEYS.full);
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.errors), query).toEqual([field]);
    }
    expect((await api.get('/changes?limit=1000', KEYS.full)).status).toBe(200);
  });

  it('cursors tell nothing: no tenant id or position inside, none spelled twice the same, and any changed byte is 422', async () => {
    const first = (await api.get('/changes?limit=1', KEYS.full)).body.data[0].cursor as string;
    const again = (await api.get('/changes?limit=1', KEYS.full)).body.data[0].cursor as string;
    // The same entry's cursor is sealed afresh each time: equal positions do not even look equal.
    expect(again).not.toBe(first);
    const ids = async (after: string) =>
      ((await api.get(`/changes?after=${after}`, KEYS.full)).body.data as TEntry[]).map((entry) => entry.event_id);
    expect(await ids(again)).toEqual(await ids(first));
    expect(await ids(first)).toHaveLength(2);
    const { rows } = await sql.query<{ position: string }>(
      `select position from events where tenant_id = 1 order by position limit 1`,
    );
    const bytes = Buffer.from(first, 'base64url');
    // (Not checked as text: a one-digit position is one byte value, which random bytes hold one time in seven.)
    const position = Buffer.alloc(8);
    position.writeBigUInt64BE(BigInt(rows[0]!.position));
    expect(bytes.includes(position)).toBe(false);
    // Every cursor has the same length, whatever the position and tenant.
    const lengths = new Set(
      [first, start, (await api.get('/changes', KEYS.globex)).body.next_cursor].map((cursor: string) => cursor.length),
    );
    expect(lengths.size).toBe(1);
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i] = tampered[i]! ^ 0x01;
      const response = await api.get(`/changes?after=${tampered.toString('base64url')}`, KEYS.full);
      expect(response.status, `byte ${i}`).toBe(422);
      expect(response.body).toEqual({
        message: 'The given data was invalid.',
        errors: { after: ['The selected after is invalid.'] },
      });
    }
  });

  it("another tenant's busy feed changes nothing a quiet tenant can see; its cursor is 422 here", async () => {
    const quiet = await api.get('/changes', KEYS.globex);
    expect(quiet.body.data).toHaveLength(1);
    // Acme writes; globex's answers are the same entries, with cursors that say nothing of acme's count.
    await sql.query(
      `insert into events (tenant_id, type, object, object_id, slug, data) select 1, 'vacancy.updated', 'vacancy', '1', 'engineer', '{}' from generate_series(1, 50)`,
    );
    const later = await api.get(`/changes?after=${quiet.body.next_cursor}`, KEYS.globex);
    expect(later.body).toEqual({ data: [], next_cursor: quiet.body.next_cursor, has_more: false });
    expect((await api.get(`/changes?after=${quiet.body.next_cursor}`, KEYS.full)).status).toBe(422);
    // Acme's reader skips past the 50 (the cursor it holds stays good).
    const read = await readAll(start, { limit: 1000 });
    expect(read.entries).toHaveLength(50);
    start = read.cursor;
  });

  it('a cursor from one API process is good in another (the key is stored, not made per process)', async () => {
    const [a, b] = await Promise.all([startApiProcess(databaseUrl), startApiProcess(databaseUrl)]);
    try {
      const get = async (base: string, path: string) => {
        const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${KEYS.full}` } });
        return { status: response.status, body: (await response.json()) as { data: TEntry[]; next_cursor: string } };
      };
      const fromA = await get(a.baseUrl, '/changes?limit=1');
      expect(fromA.status).toBe(200);
      const fromB = await get(b.baseUrl, `/changes?after=${fromA.body.next_cursor}&limit=1`);
      expect(fromB.status).toBe(200);
      expect(fromB.body.data[0]!.event_id).toBe((await get(a.baseUrl, '/changes?limit=2')).body.data[1]!.event_id);
      expect((await get(a.baseUrl, `/changes?after=${fromB.body.next_cursor}&limit=1`)).status).toBe(200);
      // And with this test process's own (in-process) API, too.
      expect((await api.get(`/changes?after=${fromB.body.next_cursor}&limit=1`, KEYS.full)).status).toBe(200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 90_000);

  it('an application (API write) is no feed entry; a re-import that changes nothing is none; one that renames and drafts is', async () => {
    const applied = await api.post(
      '/applications',
      {
        vacancy: 'engineer',
        candidate: { given_name: 'Jo', family_name: 'Doe', email: 'jo@example.org' },
        privacy_policy_accepted: true,
      },
      KEYS.apply,
    );
    expect(applied.status, applied.text).toBe(201);
    const { rows } = await sql.query(`select type, object_id from events where type = 'application.created'`);
    expect(rows).toEqual([{ type: 'application.created', object_id: String(applied.body.data.id) }]);
    await importTenantDocument({ em: api.services.orm.em }, document(VACANCIES));
    let read = await readAll(start);
    expect(read.entries).toEqual([]);
    await importTenantDocument(
      { em: api.services.orm.em },
      document([
        { ...VACANCIES[0]!, title: 'Senior engineer' },
        { ...VACANCIES[1]!, status: 'draft' },
        ...VACANCIES.slice(2),
      ]),
    );
    read = await readAll(start);
    expect(brief(read.entries)).toEqual(['vacancy.unpublished designer', 'vacancy.updated engineer']);
    start = read.cursor;
  });

  it('hand-written SQL and time passing appear in the feed too', async () => {
    await sql.query(`update vacancies set published_at = now() - interval '1 second' where id = 4`);
    // published_at moved into the past by SQL: the trigger announces it at once (the scheduled job would otherwise).
    await sql.query(`update vacancies set ends_at = now() + interval '300 milliseconds' where id = 1`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await announceTimePassing({ em: api.services.orm.em.fork() })).toBe(1);
    const read = await readAll(start);
    expect(brief(read.entries)).toEqual([
      'vacancy.published scheduled',
      'vacancy.updated engineer',
      'vacancy.unpublished engineer',
    ]);
    start = read.cursor;
  });

  it('concurrent writers: transactions begun in one order and committed in another are each read once, in commit order', async () => {
    const writers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        return client;
      }),
    );
    try {
      const seen: TEntry[] = [];
      let cursor = start;
      const page = async () => {
        const read = await readAll(cursor, { limit: 2 });
        seen.push(...read.entries);
        cursor = read.cursor;
      };
      const order = [3, 0, 4, 1, 2];
      // Transaction 0 creates a visible vacancy (its trigger records the event; content writers of one tenant queue on the
      // tenant's content version, so only one of them can be open at a time); the others record events as code paths
      // and the scheduled job do. They begin in index order and commit in `order`.
      for (const [index, client] of writers.entries()) {
        await client.query('begin');
        if (index === 0) {
          await client.query(
            `insert into vacancies (id, tenant_id, slug, title, language, status, channels, published_at) values (100, 1, 'concurrent-0', 'C', 'en', 'published', array['api'], now() - interval '1 minute')`,
          );
        } else {
          await client.query(
            `insert into events (tenant_id, type, object, object_id, slug, data) values (1, 'vacancy.updated', 'vacancy', $1, $2, '{}')`,
            [String(100 + index), `concurrent-${index}`],
          );
        }
        await page();
      }
      for (const index of order) {
        await writers[index]!.query('commit');
        await page();
      }
      expect(brief(seen)).toEqual(
        order.map((index) => `${index === 0 ? 'vacancy.published' : 'vacancy.updated'} concurrent-${index}`),
      );
      start = cursor;
    } finally {
      await Promise.all(writers.map((client) => client.end()));
    }
  });

  it('410 for a cursor older than the retention; reading from the start still works', async () => {
    const oldest = (await api.get('/changes?limit=1', KEYS.full)).body.next_cursor;
    await sql.query(
      `update events set occurred_at = now() - interval '40 days' where position <= (select min(position) + 1 from events where tenant_id = 1)`,
    );
    expect(await pruneExpiredEvents({ em: api.services.orm.em.fork() }, { retentionDays: 30 })).toBeGreaterThan(0);
    const expired = await api.get(`/changes?after=${oldest}`, KEYS.full);
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ message: 'Cursor expired.', error: 'CURSOR_EXPIRED' });
    const fresh = await api.get('/changes', KEYS.full);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data[0].slug).not.toBe('engineer');
    // The latest cursor of a tenant whose old entries were pruned is still good.
    expect((await api.get(`/changes?after=${start}`, KEYS.full)).status).toBe(200);
    // Another tenant's quiet cursor does not expire because acme's entries were pruned.
    const globex = (await api.get('/changes', KEYS.globex)).body.next_cursor;
    expect((await api.get(`/changes?after=${globex}`, KEYS.globex)).status).toBe(200);
  });
});
