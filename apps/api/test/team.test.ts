import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

const KEY = 'ck_test_team_acme_full_00001';
const KEY_NO_SCOPE = 'ck_test_team_acme_locations_02';
const KEY_OTHER = 'ck_test_team_globex_000000003';

const HR = { name: 'hr_manager', label: { en: 'HR manager', nl: 'HR-manager' } };
// No label in acme's default language (en): the alphabetically first stored language (de) is used.
const ADMIN = { name: 'administrator', label: { nl: 'Beheerder', de: 'Verwalter' } };
const avatar = (id: number) => ({
  small: `https://cdn.example/avatars/${id}-s.jpg`,
  medium: `https://cdn.example/avatars/${id}-m.jpg`,
  large: `https://cdn.example/avatars/${id}-l.jpg`,
});

type TMember = {
  id: number;
  given_name: string;
  family_name: string;
  email: string;
  job_title: string | null;
  phone: string | null;
  role: typeof HR | typeof ADMIN | null;
  avatar: { small: string | null; medium: string | null; large: string | null } | null;
  employed: boolean;
};

const ACME: TMember[] = [
  {
    id: 1,
    given_name: 'Anna',
    family_name: 'Zeller',
    email: 'anna.zeller@acme.example',
    job_title: 'Senior Engineer',
    phone: '+31201234567',
    role: HR,
    avatar: avatar(1),
    employed: true,
  },
  {
    id: 2,
    given_name: 'bob',
    family_name: 'Young',
    email: 'bob@acme.example',
    job_title: null,
    phone: null,
    role: null,
    avatar: null,
    employed: true,
  },
  {
    id: 3,
    given_name: 'Chris',
    family_name: 'adams',
    email: 'chris@acme.example',
    job_title: 'engineering Manager',
    phone: '+4930123456',
    role: ADMIN,
    avatar: { small: 'https://cdn.example/avatars/3-s.jpg', medium: null, large: null },
    employed: true,
  },
  {
    id: 4,
    given_name: 'anna',
    family_name: 'Baker',
    email: 'a.baker@acme.example',
    job_title: 'Recruiter',
    phone: null,
    role: HR,
    avatar: null,
    employed: true,
  },
  {
    id: 5,
    given_name: 'Dana',
    family_name: 'Former',
    email: 'dana@acme.example',
    job_title: 'Senior Engineer',
    phone: null,
    role: HR,
    avatar: avatar(5),
    employed: false,
  },
  {
    id: 6,
    given_name: 'Émile',
    family_name: 'Ørsted',
    email: 'emile@acme.example',
    job_title: 'Designer',
    phone: null,
    role: null,
    avatar: { small: null, medium: null, large: null },
    employed: true,
  },
];
const EMPLOYED = ACME.filter((member) => member.employed);

function tenantDocument() {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        default_language: 'en',
        api_keys: [
          { id: 1, name: 'Website', key: KEY, scopes: ['team:read'] },
          { id: 2, name: 'Locations only', key: KEY_NO_SCOPE, scopes: ['locations:read'] },
        ],
        team_members: ACME,
      },
      {
        slug: 'globex',
        name: 'Globex',
        default_language: 'nl',
        api_keys: [{ id: 3, name: 'Site', key: KEY_OTHER, scopes: ['team:read'] }],
        team_members: [
          {
            id: 7,
            given_name: 'Anna',
            family_name: 'Globex',
            email: 'anna@globex.example',
            job_title: 'Senior Engineer',
            role: { name: 'hr_manager', label: { en: 'People lead', nl: 'Mensenleider' } },
            avatar: avatar(7),
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
const list = async (query: string, key = KEY) => api.get(`/team${query}`, key);

function expectedOrder(field: 'given_name' | 'family_name' | 'job_title', direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...EMPLOYED]
    .sort((a, b) => {
      const ka = a[field]?.toLowerCase() ?? null;
      const kb = b[field]?.toLowerCase() ?? null;
      if (ka === null && kb === null) return sign * (a.id - b.id);
      if (ka === null) return 1;
      if (kb === null) return -1;
      if (ka !== kb) return sign * (ka < kb ? -1 : 1);
      return sign * (a.id - b.id);
    })
    .map((member) => member.id);
}

describe('GET /team — access', () => {
  it('answers 401 without a key', async () => {
    const response = await api.get('/team');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 403 for a key without team:read, on list and detail', async () => {
    for (const path of ['/team', '/team/1', '/team/abc']) {
      const response = await api.get(path, KEY_NO_SCOPE);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This API key does not have the required scope: team:read.',
        error: 'INSUFFICIENT_SCOPE',
        required_scope: 'team:read',
      });
    }
  });
});

