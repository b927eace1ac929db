import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

const KEY = 'ck_test_articles_acme_full_001';
const KEY_NO_SCOPE = 'ck_test_articles_acme_team_002';
const KEY_OTHER = 'ck_test_articles_globex_00003';
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const ahead = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const words = (n: number, stem = 'word') => Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');
const image = (name: string) => ({
  default: `https://cdn.example/${name}.jpg`,
  small: `https://cdn.example/${name}-s.jpg`,
  large: null,
});

const UNSAFE_BODY =
  '<h2>Agenda</h2><p>Join <a href="https://example.com/x">us</a> <a href="javascript:alert(1)">now</a> or <a href="mailto:hr@acme.example">mail</a></p>' +
  '<script>alert("x")</script><img src="https://cdn.example/a.png" onerror="alert(1)" alt="A"><img src="http://insecure.example/b.png" alt="B">' +
  '<iframe src="https://evil.example"></iframe><p style="color:red" onclick="steal()">Styled</p><ul><li>One</li></ul><table><tr><td>Cell</td></tr></table>';

type TArticleSeed = {
  id: number;
  slug: string;
  type: 'news' | 'company_update' | 'event' | 'blog_post';
  status?: 'draft' | 'published';
  is_featured?: boolean;
  views_count?: number;
  published_at: string | null;
  expires_at?: string | null;
  created_at: string;
  tag_ids?: number[];
  featured_image?: ReturnType<typeof image> | null;
  translations: Record<
    string,
    {
      title: string;
      excerpt?: string | null;
      body_html: string;
      seo?: { title: string | null; description: string | null } | null;
    }
  >;
};

const ACME_ARTICLES: TArticleSeed[] = [
  {
    id: 101,
    slug: 'hello-world',
    type: 'news',
    views_count: 5,
    published_at: ago(10),
    created_at: '2024-01-03T00:00:00Z',
    tag_ids: [3],
    featured_image: image('hello'),
    translations: {
      en: {
        title: 'Hello world',
        excerpt: 'Our first story',
        body_html: `<p>${words(450)}</p>`,
        seo: { title: 'Hello SEO', description: 'Hello description' },
      },
      nl: { title: 'Hallo wereld', excerpt: 'Ons eerste verhaal', body_html: `<p>${words(150)}</p>` },
    },
  },
  {
    id: 102,
    slug: 'dutch-only',
    type: 'blog_post',
    is_featured: true,
    views_count: 50,
    published_at: ago(5),
    created_at: '2024-01-02T00:00:00Z',
    tag_ids: [4],
    translations: {
      nl: { title: 'Zomerfeest', excerpt: 'Alleen in het Nederlands', body_html: `<p>${words(200)}</p>` },
    },
  },
  {
    id: 103,
    slug: 'meetup',
    type: 'event',
    views_count: 5,
    published_at: ago(2),
    created_at: '2024-01-02T00:00:00Z',
    featured_image: null,
    // Neither is acme's default language (en): de is the alphabetically first.
    translations: {
      fr: { title: 'Rencontre', excerpt: null, body_html: '<p>Bonjour</p>' },
      de: {
        title: 'Treffen',
        excerpt: 'Kommt vorbei',
        body_html: UNSAFE_BODY,
        seo: { title: 'Treffen SEO', description: null },
      },
    },
  },
  {
    id: 107,
    slug: 'apple-pie',
    type: 'company_update',
    views_count: 7,
    published_at: ago(1),
    expires_at: ahead(3),
    created_at: '2024-01-05T00:00:00Z',
    tag_ids: [2, 4],
    translations: { en: { title: 'apple pie day', body_html: `<div>${words(100)}</div><p>${words(101, 'more')}</p>` } },
  },
  // Not visible: draft, scheduled, expired, published without a date.
  {
    id: 104,
    slug: 'draft',
    type: 'news',
    status: 'draft',
    published_at: ago(3),
    created_at: '2024-01-01T00:00:00Z',
    translations: { en: { title: 'Draft', body_html: '<p>x</p>' } },
  },
  {
    id: 105,
    slug: 'scheduled',
    type: 'news',
    published_at: ahead(2),
    created_at: '2024-01-01T00:00:00Z',
    translations: { en: { title: 'Scheduled', body_html: '<p>x</p>' } },
  },
  {
    id: 106,
    slug: 'expired',
    type: 'news',
    published_at: ago(30),
    expires_at: ago(1),
    created_at: '2024-01-01T00:00:00Z',
    translations: { en: { title: 'Expired', body_html: '<p>x</p>' } },
  },
  {
    id: 108,
    slug: 'undated',
    type: 'news',
    published_at: null,
    created_at: '2024-01-01T00:00:00Z',
    translations: { en: { title: 'Undated', body_html: '<p>x</p>' } },
  },
];
const VISIBLE = [101, 102, 103, 107];

