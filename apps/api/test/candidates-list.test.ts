import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

const KEY = 'ck_test_candidates_acme_full_1';
const KEY_NO_SCOPE = 'ck_test_candidates_acme_write_2';
const KEY_OTHER = 'ck_test_candidates_globex_0003';

type TCandidateSeed = {
  id: number;
  slug: string;
  user_id: number | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  status: string;
  created_at: string;
};

const ACME_CANDIDATES: TCandidateSeed[] = [
  {
    id: 11,
    slug: 'alice-smith',
    user_id: 1,
    first_name: 'Alice',
    last_name: 'Smith',
    email: 'alice@x.example',
    phone: '+31611111111',
    status: 'potential',
    created_at: '2024-01-01T08:00:00Z',
  },
  {
    id: 12,
    slug: 'bob-jones',
    user_id: 1,
    first_name: 'bob',
    last_name: 'jones',
    email: null,
    phone: null,
    status: 'employee',
    created_at: '2024-01-03T08:00:00Z',
  },
  {
    id: 13,
    slug: 'carla-emond',
    user_id: 1,
    first_name: 'Carla',
    last_name: 'Émond',
    email: 'Carla@X.example',
    phone: null,
    status: 'do_not_contact',
    created_at: '2024-01-02T08:00:00Z',
  },
  // Imported for user 2; associated with user 1 as well below.
  {
    id: 14,
    slug: 'dave-smith',
    user_id: 2,
    first_name: 'dave',
    last_name: 'Smith',
    email: 'dave@x.example',
    phone: null,
    status: 'potential',
    created_at: '2024-01-02T08:00:00Z',
  },
  {
    id: 15,
    slug: 'eve-adams',
    user_id: null,
    first_name: 'Eve',
    last_name: 'Adams',
    email: 'eve@x.example',
    phone: null,
    status: 'potential',
    created_at: '2024-01-04T08:00:00Z',
  },
  {
    id: 16,
    slug: 'frank-smith',
    user_id: 1,
    first_name: 'Frank',
    last_name: 'SMITH',
    email: 'frank@x.example',
    phone: '+4915112345678',
    status: 'potential',
    created_at: '2024-01-03T08:00:00Z',
  },
];
const USER_ONE = [11, 12, 13, 14, 16];

function tenantDocument() {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        api_keys: [
          { id: 1, name: 'Integration', key: KEY, scopes: ['candidates:read'] },
          { id: 2, name: 'Uploads', key: KEY_NO_SCOPE, scopes: ['candidates:write'] },
        ],
        users: [
          { id: 1, name: 'Ada Admin', email: 'ada@acme.example', role: 'admin' },
          { id: 2, name: 'Bert Recruiter', email: 'bert@acme.example', role: 'recruiter' },
          { id: 4, name: 'Nobody Assigned', email: 'nobody@acme.example', role: 'recruiter' },
        ],
        candidates: ACME_CANDIDATES,
      },
      {
        slug: 'globex',
        name: 'Globex',
        api_keys: [{ id: 3, name: 'Integration', key: KEY_OTHER, scopes: ['candidates:read'] }],
        users: [{ id: 3, name: 'Gina Globex', email: 'gina@globex.example', role: 'admin' }],
        candidates: [
          {
            id: 21,
            slug: 'alice-smith',
            user_id: 3,
            first_name: 'Alice',
            last_name: 'Smith',
            email: 'alice@x.example',
            status: 'potential',
            created_at: '2024-01-01T00:00:00Z',
          },
        ],
      },
    ],
  };
}

let api: TTestApi;

const RESUME_PROFILE = {
  headline: 'Backend Developer',
  location: { city: 'Utrecht', country_code: 'NL' },
  links: [{ type: 'github', url: 'https://github.com/carla' }],
  experience: [{ title: 'Backend Developer', employer: 'Voorbeeld B.V.', start: '2021-04', end: null, current: true }],
  education: [{ degree: 'MSc Computer Science', institution: 'Universiteit Utrecht', start: '2016', end: '2021' }],
  skills: ['TypeScript', 'PostgreSQL'],
  languages: [
    { language: 'nl', level: 'native' },
    { language: 'en', level: 'fluent' },
  ],
};

beforeAll(async () => {
  const url = await createTestDatabase();
  api = await startTestApi(url);
  await importTenantDocument({ em: api.services.orm.em }, tenantDocument());
  // A candidate may be associated with several users; the tenant document names one, so add the second here.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('insert into candidate_users (candidate_id, user_id) values (14, 1)');
  // Candidate 13 was made from a resume: the worker stored the profile it read.
  await client.query('update candidates set profile = $1 where id = 13', [JSON.stringify(RESUME_PROFILE)]);
  await client.end();
});
afterAll(async () => api?.close());

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((item) => item.id);
const list = async (query: string, key = KEY) => api.get(`/candidates${query}`, key);