describe('GET /team — shape', () => {
  it('lists employed members only, with avatars and without optional keys', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 20, total: 5, last_page: 1, from: 1, to: 5 });
    expect(ids(response.body)).not.toContain(5);
    const anna = response.body.data.find((item: { id: number }) => item.id === 1);
    expect(anna).toEqual({
      id: 1,
      given_name: 'Anna',
      family_name: 'Zeller',
      full_name: 'Anna Zeller',
      job_title: 'Senior Engineer',
      email: 'anna.zeller@acme.example',
      avatar: avatar(1),
    });
    const bob = response.body.data.find((item: { id: number }) => item.id === 2);
    expect(bob).toEqual({
      id: 2,
      given_name: 'bob',
      family_name: 'Young',
      full_name: 'bob Young',
      job_title: null,
      email: 'bob@acme.example',
      avatar: { small: null, medium: null, large: null },
    });
  });

  it('adds phone with include_phone (null when unknown)', async () => {
    const response = await list('?include_phone=true');
    const phones = Object.fromEntries(
      response.body.data.map((item: { id: number; phone: string | null }) => [item.id, item.phone]),
    );
    expect(phones).toEqual({ 1: '+31201234567', 2: null, 3: '+4930123456', 4: null, 6: null });
    for (const item of (await list('?include_phone=0')).body.data) expect(item).not.toHaveProperty('phone');
  });

  it('adds the role label in the tenant default language, else the first stored language, with include_role', async () => {
    const response = await list('?include_role=1');
    const roles = Object.fromEntries(
      response.body.data.map((item: { id: number; role: string | null }) => [item.id, item.role]),
    );
    expect(roles).toEqual({ 1: 'HR manager', 2: null, 3: 'Verwalter', 4: 'HR manager', 6: null });
    for (const item of (await list('?include_role=false')).body.data) expect(item).not.toHaveProperty('role');
  });

  it('takes no language: a language parameter changes nothing', async () => {
    const response = await list('?include_role=true&language=nl');
    expect(response.status).toBe(200);
    expect(response.body.data.find((item: { id: number }) => item.id === 1).role).toBe('HR manager');
  });

  it("uses each tenant's default language for role labels", async () => {
    const response = await list('?include_role=true', KEY_OTHER);
    expect(response.body.data).toEqual([
      {
        id: 7,
        given_name: 'Anna',
        family_name: 'Globex',
        full_name: 'Anna Globex',
        job_title: 'Senior Engineer',
        email: 'anna@globex.example',
        avatar: avatar(7),
        role: 'Mensenleider',
      },
    ]);
  });
});