function tenantDocument() {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        default_language: 'en',
        api_keys: [
          { id: 1, name: 'Website', key: KEY, scopes: ['articles:read'] },
          { id: 2, name: 'Team', key: KEY_NO_SCOPE, scopes: ['team:read'] },
        ],
        tags: [
          { id: 1, name: { en: 'Tech', nl: 'Techniek' }, parent_id: null },
          { id: 2, name: { en: 'Backend', nl: 'Backend' }, parent_id: 1 },
          { id: 3, name: { en: 'Databases' }, parent_id: 2 },
          { id: 4, name: { en: 'Culture', nl: 'Cultuur' }, parent_id: null },
        ],
        articles: ACME_ARTICLES.map((article) => ({ status: 'published', ...article })),
      },
      {
        slug: 'globex',
        name: 'Globex',
        default_language: 'en',
        api_keys: [{ id: 3, name: 'Site', key: KEY_OTHER, scopes: ['articles:read'] }],
        tags: [{ id: 9, name: { en: 'Globex tag' }, parent_id: null }],
        articles: [
          {
            id: 201,
            slug: 'hello-world',
            type: 'news',
            status: 'published',
            published_at: ago(1),
            created_at: '2024-02-01T00:00:00Z',
            tag_ids: [9],
            translations: { en: { title: 'Globex hello', body_html: '<p>hi</p>' } },
          },
          {
            id: 202,
            slug: 'globex-only',
            type: 'news',
            status: 'published',
            published_at: ago(1),
            created_at: '2024-02-01T00:00:00Z',
            translations: { en: { title: 'Globex only', body_html: '<p>hi</p>' } },
          },
        ],
      },
    ],
  };
}

let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, tenantDocument());
});
afterAll(async () => api?.close());

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((item) => item.id);
const list = async (query: string, key = KEY) => api.get(`/articles${query}`, key);
// Response bodies are untyped JSON.
const byId = (body: { data: Array<{ id: number } & Record<string, any>> }, id: number) =>
  body.data.find((item) => item.id === id);

/** The returned content without `language`: the default language (en), else the alphabetically first. */
function defaultTitle(article: TArticleSeed): string {
  const languages = Object.keys(article.translations).sort();
  const language = article.translations.en ? 'en' : languages[0]!;
  return article.translations[language]!.title;
}

function expectedOrder(
  sort: 'published_at' | 'title' | 'created_at' | 'views_count',
  direction: 'asc' | 'desc',
): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  const key = (article: TArticleSeed): string | number => {
    if (sort === 'title') return defaultTitle(article).toLowerCase();
    if (sort === 'views_count') return article.views_count ?? 0;
    return Date.parse(sort === 'created_at' ? article.created_at : article.published_at!);
  };
  return ACME_ARTICLES.filter((article) => VISIBLE.includes(article.id))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) return sign * (ka < kb ? -1 : 1);
      return sign * (a.id - b.id);
    })
    .map((article) => article.id);
}

describe('GET /articles — access', () => {
  it('answers 401 without a key and 403 without articles:read', async () => {
    const anonymous = await api.get('/articles');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Unauthenticated.' });
    for (const path of ['/articles', '/articles/hello-world']) {
      const response = await api.get(path, KEY_NO_SCOPE);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This API key does not have the required scope: articles:read.',
        error: 'INSUFFICIENT_SCOPE',
        required_scope: 'articles:read',
      });
    }
  });
});