function expectedOrder(
  sort: 'created_at' | 'first_name' | 'last_name' | 'email',
  direction: 'asc' | 'desc',
  candidateIds = USER_ONE,
): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  const key = (c: TCandidateSeed): string | number | null =>
    sort === 'created_at' ? Date.parse(c.created_at) : (c[sort]?.toLowerCase() ?? null);
  return ACME_CANDIDATES.filter((c) => candidateIds.includes(c.id))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null && kb === null) return sign * (a.id - b.id);
      if (ka === null) return 1;
      if (kb === null) return -1;
      if (ka !== kb) return sign * (ka < kb ? -1 : 1);
      return sign * (a.id - b.id);
    })
    .map((c) => c.id);
}

describe('GET /candidates — access and user_id', () => {
  it('answers 401 without a key and 403 without candidates:read', async () => {
    const anonymous = await api.get('/candidates?user_id=1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Unauthenticated.' });
    const response = await list('?user_id=1', KEY_NO_SCOPE);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      message: 'This API key does not have the required scope: candidates:read.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'candidates:read',
    });
  });

  it.each([
    ['absent', '', 'The user id field is required.'],
    ['empty', '?user_id=', 'The user id must be an integer.'],
    ['not an integer', '?user_id=abc', 'The user id must be an integer.'],
    ['a decimal', '?user_id=1.5', 'The user id must be an integer.'],
    ['negative', '?user_id=-1', 'The user id must be an integer.'],
    ['an array', '?user_id[]=1', 'The user id must be an integer.'],
    ['no user', '?user_id=999', 'The selected user id is invalid.'],
    ['beyond int4', '?user_id=99999999999', 'The selected user id is invalid.'],
    ["another tenant's user", '?user_id=3', 'The selected user id is invalid.'],
  ])('answers 422 on user_id when it is %s', async (_what, query, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { user_id: [message] } });
  });

  it("accepts a user without candidates (empty list) and each tenant's own users", async () => {
    const empty = await list('?user_id=4');
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
    const other = await list('?user_id=3', KEY_OTHER);
    expect(ids(other.body)).toEqual([21]);
    expect((await list('?user_id=1', KEY_OTHER)).status).toBe(422);
  });
});

describe('GET /candidates — items', () => {
  it("returns only the user's candidates, newest first, with the requested user_id", async () => {
    const response = await list('?user_id=1');
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual([16, 12, 14, 13, 11]);
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 20, total: 5, last_page: 1, from: 1, to: 5 });
    expect(response.body.data.find((item: { id: number }) => item.id === 11)).toEqual({
      id: 11,
      slug: 'alice-smith',
      user_id: 1,
      first_name: 'Alice',
      last_name: 'Smith',
      email: 'alice@x.example',
      phone: '+31611111111',
      status: 'potential',
      profile: null,
      created_at: '2024-01-01T08:00:00.000Z',
    });
    expect(response.body.data.find((item: { id: number }) => item.id === 12)).toMatchObject({
      email: null,
      phone: null,
      status: 'employee',
    });
  });

  it("shows a candidate associated with several users in each user's list", async () => {
    const second = await list('?user_id=2');
    expect(second.body.data).toEqual([
      {
        id: 14,
        slug: 'dave-smith',
        user_id: 2,
        first_name: 'dave',
        last_name: 'Smith',
        email: 'dave@x.example',
        phone: null,
        status: 'potential',
        profile: null,
        created_at: '2024-01-02T08:00:00.000Z',
      },
    ]);
    const first = await list('?user_id=1&search=dave');
    expect(first.body.data[0]).toMatchObject({ id: 14, user_id: 1 });
  });

  it('shows the profile read from the resume a candidate was made from, in the list and the detail', async () => {
    const response = await list('?user_id=1');
    expect(response.body.data.find((item: { id: number }) => item.id === 13).profile).toEqual(RESUME_PROFILE);
    const detail = await api.get('/candidates/13', KEY);
    expect(detail.status).toBe(200);
    expect(detail.body.data.profile).toEqual(RESUME_PROFILE);
  });

  it('never lists candidates without an association to the user', async () => {
    const all = await list('?user_id=1&per_page=100');
    expect(ids(all.body)).not.toContain(15);
    expect(ids(all.body)).not.toContain(21);
  });
});

