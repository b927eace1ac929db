import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { appRouter, createCallerFactory, createContext } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { query } from './support/write-fixtures.ts';
import { DAY, emptyTenant, type TVacancyDoc } from './support/vacancy-fixtures.ts';

/**
 * Cached reads answer in bytes made once per cached answer, with the live fields (view counts, reported canonical
 * URLs) spliced in per request. Whatever those live values are, the bytes are exactly what serializing a fresh
 * computation gives, and the ETag follows CONTRACT: the canonical URL is part of the representation, the view
 * counter is not.
 */

const KEY = 'ck_test_served_initech_read_0001';

function vacancy(id: number, fields: Partial<TVacancyDoc> = {}): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job "${id}" – ünïcode`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: new Date(Date.now() - DAY).toISOString(),
    created_at: new Date(Date.now() - 2 * DAY).toISOString(),
    location_id: 1,
    ...fields,
  };
}

const ARTICLE = {
  id: 301,
  slug: 'launch',
  type: 'news',
  status: 'published',
  views_count: 3,
  published_at: new Date(Date.now() - DAY).toISOString(),
  created_at: new Date(Date.now() - 2 * DAY).toISOString(),
  translations: { en: { title: 'Launch', excerpt: 'We launched', body_html: '<p>We launched today.</p>' } },
};

function document(articles: unknown[] = [ARTICLE]) {
  return {
    tenants: [
      {
        ...emptyTenant('initech', {
          career_site: { domain: 'initech.example', url_pattern: 'https://initech.example/jobs/{slug}' },
          api_keys: [{ id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read', 'articles:read', 'locations:read'] }],
          locations: [{ id: 1, slug: 'austin', name: 'Austin', locality: 'Austin', country_code: 'US' }],
          vacancies: [
            vacancy(1, { summary: '<p>Say "hi"</p>', description: '<p>TPS reports</p>' }),
            vacancy(2),
            vacancy(3),
          ],
        }),
        articles,
      },
    ],
  };
}

let api: TTestApi;
let databaseUrl: string;
const createCaller = createCallerFactory(appRouter);

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument({ em: api.services.orm.em }, document());
});
afterAll(async () => api?.close());

/** What a tRPC caller gets from a fresh computation (no cached answer to start from), serialized. */
async function freshJson(
  path: string,
  call: (caller: ReturnType<typeof createCaller>) => Promise<unknown>,
): Promise<string> {
  api.services.content.clear();
  const ctx = createContext(api.services, { authorization: `Bearer ${KEY}`, url: new URL(`${api.baseUrl}${path}`) });
  return JSON.stringify(await call(createCaller(ctx)));
}

/** Sets the live fields of vacancy 1 and article 301 as a career site's report and counted views would. */
async function setLiveFields(views: number, canonicalUrl: string | null): Promise<void> {
  await query(databaseUrl, 'update vacancies set views_count = $1, canonical_url = $2 where id = 1', [
    views,
    canonicalUrl,
  ]);
  await query(databaseUrl, 'update articles set views_count = $1 where id = 301', [views]);
}

const ODD_URLS = [
  'https://initech.example/jobs/"quoted"',
  'https://initech.example/jobs/back\\slash',
  'https://initech.example/jobs/ünïcode/💼',
  'https://initech.example/jobs/\u2028line\u2029separators',
  'https://initech.example/jobs/"views_count":1',
  'https://initech.example/jobs/</script>',
];

describe('answers served in ready bytes', () => {
  it('are exactly the serialized fresh computation, whatever the live view counts and canonical URLs', async () => {
    // A detail read counts a view, batched: kept out of the way so the live values stay what the property set.
    const record = vi.spyOn(api.services.views, 'record').mockImplementation(() => undefined);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2_147_483_647 }),
          fc.oneof(
            fc.constant(null),
            fc.constantFrom(...ODD_URLS),
            fc.string({ unit: 'grapheme', minLength: 1 }).filter((url) => !url.includes('\u0000')),
          ),
          fc.boolean(),
          fc.boolean(),
          async (views, canonicalUrl, structuredData, media) => {
            const detailPath = `/vacancies/job-1?include_structured_data=${structuredData}&include_media=${media}`;
            const listPath = `/vacancies?per_page=2&include_media=${media}`;
            const articlePaths = ['/articles/launch', '/articles?per_page=5'];
            // Cached first, with the live values of the previous run.
            for (const path of [detailPath, listPath, ...articlePaths])
              expect((await api.get(path, KEY)).status).toBe(200);
            await setLiveFields(views, canonicalUrl);

            const detail = await api.get(detailPath, KEY);
            expect(detail.body.data.views_count).toBe(views);
            const input = {
              slug: 'job-1',
              include_structured_data: structuredData,
              include_media: media,
              include_compensation: false,
              include_company_name: false,
            };
            expect(detail.text).toBe(await freshJson(detailPath, (caller) => caller.vacancies.get(input)));

            await api.get(listPath, KEY);
            const list = await api.get(listPath, KEY);
            const listInput = {
              per_page: 2,
              page: 1,
              include_media: media,
              include_compensation: false,
              include_company_name: false,
              sort: 'published_at' as const,
              sort_direction: 'desc' as const,
            };
            expect(list.text).toBe(await freshJson(listPath, (caller) => caller.vacancies.list(listInput)));

            await api.get(articlePaths[0]!, KEY);
            const article = await api.get(articlePaths[0]!, KEY);
            expect(article.body.data.views_count).toBe(views);
            expect(article.text).toBe(
              await freshJson(articlePaths[0]!, (caller) =>
                caller.articles.get({ slug: 'launch', include_media: false }),
              ),
            );
            await api.get(articlePaths[1]!, KEY);
            const articles = await api.get(articlePaths[1]!, KEY);
            const articlesInput = {
              per_page: 5,
              page: 1,
              include_media: false,
              sort: 'published_at' as const,
              sort_direction: 'desc' as const,
            };
            expect(articles.text).toBe(
              await freshJson(articlePaths[1]!, (caller) => caller.articles.list(articlesInput)),
            );
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      record.mockRestore();
      await setLiveFields(0, null);
    }
  });

  it('serve locations (list and detail, with vacancy counts and coordinates) as a fresh computation serializes them', async () => {
    for (const flags of ['', 'include_vacancy_count=true&include_coordinates=true&language=nl']) {
      const listPath = `/locations?per_page=5${flags ? `&${flags}` : ''}`;
      const detailPath = `/locations/austin${flags ? `?${flags}` : ''}`;
      await api.get(listPath, KEY);
      const list = await api.get(listPath, KEY);
      expect(list.status).toBe(200);
      expect(list.text).toBe(
        await freshJson(listPath, (caller) =>
          caller.locations.list(Object.fromEntries(new URL(listPath, api.baseUrl).searchParams) as never),
        ),
      );
      await api.get(detailPath, KEY);
      const detail = await api.get(detailPath, KEY);
      expect(detail.status).toBe(200);
      expect(detail.text).toBe(
        await freshJson(detailPath, (caller) =>
          caller.locations.get({
            slug: 'austin',
            ...Object.fromEntries(new URL(detailPath, api.baseUrl).searchParams),
          } as never),
        ),
      );
    }
    // A change of the location is seen by the very next read, in fresh bytes.
    await query(databaseUrl, "update locations set name = 'Austin, TX' where id = 1");
    expect((await api.get('/locations/austin', KEY)).body.data.name).toBe('Austin, TX');
  });

  it('keep their ETag when the view count changes, and change it with the canonical URL', async () => {
    await setLiveFields(1, null);
    const first = await api.get('/vacancies/job-1?include_structured_data=true', KEY);
    const firstList = await api.get('/vacancies', KEY);
    const firstArticle = await api.get('/articles/launch', KEY);

    await setLiveFields(7, null);
    const counted = await api.get('/vacancies/job-1?include_structured_data=true', KEY);
    expect(counted.body.data.views_count).toBeGreaterThanOrEqual(7);
    expect(counted.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await api.get('/vacancies', KEY)).headers.get('etag')).toBe(firstList.headers.get('etag'));
    const countedArticle = await api.get('/articles/launch', KEY);
    expect(countedArticle.body.data.views_count).toBeGreaterThanOrEqual(7);
    expect(countedArticle.headers.get('etag')).toBe(firstArticle.headers.get('etag'));
    expect(
      (
        await api.get('/vacancies/job-1?include_structured_data=true', KEY, {
          'if-none-match': first.headers.get('etag')!,
        })
      ).status,
    ).toBe(304);

    await setLiveFields(7, 'https://initech.example/reported/job-1');
    const reported = await api.get('/vacancies/job-1?include_structured_data=true', KEY);
    expect(reported.body.data.url).toBe('https://initech.example/reported/job-1');
    expect(reported.body.data.structured_data.url).toBe('https://initech.example/reported/job-1');
    expect(reported.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((await api.get('/vacancies', KEY)).headers.get('etag')).not.toBe(firstList.headers.get('etag'));
    expect(
      (
        await api.get('/vacancies/job-1?include_structured_data=true', KEY, {
          'if-none-match': first.headers.get('etag')!,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api.get('/vacancies/job-1?include_structured_data=true', KEY, {
          'if-none-match': reported.headers.get('etag')!,
        })
      ).status,
    ).toBe(304);

    // Back to the tenant's pattern: the first representation, and its ETag, again.
    await setLiveFields(7, null);
    expect((await api.get('/vacancies/job-1?include_structured_data=true', KEY)).headers.get('etag')).toBe(
      first.headers.get('etag'),
    );
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    for (const path of ['/vacancies/job-2', '/articles/launch', '/vacancies?per_page=2']) {
      const get = await api.get(path, KEY);
      const head = await fetch(`${api.baseUrl}${path}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(get.text));
    }
  });
});

