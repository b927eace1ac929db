import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';
import { DAY, emptyTenant, type TTenantDoc, type TVacancyDoc } from './support/vacancy-fixtures.ts';

const KEY = 'ck_test_search_acme_read_000001';
const KEY_OTHER = 'ck_test_search_other_read_00001';

const NOW = Date.now();
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

function vacancy(id: number, fields: Partial<TVacancyDoc>): TVacancyDoc {
  return {
    id,
    slug: `job-${id}`,
    title: `Job ${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: at(-id * DAY),
    created_at: at(-40 * DAY),
    ...fields,
  };
}

const ACME = (synonyms: string[][]): TTenantDoc & { search_synonyms: string[][] } => ({
  ...emptyTenant('acme', {
    api_keys: [{ id: 1, name: 'Site', key: KEY, scopes: ['vacancies:read'] }],
    locations: [
      { id: 1, slug: 'zurich', name: 'Zurich Office', locality: 'Zürich', country_code: 'CH' },
      { id: 2, slug: 'utrecht', name: 'Kantoor Utrecht', locality: 'Utrecht', country_code: 'NL' },
    ],
    departments: [{ id: 1, name: { en: 'Engineering', nl: 'Techniek' } }],
    tags: [{ id: 1, name: { en: 'Cloud' }, parent_id: null }],
    vacancies: [
      vacancy(1, {
        title: 'Senior Backend Engineer',
        summary: '<p>Build APIs in Go &amp; Node.js for <b>payments</b>.</p>',
        location_id: 1,
        department_id: 1,
      }),
      vacancy(2, { title: 'Frontend Developer', summary: '<p>React and TypeScript.</p>', location_id: 2 }),
      vacancy(3, {
        title: 'Java Ontwikkelaar',
        language: 'nl',
        summary: '<p>Wij zoeken een ervaren ontwikkelaar.</p>',
        location_id: 2,
      }),
      vacancy(4, { title: 'Entwickler Backend', language: 'de', summary: '<p>Wir suchen Verstärkung.</p>' }),
      vacancy(5, { title: 'Project Manager', summary: '<p>Management of large projects.</p>' }),
      vacancy(6, { title: 'Ingénieur logiciel', language: 'fr', summary: '<p>Développement.</p>' }),
      vacancy(7, {
        title: 'Data Analyst',
        description: '<p>You know Python and SQL; engineering background welcome.</p>',
        tag_ids: [1],
      }),
      vacancy(8, { title: 'Python Engineer', summary: '<p>Scripting.</p>' }),
      vacancy(9, { title: 'JavaScript Tutor', summary: '<p>Teach kids.</p>' }),
      // Never found: not visible.
      vacancy(10, { title: 'Backend Engineer (draft)', status: 'draft' }),
      vacancy(11, { title: 'Backend Engineer (ended)', ends_at: at(-DAY) }),
    ],
  }),
  search_synonyms: synonyms,
});

const OTHER: TTenantDoc = emptyTenant('other', {
  api_keys: [{ id: 2, name: 'Site', key: KEY_OTHER, scopes: ['vacancies:read'] }],
  vacancies: [vacancy(50, { title: 'Backend Engineer elsewhere' })],
});

const SYNONYMS = [
  ['developer', 'engineer', 'programmer'],
  ['js', 'javascript'],
];

let api: TTestApi;

beforeAll(async () => {
  const url = await createTestDatabase();
  api = await startTestApi(url);
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME(SYNONYMS), OTHER] });
});
afterAll(async () => api?.close());

async function list(query: string, key = KEY) {
  const response = await api.get(`/vacancies?${query}`, key);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Array<Record<string, any>>; meta: { total: number } };
}

const ids = async (q: string, extra = '') =>
  (await list(`q=${encodeURIComponent(q)}&per_page=100${extra}`)).data.map((item) => item.id as number);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

describe('GET /vacancies?q=', () => {
  it('folds case and accents', async () => {
    expect(await ids('ZURICH')).toEqual([1]);
    expect(await ids('ingenieur')).toEqual([6]);
    expect(await ids('développement')).toEqual([6]);
  });

  it("stems in the vacancy's language", async () => {
    expect(sorted(await ids('ontwikkelaars'))).toEqual([3]);
    expect(await ids('projects')).toEqual([5]);
    expect(await ids('Entwicklerin')).toEqual([4]);
  });

  it('tolerates typos by word length', async () => {
    expect(await ids('managment')).toEqual([5]);
    expect(await ids('ontwikelaar')).toEqual([3]);
    // "enginer" is one edit from "engineer", whose synonyms are developer and programmer; "engineering" stems alike.
    expect(sorted(await ids('enginer'))).toEqual([1, 2, 7, 8]);
    // Four letters or less: exact or prefix only, no typos.
    expect(await ids('jawa')).toEqual([]);
  });

  it('matches the last word as a prefix (search as you type), short words as prefixes', async () => {
    expect(await ids('backend eng')).toEqual([1]);
    expect(await ids('backend xy')).toEqual([]);
    // A stop word (Dutch "en") is no condition.
    expect(sorted(await ids('backend en'))).toEqual([1, 4]);
    expect(await ids('senior backe')).toEqual([1]);
    // "java" (4 letters) also finds javascript.
    expect(sorted(await ids('java'))).toEqual([3, 9]);
  });

  it("uses the tenant's synonyms", async () => {
    expect(sorted(await ids('programmer'))).toEqual([1, 2, 7, 8]);
    expect(sorted(await ids('js tutor'))).toEqual([9]);
  });

  it('requires every word (AND), ignores stop words, and a query of only stop words is no filter', async () => {
    expect(await ids('python engineer')).toEqual([8, 7]);
    expect(await ids('python analyst')).toEqual([7]);
    expect(await ids('the python')).toEqual(await ids('python'));
    const all = (await list('per_page=100')).meta.total;
    expect((await list('q=the%20and%20of')).meta.total).toBe(all);
    expect((await list('q=%2B%2B%20...%20!')).meta.total).toBe(all);
    expect(await ids('backend nonexistingword')).toEqual([]);
  });

  it('matches department, tags and location names too', async () => {
    expect(await ids('techniek')).toEqual([1]);
    expect(await ids('cloud')).toEqual([7]);
    expect(sorted(await ids('utrecht'))).toEqual([2, 3]);
  });

  it('ranks a title match above a body match, exact words above typos and prefixes', async () => {
    // Python: in the title of 8, in the description of 7 (7 is newer, so only relevance puts 8 first).
    expect(await ids('python')).toEqual([8, 7]);
    expect(await ids('python', '&sort=published_at')).toEqual([7, 8]);
    // "engineer" exactly in 1 and 8's titles, through a synonym in 2's, "engineering" stems alike in 7's body.
    expect(await ids('engineer')).toEqual([1, 2, 8, 7]);
    // A typo of "developer" ranks Developer (2) above the engineers it reaches through developer's synonyms (1, 8):
    // the visitor typed (nearly) one word, not its synonyms.
    expect(await ids('developr')).toEqual([2, 1, 8, 7]);
  });

  it('never finds invisible vacancies or another tenant’s', async () => {
    expect(await ids('draft')).toEqual([]);
    expect(await ids('ended')).toEqual([]);
    expect(await ids('elsewhere')).toEqual([]);
    const other = await list('q=backend%20engineer', KEY_OTHER);
    expect(other.data.map((item) => item.id)).toEqual([50]);
  });

  it('sort=relevance needs q', async () => {
    const response = await api.get('/vacancies?sort=relevance', KEY);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['sort']);
    expect((await api.get('/vacancies?sort=relevance&q=python', KEY)).status).toBe(200);
  });

  it('refuses a q longer than 255 characters, and bad text never gives a 5xx', async () => {
    const long = await api.get(`/vacancies?q=${'a'.repeat(256)}`, KEY);
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors)).toEqual(['q']);
    const many = encodeURIComponent(
      Array.from({ length: 85 }, (_, i) => `w${i}`)
        .join(' ')
        .slice(0, 255),
    );
    const longWord = 'x'.repeat(255);
    for (const q of [
      '%00',
      '%ED%A0%80',
      "'",
      '\\',
      "':*",
      '!(&|)',
      '%27%7C%27',
      'a:*B',
      '<mark>',
      many,
      longWord,
      '12345',
      '%F0%9F%98%80%20emoji',
      '-',
      'full-time',
    ]) {
      const response = await api.get(`/vacancies?q=${q}`, KEY);
      expect(response.status, q).toBe(200);
    }
  });

  it('adds highlights with include_highlights=true', async () => {
    const body = await list('q=backend%20eng&include_highlights=true');
    expect(body.data[0]!.highlights).toEqual({
      title: 'Senior <mark>Backend</mark> <mark>Engineer</mark>',
      summary: 'Build APIs in Go &amp; Node.js for payments.',
    });
    const summary = await list('q=payments&include_highlights=true');
    expect(summary.data[0]!.highlights.summary).toBe('Build APIs in Go &amp; Node.js for <mark>payments</mark>.');
    const plain = await list('include_highlights=true&per_page=1');
    expect(plain.data[0]!.highlights.title).not.toContain('<mark>');
    expect((await list('q=backend')).data[0]!.highlights).toBeUndefined();
  });

  it('facets count exactly the q result set', async () => {
    const response = await api.get('/vacancies/facets?q=engineer', KEY);
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(4);
    expect(response.body.data.languages).toEqual([{ code: 'en', count: 4, selected: false }]);
    const withList = await list('q=engineer&include=facets');
    expect(withList.meta.total).toBe(4);
  });

  it('shows the same total on every page and sort of a q, a page past the end included', async () => {
    // Asked first (nothing of this q computed yet): a page past the end counts the matches on its own.
    const past = await list('q=engineer%20python&page=5&per_page=1');
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(2);
    for (const extra of ['', '&page=2', '&sort=published_at', '&sort=title&sort_direction=asc']) {
      const page = await list(`q=engineer%20python&per_page=1${extra}`);
      expect(page.meta.total, extra).toBe(2);
      expect(page.data).toHaveLength(1);
    }
    // A q counted by its relevance page first shows that count on a page past the end too.
    expect((await list('q=java&per_page=1')).meta.total).toBe(2);
    expect((await list('q=java&per_page=1&page=3')).meta.total).toBe(2);
  });

  it('property: facet totals equal list totals, and every result contains a match for every word', async () => {
    const words = [
      'engineer',
      'backend',
      'python',
      'utrecht',
      'java',
      'the',
      'enginer',
      'projects',
      'zurich',
      'eng',
      'xyz',
      'developer',
    ];
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }), async (chosen) => {
        const q = encodeURIComponent(chosen.join(' '));
        const [page, facets] = await Promise.all([
          list(`q=${q}&per_page=100&include_highlights=true`),
          api.get(`/vacancies/facets?q=${q}`, KEY),
        ]);
        expect(facets.body.meta.total).toBe(page.meta.total);
        // Adding a word never finds more (AND).
        const first = await list(`q=${encodeURIComponent(chosen[0]!)}&per_page=100`);
        expect(page.meta.total).toBeLessThanOrEqual(first.meta.total);
        const firstIds = new Set(first.data.map((item) => item.id));
        if (chosen[0] !== 'the') for (const item of page.data) expect(firstIds.has(item.id)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('a re-import that changes the synonyms changes the answers (the content version moves)', async () => {
    expect(sorted(await ids('programmer'))).toEqual([1, 2, 7, 8]);
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME([['js', 'javascript']])] });
    expect(await ids('programmer')).toEqual([]);
    await importTenantDocument({ em: api.services.orm.em }, { tenants: [ACME(SYNONYMS)] });
    expect(sorted(await ids('programmer'))).toEqual([1, 2, 7, 8]);
  });
});

describe('GET /vacancies/suggest', () => {
  const suggest = async (query: string) => {
    const response = await api.get(`/vacancies/suggest?${query}`, KEY);
    expect(response.status, response.text).toBe(200);
    return response.body.data as Array<{ text: string; count: number }>;
  };

  it('suggests the titles q finds, the last word as a prefix, by count then title', async () => {
    expect(await suggest('q=backend%20eng')).toEqual([{ text: 'Senior Backend Engineer', count: 1 }]);
    expect(await suggest('q=pyth')).toEqual([
      { text: 'Data Analyst', count: 1 },
      { text: 'Python Engineer', count: 1 },
    ]);
    expect(await suggest('q=engineer&limit=2')).toHaveLength(2);
    expect(await suggest('q=ontwikkelaar&language=en')).toEqual([]);
    expect(await suggest('q=ontwikkelaar&language=nl')).toEqual([{ text: 'Java Ontwikkelaar', count: 1 }]);
  });

  it('suggests nothing for fewer than 2 characters, and validates limit and language', async () => {
    expect(await suggest('q=p')).toEqual([]);
    expect(await suggest('')).toEqual([]);
    expect((await api.get('/vacancies/suggest?q=py&limit=11', KEY)).status).toBe(422);
    expect((await api.get('/vacancies/suggest?q=py&limit=0', KEY)).status).toBe(422);
    expect((await api.get('/vacancies/suggest?q=py&language=eng', KEY)).status).toBe(422);
    expect((await api.get('/vacancies/suggest?q=py')).status).toBe(401);
  });

  it('property: every suggestion is a title of a vacancy the same q lists, with its count', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('eng', 'engineer', 'ba', 'java', 'python', 'develop', 'ontw', 'zur', 'the'),
        async (q) => {
          const [suggestions, page] = await Promise.all([suggest(`q=${q}&limit=10`), list(`q=${q}&per_page=100`)]);
          for (const { text, count } of suggestions)
            expect(page.data.filter((item) => item.title === text).length).toBe(count);
        },
      ),
      { numRuns: 9 },
    );
  });
});