describe('GET /candidates — filters', () => {
  it('matches email exactly and case-insensitively', async () => {
    expect(ids((await list('?user_id=1&email=carla@x.example')).body)).toEqual([13]);
    expect(ids((await list('?user_id=1&email=ALICE@X.EXAMPLE')).body)).toEqual([11]);
    expect(ids((await list('?user_id=1&email=alice')).body)).toEqual([]);
    expect(ids((await list('?user_id=1&email=eve@x.example')).body)).toEqual([]);
    expect(ids((await list('?user_id=1&email=%20dave@x.example%20')).body)).toEqual([14]);
    expect((await list('?user_id=1&email=')).body.meta.total).toBe(5);
  });

  it.each([
    ['first name', 'ALI', [11]],
    ['last name', 'smith', [11, 14, 16]],
    ['email', 'frank@', [16]],
    ['non-ASCII name', 'émond', [13]],
    ['non-ASCII upper case', 'ÉMOND', [13]],
    ['a shared email domain', 'X.EXAMPLE', [11, 13, 14, 16]],
    ['nothing', 'zebra', []],
    ['an underscore literally', '_', []],
  ])('searches the %s', async (_what, term, expected) => {
    const response = await list(`?user_id=1&search=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual([...expected].sort());
  });

  it('filters by status', async () => {
    expect(ids((await list('?user_id=1&status=potential')).body)).toEqual([16, 14, 11]);
    expect(ids((await list('?user_id=1&status=employee')).body)).toEqual([12]);
    expect(ids((await list('?user_id=1&status=do_not_contact')).body)).toEqual([13]);
    expect(ids((await list('?user_id=1&status=ex_employee')).body)).toEqual([]);
  });

  it('combines filters with AND', async () => {
    expect(ids((await list('?user_id=1&status=potential&search=smith')).body)).toEqual([16, 14, 11]);
    expect(ids((await list('?user_id=1&status=employee&search=smith')).body)).toEqual([]);
    expect(ids((await list('?user_id=2&search=alice')).body)).toEqual([]);
  });

  it.each([
    ['?user_id=1&status=hired', 'status', 'The selected status is invalid.'],
    ['?user_id=1&status=Potential', 'status', 'The selected status is invalid.'],
    ['?user_id=1&sort=status', 'sort', 'The selected sort is invalid.'],
    ['?user_id=1&sort_direction=random', 'sort_direction', 'The selected sort direction is invalid.'],
    ['?user_id=1&per_page=101', 'per_page', 'The per page must not be greater than 100.'],
    ['?user_id=1&page=0', 'page', 'The page must be at least 1.'],
    [`?user_id=1&search=${'s'.repeat(256)}`, 'search', 'The search must not be greater than 255 characters.'],
  ])('answers 422 for %s', async (query, field, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: 'The given data was invalid.', errors: { [field]: [message] } });
  });
});

describe('GET /candidates — sorting and paging', () => {
  it.each([
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['first_name', 'asc'],
    ['first_name', 'desc'],
    ['last_name', 'asc'],
    ['last_name', 'desc'],
    ['email', 'asc'],
    ['email', 'desc'],
  ] as const)('sorts by %s %s (case-insensitive, nulls last, ties by id)', async (sort, direction) => {
    const response = await list(`?user_id=1&sort=${sort}&sort_direction=${direction}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expectedOrder(sort, direction));
  });

  it('spells out the tie-breaks and null placement', async () => {
    expect(ids((await list('?user_id=1&sort=created_at&sort_direction=asc')).body)).toEqual([11, 13, 14, 12, 16]);
    expect(ids((await list('?user_id=1&sort=last_name&sort_direction=asc')).body)).toEqual([12, 11, 14, 16, 13]);
    expect(ids((await list('?user_id=1&sort=email&sort_direction=asc')).body)).toEqual([11, 13, 14, 16, 12]);
    expect(ids((await list('?user_id=1&sort=email&sort_direction=desc')).body)).toEqual([16, 14, 13, 11, 12]);
  });

  it('keeps every query parameter in the page links', async () => {
    const response = await list('?user_id=1&per_page=2&status=potential');
    expect(response.body.meta).toMatchObject({ total: 3, last_page: 2, from: 1, to: 2 });
    const next = new URL(response.body.links.next);
    expect(Object.fromEntries(next.searchParams)).toMatchObject({
      user_id: '1',
      status: 'potential',
      page: '2',
      per_page: '2',
    });
  });

  it('visits every candidate exactly once across pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('created_at', 'first_name', 'last_name', 'email'),
        fc.constantFrom('asc', 'desc'),
        async (perPage, sort, direction) => {
          const seen: number[] = [];
          let lastPage = 1;
          for (let page = 1; page <= lastPage; page++) {
            const response = await list(
              `?user_id=1&per_page=${perPage}&page=${page}&sort=${sort}&sort_direction=${direction}`,
            );
            lastPage = response.body.meta.last_page;
            seen.push(...ids(response.body));
          }
          expect(seen).toEqual(expectedOrder(sort, direction));
        },
      ),
      { numRuns: 15 },
    );
  });
});
