import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestDatabase,
  ContentCache,
  CountedJson,
  estimateBytes,
  ContentStateReader,
  SerializedForm,
  tenantKysely,
} from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { query } from './support/write-fixtures.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

/**
 * The content cache behind the public reads (vacancy lists, facets and details, locations): whatever changes a
 * tenant's content — an import, an API write, a hand-written statement from another process — is seen by the
 * next request, visibility that changes with time is followed to the moment, and view counts are never as old
 * as the cached answer.
 */

const KEY = 'ck_test_cache_umbrella_read_001';
const KEY_TIME = 'ck_test_cache_cyberdyne_read_02';
const KEY_WRITE = 'ck_test_cache_umbrella_write_03';

function vacancy(id: number, fields: Partial<TVacancyDoc> = {}): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: new Date(Date.now() - DAY).toISOString(),
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    ...fields,
  };
}

function tenant(vacancies: TVacancyDoc[]): TTenantDoc {
  return emptyTenant('umbrella', {
    career_site: { domain: 'umbrella.example', url_pattern: 'https://umbrella.example/vacancies/{slug}' },
    api_keys: [
      { id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read', 'locations:read'] },
      { id: 3, name: 'Reporter', key: KEY_WRITE, scopes: ['vacancies:read', 'vacancies:write'] },
    ],
    locations: [{ id: 1, slug: 'raccoon-city', name: 'Raccoon City', locality: 'Raccoon City', country_code: 'US' }],
    tags: [
      { id: 1, name: { en: 'Science' }, parent_id: null },
      { id: 2, name: { en: 'Virology' }, parent_id: 1 },
    ],
    vacancies: vacancies.map((v) => ({ location_id: 1, ...v })),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (body: { data: Array<{ id: number }> }) => body.data.map((v) => v.id);

let api: TTestApi;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
});
afterAll(async () => api?.close());

describe('cached public reads', () => {
  it('see a new import at once', async () => {
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant([vacancy(1), vacancy(2)])] });
    expect((await api.get('/vacancies', KEY)).body.meta.total).toBe(2);
    expect((await api.get('/vacancies/facets', KEY)).body.data.locations[0].count).toBe(2);
    expect((await api.get('/locations?include_vacancy_count=true', KEY)).body.data[0].vacancy_count).toBe(2);

    await importTenantDocument(
      { em: api.services.orm.em },
      { tenants: [tenant([vacancy(1), vacancy(2), vacancy(3)])] },
    );
    const list = await api.get('/vacancies', KEY);
    expect(list.body.meta.total).toBe(3);
    expect(list.body.data).toHaveLength(3);
    const facets = await api.get('/vacancies/facets', KEY);
    expect(facets.body.meta.total).toBe(3);
    expect(facets.body.data.locations[0].count).toBe(3);
    expect((await api.get('/locations?include_vacancy_count=true', KEY)).body.data[0].vacancy_count).toBe(3);
  });

  it('see a statement written by another process at once: rows, links between rows, deletions', async () => {
    await importTenantDocument(
      { em: api.services.orm.em },
      { tenants: [tenant([vacancy(1, { tag_ids: [2] }), vacancy(2)])] },
    );
    // Fill every cache entry the assertions below use.
    expect((await api.get('/vacancies', KEY)).body.data.find((v: { id: number }) => v.id === 1).title).toBe('Job 1');
    expect((await api.get('/vacancies/job-1', KEY)).body.data.tags.map((t: { id: number }) => t.id)).toEqual([2]);
    expect((await api.get('/vacancies/facets?tags[]=1', KEY)).body.meta.total).toBe(1);
    expect((await api.get('/locations/raccoon-city', KEY)).body.data.name).toBe('Raccoon City');

    await query(databaseUrl, `update vacancies set title = 'Virologist' where id = 1`);
    expect((await api.get('/vacancies', KEY)).body.data.find((v: { id: number }) => v.id === 1).title).toBe(
      'Virologist',
    );
    expect((await api.get('/vacancies/job-1', KEY)).body.data.title).toBe('Virologist');

    await query(databaseUrl, 'delete from vacancy_tags where vacancy_id = 1');
    expect((await api.get('/vacancies/job-1', KEY)).body.data.tags).toEqual([]);
    expect((await api.get('/vacancies/facets?tags[]=1', KEY)).body.meta.total).toBe(0);

    await query(databaseUrl, `update locations set name = 'Raccoon City Lab' where id = 1`);
    expect((await api.get('/locations/raccoon-city', KEY)).body.data.name).toBe('Raccoon City Lab');

    await query(databaseUrl, 'delete from vacancies where id = 2');
    expect(ids((await api.get('/vacancies', KEY)).body)).not.toContain(2);
    expect((await api.get('/vacancies/job-2', KEY)).status).toBe(404);
  });

  it('see a reported canonical URL at once, without throwing the cache away', async () => {
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant([vacancy(1)])] });
    const job1 = (body: { data: Array<{ id: number; url: string }> }) => body.data.find((v) => v.id === 1)?.url;
    const before = (await api.get('/vacancies/job-1', KEY)).body.data.url;
    expect(job1((await api.get('/vacancies', KEY)).body)).toBe(before);
    const url = 'https://umbrella.example/jobs/job-1-reported';
    const version = async () =>
      (await query(databaseUrl, `select content_version from tenants where slug = 'umbrella'`))[0]?.content_version;
    const versionBefore = await version();
    const hitsBefore = api.services.content.hits;
    expect((await api.post('/vacancies/job-1/canonical-url', { url }, KEY_WRITE)).status).toBe(200);
    expect((await api.get('/vacancies/job-1', KEY)).body.data.url).toBe(url);
    expect(job1((await api.get('/vacancies', KEY)).body)).toBe(url);
    // A reported URL is a live field, read with every request: the cached answers stay valid.
    expect(await version()).toBe(versionBefore);
    expect(api.services.content.hits - hitsBefore).toBe(2);
    // Cleared by hand: the tenant's pattern applies again.
    await query(databaseUrl, 'update vacancies set canonical_url = null where id = 1');
    expect((await api.get('/vacancies/job-1', KEY)).body.data.url).toBe(before);
  });

  it('show view counts as written, not as cached, under an unchanged ETag', async () => {
    await api.services.flush(); // views counted by earlier tests must not land after the import below
    await importTenantDocument(
      { em: api.services.orm.em },
      { tenants: [tenant([vacancy(1, { views_count: 10 }), vacancy(2)])] },
    );
    const list = await api.get('/vacancies', KEY);
    const detail = await api.get('/vacancies/job-1', KEY);
    expect(detail.body.data.views_count).toBeGreaterThanOrEqual(10);
    await api.get('/vacancies/job-1', KEY);
    await api.services.flush();
    const versionBefore = await query(databaseUrl, `select content_version from tenants where slug = 'umbrella'`);

    const listAfter = await api.get('/vacancies', KEY);
    expect(listAfter.body.data.find((v: { id: number }) => v.id === 1).views_count).toBe(12);
    expect(listAfter.headers.get('etag')).toBe(list.headers.get('etag'));
    const detailAfter = await api.get('/vacancies/job-1', KEY);
    expect(detailAfter.body.data.views_count).toBe(12);
    expect(detailAfter.headers.get('etag')).toBe(detail.headers.get('etag'));
    // Counting views is not a content change: it leaves every cached answer valid.
    expect(await query(databaseUrl, `select content_version from tenants where slug = 'umbrella'`)).toEqual(
      versionBefore,
    );
  });

  it('follow visibility that changes with time to the moment: publication and end', async () => {
    const publishes = Date.now() + 1_500;
    const ends = Date.now() + 2_500;
    const cyberdyne = emptyTenant('cyberdyne', {
      api_keys: [{ id: 2, name: 'Site', key: KEY_TIME, scopes: ['vacancies:read'] }],
      vacancies: [
        vacancy(11),
        vacancy(14, { published_at: new Date(publishes).toISOString() }),
        vacancy(15, { ends_at: new Date(ends).toISOString() }),
      ],
    });
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [cyberdyne] });
    expect(ids((await api.get('/vacancies', KEY_TIME)).body).sort()).toEqual([11, 15]);
    expect((await api.get('/vacancies/facets', KEY_TIME)).body.meta.total).toBe(2);
    expect((await api.get('/vacancies/job-14', KEY_TIME)).status).toBe(404);

    await sleep(publishes - Date.now() + 50);
    expect(ids((await api.get('/vacancies', KEY_TIME)).body).sort()).toEqual([11, 14, 15]);
    expect((await api.get('/vacancies/facets', KEY_TIME)).body.meta.total).toBe(3);
    expect((await api.get('/vacancies/job-14', KEY_TIME)).status).toBe(200);

    await sleep(ends - Date.now() + 50);
    expect(ids((await api.get('/vacancies', KEY_TIME)).body).sort()).toEqual([11, 14]);
    expect((await api.get('/vacancies/facets', KEY_TIME)).body.meta.total).toBe(2);
    expect((await api.get('/vacancies/job-15', KEY_TIME)).status).toBe(404);
  });
});