describe('GET /articles — visibility, shape and languages', () => {
  it('lists only visible articles, newest published first', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([107, 103, 102, 101]);
    expect(response.body.meta).toMatchObject({ total: 4, current_page: 1, per_page: 20, last_page: 1, from: 1, to: 4 });
  });

  it('returns the article shape in the tenant default language without featured_image', async () => {
    const response = await list('');
    const article = ACME_ARTICLES[0]!;
    expect(byId(response.body, 101)).toEqual({
      id: 101,
      slug: 'hello-world',
      type: 'news',
      title: 'Hello world',
      excerpt: 'Our first story',
      language: 'en',
      is_featured: false,
      views_count: 5,
      estimated_reading_time: 3,
      published_at: new Date(article.published_at!).toISOString(),
      expires_at: null,
      created_at: '2024-01-03T00:00:00.000Z',
      tags: [{ id: 3, name: 'Databases', parent_id: 2 }],
    });
  });

  it('falls back to the alphabetically first language when the default language has no content', async () => {
    const response = await list('');
    expect(byId(response.body, 102)).toMatchObject({ language: 'nl', title: 'Zomerfeest' });
    expect(byId(response.body, 103)).toMatchObject({ language: 'de', title: 'Treffen', excerpt: 'Kommt vorbei' });
    expect(byId(response.body, 107)).toMatchObject({
      language: 'en',
      excerpt: null,
      expires_at: new Date(ACME_ARTICLES[3]!.expires_at!).toISOString(),
    });
  });

  it('with language lists only articles having content in it, returning that content', async () => {
    const nl = await list('?language=nl');
    expect(ids(nl.body)).toEqual([102, 101]);
    expect(byId(nl.body, 101)).toMatchObject({
      language: 'nl',
      title: 'Hallo wereld',
      excerpt: 'Ons eerste verhaal',
      estimated_reading_time: 1,
    });
    const fr = await list('?language=FR');
    expect(ids(fr.body)).toEqual([103]);
    expect(fr.body.data[0]).toMatchObject({ language: 'fr', title: 'Rencontre', excerpt: null });
    const none = await list('?language=xx');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
  });

  it('labels tags in the requested language, else the tenant default', async () => {
    const nl = await list('?language=nl');
    expect(byId(nl.body, 102)!.tags).toEqual([{ id: 4, name: 'Cultuur', parent_id: null }]);
    // Databases has no Dutch name: the default language's.
    expect(byId(nl.body, 101)!.tags).toEqual([{ id: 3, name: 'Databases', parent_id: 2 }]);
    const plain = await list('');
    expect(byId(plain.body, 107)!.tags).toEqual([
      { id: 2, name: 'Backend', parent_id: 1 },
      { id: 4, name: 'Culture', parent_id: null },
    ]);
    expect(byId(plain.body, 103)!.tags).toEqual([]);
  });

  it('estimates reading time as ceil(words / 200), at least 1', async () => {
    const response = await list('');
    const minutes = Object.fromEntries(
      response.body.data.map((item: { id: number; estimated_reading_time: number }) => [
        item.id,
        item.estimated_reading_time,
      ]),
    );
    // 450 words → 3; exactly 200 → 1; 201 across two blocks → 2; a few words → 1.
    expect(minutes).toEqual({ 101: 3, 102: 1, 103: 1, 107: 2 });
  });

  it('adds featured_image only with include_media', async () => {
    const response = await list('?include_media=true');
    expect(byId(response.body, 101)!.featured_image).toEqual(image('hello'));
    expect(byId(response.body, 103)!.featured_image).toBeNull();
    expect(byId(response.body, 107)!.featured_image).toBeNull();
    for (const item of (await list('?include_media=0')).body.data) expect(item).not.toHaveProperty('featured_image');
  });
});