describe('cached articles', () => {
  it('see a hand-written change at once, and stop being shown the moment they expire', async () => {
    await importTenantDocument(
      { em: api.services.orm.em },
      document([
        ARTICLE,
        { ...ARTICLE, id: 302, slug: 'soon-gone', expires_at: new Date(Date.now() + 1_500).toISOString() },
      ]),
    );
    expect((await api.get('/articles/launch', KEY)).body.data.title).toBe('Launch');
    expect((await api.get('/articles', KEY)).body.meta.total).toBe(2);
    expect((await api.get('/articles/soon-gone', KEY)).status).toBe(200);

    await query(databaseUrl, `update article_translations set title = 'Relaunch' where article_id = 301`);
    expect((await api.get('/articles/launch', KEY)).body.data.title).toBe('Relaunch');
    expect((await api.get('/articles', KEY)).body.data.map((article: { title: string }) => article.title)).toContain(
      'Relaunch',
    );

    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await api.get('/articles/soon-gone', KEY)).status).toBe(404);
    expect((await api.get('/articles', KEY)).body.meta.total).toBe(1);
  });

  it('ordered by view count follow the counts as written', async () => {
    await importTenantDocument(
      { em: api.services.orm.em },
      document([ARTICLE, { ...ARTICLE, id: 303, slug: 'popular', views_count: 10 }]),
    );
    const order = async () =>
      (await api.get('/articles?sort=views_count', KEY)).body.data.map((article: { id: number }) => article.id);
    expect(await order()).toEqual([303, 301]);
    await query(databaseUrl, 'update articles set views_count = 100 where id = 301');
    expect(await order()).toEqual([301, 303]);
  });
});