describe('ContentStateReader', () => {
  it('shares one query among concurrent requests, yet never answers a request with a query sent before it', async () => {
    await importTenantDocument(
      { em: api.services.orm.em },
      {
        tenants: [tenant([vacancy(1, { views_count: 5 }), vacancy(2, { views_count: 6 })])],
      },
    );
    const tenantId = (await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'umbrella'`))[0]!
      .id;
    const db = tenantKysely(api.services.orm.em.fork(), tenantId);
    const reader = new ContentStateReader();

    const first = reader.read(db, tenantId, { table: 'vacancies', ids: [1] });
    // Committed while the first query may already be on its way: only requests that start later must see it.
    await query(databaseUrl, `update vacancies set title = 'Changed' where id = 2`);
    const [second, third] = [reader.read(db, tenantId, { table: 'vacancies', ids: [2] }), reader.read(db, tenantId)];
    const states = await Promise.all([first, second, third]);
    const version = (
      await query<{ version: string }>(databaseUrl, `select xmin::text as version from tenants where id = $1`, [
        tenantId,
      ])
    )[0]!.version;

    expect(states[1].version).toBe(version);
    // The two later requests shared one query: one state, with the view counts both asked for.
    expect(states[2]).toBe(states[1]);
    expect(states[1].live.vacancies.get(2)?.views_count).toBe(6);
    expect(states[0].live.vacancies.get(1)?.views_count).toBe(5);
  });
});

describe('ContentStateReader spacing', () => {
  it('under load, spaces queries so the requests of that moment share one, which still starts after each asked', async () => {
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant([vacancy(1, { views_count: 5 })])] });
    const tenantId = (await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'umbrella'`))[0]!
      .id;
    const db = tenantKysely(api.services.orm.em.fork(), tenantId);
    const reader = new ContentStateReader({ spacingMs: 40 });
    const started = performance.now();
    const alone = await reader.read(db, tenantId);
    // Alone: sent at once.
    expect(performance.now() - started).toBeLessThan(40);
    // A change committed before the next requests ask: they must see it, though their query waits for the spacing.
    await query(databaseUrl, `update vacancies set title = 'Changed again' where id = 1`);
    const asked = performance.now();
    const states = await Promise.all(
      Array.from({ length: 5 }, () => reader.read(db, tenantId, { table: 'vacancies', ids: [1] })),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(performance.now() - asked).toBeLessThan(1_000);
    for (const state of states) expect(state).toBe(states[0]);
    expect(states[0]!.version).not.toBe(alone.version);
    expect(states[0]!.live.vacancies.get(1)?.views_count).toBe(5);
  });
});