describe('GET /articles — filters', () => {
  it.each([
    ['news', [101]],
    ['company_update', [107]],
    ['event', [103]],
    ['blog_post', [102]],
  ])('filters type=%s', async (type, expected) => {
    expect(ids((await list(`?type=${type}`)).body)).toEqual(expected);
  });

  it('searches the returned content title and excerpt, case-insensitively', async () => {
    expect(ids((await list('?search=HELLO')).body)).toEqual([101]);
    expect(ids((await list('?search=first%20story')).body)).toEqual([101]);
    expect(ids((await list('?search=kommt')).body)).toEqual([103]);
    // The Dutch title is not the returned content without language=nl.
    expect(ids((await list('?search=hallo')).body)).toEqual([]);
    expect(ids((await list('?search=hallo&language=nl')).body)).toEqual([101]);
    // French content of 103 is not returned without language=fr.
    expect(ids((await list('?search=rencontre')).body)).toEqual([]);
    expect(ids((await list('?search=%20%20')).body)).toEqual([107, 103, 102, 101]);
    // Body text is not searched.
    expect(ids((await list('?search=word1')).body)).toEqual([]);
  });

  it('filters by tags including descendants at any depth, OR within the array', async () => {
    expect(ids((await list('?tags[]=1')).body)).toEqual([107, 101]);
    expect(ids((await list('?tags[]=2')).body)).toEqual([107, 101]);
    expect(ids((await list('?tags[]=3')).body)).toEqual([101]);
    expect(ids((await list('?tags[]=4')).body)).toEqual([107, 102]);
    expect(ids((await list('?tags[]=3&tags[]=4')).body)).toEqual([107, 102, 101]);
    expect(ids((await list('?tags=3')).body)).toEqual([101]);
    expect(ids((await list('?tags[]=3&type=blog_post')).body)).toEqual([]);
  });

  it('filters is_featured true / false / absent', async () => {
    expect(ids((await list('?is_featured=true')).body)).toEqual([102]);
    expect(ids((await list('?is_featured=1')).body)).toEqual([102]);
    expect(ids((await list('?is_featured=false')).body)).toEqual([107, 103, 101]);
    expect(ids((await list('?is_featured=0')).body)).toEqual([107, 103, 101]);
    expect(ids((await list('')).body)).toHaveLength(4);
  });

  it.each([
    ['?type=podcast', 'type', 'The selected type is invalid.'],
    ['?type=News', 'type', 'The selected type is invalid.'],
    ['?tags[]=999', 'tags.0', 'The selected tags.0 is invalid.'],
    ['?tags[]=abc', 'tags.0', 'The tags.0 must be an integer.'],
    ['?tags[]=99999999999', 'tags.0', 'The selected tags.0 is invalid.'],
    ['?is_featured=yes', 'is_featured', 'The is featured field must be true or false.'],
    ['?include_media=2', 'include_media', 'The include media field must be true or false.'],
    ['?language=e', 'language', 'The language must be 2 characters.'],
    ['?sort=popularity', 'sort', 'The selected sort is invalid.'],
    ['?sort_direction=sideways', 'sort_direction', 'The selected sort direction is invalid.'],
    ['?per_page=1000', 'per_page', 'The per page must not be greater than 100.'],
  ])('answers 422 for %s', async (query, field, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(response.body.errors[field][0]).toBe(message);
  });

  it("treats another tenant's tag as referring to nothing", async () => {
    const response = await list('?tags[]=1&tags[]=9');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: 'The given data was invalid.',
      errors: { 'tags.1': ['The selected tags.1 is invalid.'] },
    });
  });
});