describe('GET /team — filters', () => {
  it.each([
    ['given name', 'ANNA', [1, 4]],
    ['family name', 'zell', [1]],
    ['full name', 'anna baker', [4]],
    ['email', '@ACME.example', [1, 2, 3, 4, 6]],
    ['email local part', 'a.baker', [4]],
    ['job title', 'manager', [3]],
    ['non-ASCII case folding', 'ørsted', [6]],
    ['non-ASCII upper case', 'ÉMILE', [6]],
    ['nothing', 'zzz', []],
    ['a LIKE wildcard literally', '%', []],
  ])('search matches the %s', async (_what, term, expected) => {
    const response = await list(`?search=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    expect(ids(response.body).sort()).toEqual([...expected].sort());
  });

  it('never finds members who are not employed', async () => {
    expect(ids((await list('?search=dana')).body)).toEqual([]);
    expect(ids((await list('?job_title=senior')).body)).toEqual([1]);
  });

  it('filters job_title by case-insensitive partial match; unknown gives an empty list', async () => {
    expect(ids((await list('?job_title=SENIOR')).body)).toEqual([1]);
    expect(ids((await list('?job_title=engineer')).body).sort()).toEqual([1, 3]);
    expect(ids((await list('?job_title=astronaut')).body)).toEqual([]);
  });

  it('filters by role name case-insensitively; labels and unknown names match nothing', async () => {
    expect(ids((await list('?role=hr_manager')).body)).toEqual([1, 4]);
    expect(ids((await list('?role=HR_Manager')).body)).toEqual([1, 4]);
    expect(ids((await list('?role=administrator')).body)).toEqual([3]);
    const unknown = await list('?role=astronaut');
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
    expect(ids((await list(`?role=${encodeURIComponent('HR manager')}`)).body)).toEqual([]);
  });

  it('trims role and job_title; an empty value is no filter', async () => {
    expect(ids((await list('?role=%20hr_manager%20')).body)).toEqual([1, 4]);
    expect(ids((await list('?job_title=%20recruiter')).body)).toEqual([4]);
    expect((await list('?role=')).body.meta.total).toBe(5);
    expect((await list('?job_title=%20')).body.meta.total).toBe(5);
  });

  it('has_avatar=true keeps members with an avatar; false is no filter', async () => {
    expect(ids((await list('?has_avatar=true')).body)).toEqual([1, 3]);
    expect(ids((await list('?has_avatar=1')).body)).toEqual([1, 3]);
    expect((await list('?has_avatar=false')).body.meta.total).toBe(5);
    expect((await list('?has_avatar=0')).body.meta.total).toBe(5);
  });

  it('combines filters with AND', async () => {
    expect(ids((await list('?role=hr_manager&has_avatar=true')).body)).toEqual([1]);
    expect(ids((await list('?role=hr_manager&search=baker')).body)).toEqual([4]);
    expect(ids((await list('?role=administrator&job_title=recruiter')).body)).toEqual([]);
  });

  it.each([
    ['?has_avatar=maybe', 'has_avatar', 'The has avatar field must be true or false.'],
    ['?include_phone=yes', 'include_phone', 'The include phone field must be true or false.'],
    ['?include_role=2', 'include_role', 'The include role field must be true or false.'],
    ['?sort=email', 'sort', 'The selected sort is invalid.'],
    ['?sort=GIVEN_NAME', 'sort', 'The selected sort is invalid.'],
    ['?sort_direction=DESC', 'sort_direction', 'The selected sort direction is invalid.'],
    ['?per_page=101', 'per_page', 'The per page must not be greater than 100.'],
    ['?page=-1', 'page', 'The page must be an integer.'],
    [`?search=${'a'.repeat(256)}`, 'search', 'The search must not be greater than 255 characters.'],
  ])('answers 422 for %s', async (query, field, message) => {
    const response = await list(query);
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The given data was invalid.');
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(response.body.errors[field][0]).toBe(message);
  });
});

describe('GET /team — sorting', () => {
  it('defaults to given_name ascending, case-insensitive, ties by id', async () => {
    expect(ids((await list('')).body)).toEqual([1, 4, 2, 3, 6]);
  });

  it.each([
    ['given_name', 'asc'],
    ['given_name', 'desc'],
    ['family_name', 'asc'],
    ['family_name', 'desc'],
    ['job_title', 'asc'],
    ['job_title', 'desc'],
  ] as const)('sorts by %s %s', async (sort, direction) => {
    const response = await list(`?sort=${sort}&sort_direction=${direction}`);
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(expectedOrder(sort, direction));
  });

  it('puts members without a job title last in both directions and breaks ties by id in the direction', async () => {
    expect(ids((await list('?sort=job_title&sort_direction=asc')).body)).toEqual([6, 3, 4, 1, 2]);
    expect(ids((await list('?sort=job_title&sort_direction=desc')).body)).toEqual([1, 4, 3, 6, 2]);
    expect(ids((await list('?sort=given_name&sort_direction=desc')).body)).toEqual([6, 3, 2, 4, 1]);
  });

  it('visits every member exactly once across pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('given_name', 'family_name', 'job_title'),
        fc.constantFrom('asc', 'desc'),
        async (perPage, sort, direction) => {
          const seen: number[] = [];
          let lastPage = 1;
          for (let page = 1; page <= lastPage; page++) {
            const response = await list(`?per_page=${perPage}&page=${page}&sort=${sort}&sort_direction=${direction}`);
            lastPage = response.body.meta.last_page;
            expect(response.body.meta.total).toBe(5);
            seen.push(...ids(response.body));
          }
          expect(seen).toEqual(expectedOrder(sort, direction));
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('GET /team/{id}', () => {
  it('returns the complete member with the flags', async () => {
    const response = await api.get('/team/3?include_phone=true&include_role=true', KEY);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        id: 3,
        given_name: 'Chris',
        family_name: 'adams',
        full_name: 'Chris adams',
        job_title: 'engineering Manager',
        email: 'chris@acme.example',
        avatar: { small: 'https://cdn.example/avatars/3-s.jpg', medium: null, large: null },
        phone: '+4930123456',
        role: 'Verwalter',
      },
    });
  });

  it('omits phone and role without their flags; role is null for a member without one', async () => {
    const plain = await api.get('/team/2', KEY);
    expect(plain.status).toBe(200);
    expect(plain.body.data).not.toHaveProperty('phone');
    expect(plain.body.data).not.toHaveProperty('role');
    const flagged = await api.get('/team/2?include_role=1&include_phone=1', KEY);
    expect(flagged.body.data).toMatchObject({ role: null, phone: null });
  });

  it.each([
    ['a non-integer id', '/team/abc'],
    ['a negative id', '/team/-1'],
    ['a decimal id', '/team/1.5'],
    ['an id beyond int4', '/team/99999999999'],
    ['an unknown id', '/team/999'],
    ['a member who is not employed', '/team/5'],
    ["another tenant's member", '/team/7'],
  ])('answers 404 for %s', async (_what, path) => {
    const response = await api.get(path, KEY);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Resource not found.' });
  });

  it('validates flags before looking the member up', async () => {
    const response = await api.get('/team/999?include_phone=yes', KEY);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ include_phone: ['The include phone field must be true or false.'] });
  });

  it('shows a tenant only its own members', async () => {
    expect(ids((await list('', KEY_OTHER)).body)).toEqual([7]);
    expect((await api.get('/team/7', KEY_OTHER)).status).toBe(200);
    expect((await api.get('/team/1', KEY_OTHER)).status).toBe(404);
  });
});