describe('ContentCache', () => {
  it('computes once for concurrent misses, keeps failures out, and stays within its byte budget', async () => {
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant([vacancy(1)])] });
    const tenantId = (await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'umbrella'`))[0]!
      .id;
    const db = tenantKysely(api.services.orm.em.fork(), tenantId);
    const cache = new ContentCache({ maxBytes: 64 * 1024 });
    const reader = { db, tenant: { id: tenantId }, apiKey: { id: 1 }, response: { headers: {} } };
    let computations = 0;
    const compute = async () => {
      computations++;
      await sleep(10);
      return { value: { n: computations } };
    };
    const answers = await Promise.all([1, 2, 3].map(() => cache.read(reader, { key: 'k', compute })));
    expect(answers.map((a) => a.value)).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect((await cache.read(reader, { key: 'k', compute })).value).toEqual({ n: 1 });

    await expect(cache.read(reader, { key: 'f', compute: () => Promise.reject(new Error('db down')) })).rejects.toThrow(
      'db down',
    );
    expect((await cache.read(reader, { key: 'f', compute: async () => ({ value: 'recovered' }) })).value).toBe(
      'recovered',
    );

    const big = 'x'.repeat(2_000);
    for (let i = 0; i < 100; i++) await cache.read(reader, { key: `big-${i}`, compute: async () => ({ value: big }) });
    expect(cache.size.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size.entries).toBeLessThan(100);
    // The most recent entry survived the eviction; the first did not.
    expect((await cache.read(reader, { key: 'big-99', compute: async () => ({ value: 'recomputed' }) })).value).toBe(
      big,
    );
    expect((await cache.read(reader, { key: 'big-0', compute: async () => ({ value: 'recomputed' }) })).value).toBe(
      'recomputed',
    );
  });
});

describe('ContentCache byte budget', () => {
  it('counts the serialized bytes an answer gets after it is stored, and evicts for them', async () => {
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [tenant([vacancy(1)])] });
    const tenantId = (await query<{ id: number }>(databaseUrl, `select id from tenants where slug = 'umbrella'`))[0]!
      .id;
    const db = tenantKysely(api.services.orm.em.fork(), tenantId);
    const maxBytes = 64 * 1024;
    const cache = new ContentCache({ maxBytes });
    const reader = { db, tenant: { id: tenantId }, apiKey: { id: 1 }, response: { headers: {} } };
    const schema = z.object({ text: z.string() });
    const text = 'y'.repeat(2_000);
    const readAndServe = async (key: string) => {
      const answer = await cache.read(reader, {
        key,
        compute: async () => ({ value: { text, form: new SerializedForm() } }),
      });
      const before = cache.size.bytes;
      answer.value.form.get('form key', () => CountedJson.of({ text }, schema));
      return { form: answer.value.form, grown: cache.size.bytes - before };
    };

    const first = await readAndServe('first');
    expect(first.form.bytes).toBeGreaterThan(text.length);
    expect(first.grown).toBe(first.form.bytes);
    expect(cache.size.bytes).toBe(estimateBytes({ text, form: new SerializedForm() }) + first.form.bytes);
    expect(estimateBytes({ text, form: first.form })).toBe(cache.size.bytes);
    // Served again with the same key: nothing new is made or counted.
    expect((await readAndServe('first')).grown).toBe(0);

    for (let i = 0; i < 20; i++) await readAndServe(`other-${i}`);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cache.size.entries).toBeLessThan(21);
  });
});

describe('estimateBytes', () => {
  it('counts what Maps hold (the shared reference tables are Maps)', () => {
    const names = new Map([1, 2, 3].map((id) => [id, { id, name: 'x'.repeat(1_000) }]));
    expect(estimateBytes({ names })).toBeGreaterThan(3 * 1_000);
    expect(estimateBytes({ names })).toBe(estimateBytes({ names: [...names.values()] }));
  });
});