describe('GET /articles — sorting and paging', () => {
  it.each([
    ['published_at', 'asc'],
    ['published_at', 'desc'],
    ['title', 'asc'],
    ['title', 'desc'],
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['views_count', 'asc'],
    ['views_count', 'desc'],
  ] as const)('sorts by %s %s with ties by id', async (sort, direction) => {
    const response = await list(`?sort=${sort}&sort_direction=${direction}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expectedOrder(sort, direction));
  });

  it('sorts titles case-insensitively by the returned content and breaks ties by id', async () => {
    expect(ids((await list('?sort=title&sort_direction=asc')).body)).toEqual([107, 101, 103, 102]);
    expect(ids((await list('?sort=title&sort_direction=asc&language=nl')).body)).toEqual([101, 102]);
    expect(ids((await list('?sort=views_count&sort_direction=asc')).body)).toEqual([101, 103, 107, 102]);
    expect(ids((await list('?sort=views_count&sort_direction=desc')).body)).toEqual([102, 107, 103, 101]);
    expect(ids((await list('?sort=created_at&sort_direction=desc')).body)).toEqual([107, 101, 103, 102]);
  });

  it('visits every article exactly once across pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('published_at', 'title', 'created_at', 'views_count'),
        fc.constantFrom('asc', 'desc'),
        async (perPage, sort, direction) => {
          const seen: number[] = [];
          let lastPage = 1;
          for (let page = 1; page <= lastPage; page++) {
            const response = await list(`?per_page=${perPage}&page=${page}&sort=${sort}&sort_direction=${direction}`);
            lastPage = response.body.meta.last_page;
            seen.push(...ids(response.body));
          }
          expect(seen).toEqual(expectedOrder(sort, direction));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('answers a page past the end with an empty page', async () => {
    const response = await list('?page=3&per_page=2');
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ current_page: 3, last_page: 2, total: 4, from: null, to: null });
  });
});

describe('GET /articles/{slug}', () => {
  it('returns the complete article with sanitized body and SEO metadata', async () => {
    const response = await api.get('/articles/meetup', KEY);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      id: 103,
      slug: 'meetup',
      type: 'event',
      title: 'Treffen',
      excerpt: 'Kommt vorbei',
      language: 'de',
      is_featured: false,
      estimated_reading_time: 1,
      expires_at: null,
      created_at: '2024-01-02T00:00:00.000Z',
      tags: [],
      seo: { title: 'Treffen SEO', description: null },
    });
    expect(data).not.toHaveProperty('featured_image');
    const html: string = data.body_html;
    for (const gone of [
      '<script',
      'alert("x")',
      'onerror',
      'javascript:',
      '<iframe',
      'style=',
      'onclick',
      'http://insecure.example',
    ]) {
      expect(html).not.toContain(gone);
    }
    for (const kept of [
      '<h2>Agenda</h2>',
      '<a href="https://example.com/x">us</a>',
      '<a href="mailto:hr@acme.example">mail</a>',
      '<img src="https://cdn.example/a.png"',
      'alt="A"',
      '<p>Styled</p>',
      '<li>One</li>',
      '<td>Cell</td>',
    ]) {
      expect(html).toContain(kept);
    }
  });

  it('returns content in the requested language when it exists, else the default content', async () => {
    const nl = await api.get('/articles/hello-world?language=nl', KEY);
    expect(nl.body.data).toMatchObject({
      language: 'nl',
      title: 'Hallo wereld',
      seo: { title: null, description: null },
      estimated_reading_time: 1,
    });
    expect(nl.body.data.body_html).toBe(`<p>${words(150)}</p>`);
    const fr = await api.get('/articles/hello-world?language=fr', KEY);
    expect(fr.status).toBe(200);
    expect(fr.body.data).toMatchObject({
      language: 'en',
      title: 'Hello world',
      seo: { title: 'Hello SEO', description: 'Hello description' },
      estimated_reading_time: 3,
    });
    const noEnglish = await api.get('/articles/meetup?language=nl', KEY);
    expect(noEnglish.body.data).toMatchObject({ language: 'de', title: 'Treffen' });
    const french = await api.get('/articles/meetup?language=fr', KEY);
    expect(french.body.data).toMatchObject({
      language: 'fr',
      title: 'Rencontre',
      excerpt: null,
      body_html: '<p>Bonjour</p>',
    });
  });

  it('adds featured_image with include_media', async () => {
    expect((await api.get('/articles/hello-world?include_media=true', KEY)).body.data.featured_image).toEqual(
      image('hello'),
    );
    expect((await api.get('/articles/meetup?include_media=1', KEY)).body.data.featured_image).toBeNull();
  });

  it('counts a view per detail request', async () => {
    const before = byId((await list('')).body, 107)!.views_count;
    expect((await api.get('/articles/apple-pie', KEY)).status).toBe(200);
    expect((await api.get('/articles/apple-pie', KEY)).status).toBe(200);
    let after = before;
    for (let attempt = 0; attempt < 40 && after !== before + 2; attempt++) {
      await sleep(50);
      after = byId((await list('')).body, 107)!.views_count;
    }
    expect(after).toBe(before + 2);
  });

  it.each([
    ['an unknown slug', '/articles/nope'],
    ['a draft', '/articles/draft'],
    ['a scheduled article', '/articles/scheduled'],
    ['an expired article', '/articles/expired'],
    ['an article without a publication date', '/articles/undated'],
    ["another tenant's article", '/articles/globex-only'],
  ])('answers 404 for %s', async (_what, path) => {
    const response = await api.get(path, KEY);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found.' });
  });

  it("resolves a slug both tenants use to each key's own article and never mixes tenants", async () => {
    expect((await api.get('/articles/hello-world', KEY)).body.data.id).toBe(101);
    const other = await api.get('/articles/hello-world', KEY_OTHER);
    expect(other.body.data).toMatchObject({
      id: 201,
      title: 'Globex hello',
      tags: [{ id: 9, name: 'Globex tag', parent_id: null }],
    });
    expect(ids((await list('', KEY_OTHER)).body).sort()).toEqual([201, 202]);
    const foreignTag = await list('?tags[]=1', KEY_OTHER);
    expect(foreignTag.status).toBe(422);
  });

  it('validates the query before looking the article up', async () => {
    const response = await api.get('/articles/nope?language=english', KEY);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['language']);
  });
});
