import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { hashApiKey } from '../src/modules/api-keys/api-key.crypto.ts';
import { verifyPassword } from '../src/modules/users/password.ts';
import {
  IMPORTED_TABLES,
  importTenantDocument,
  TenantDocumentError,
} from '../src/modules/tenants/import/tenant-import.service.ts';
import {
  parseTenantDocument,
  TenantDocumentSchema,
  type TTenantDocument,
} from '../src/modules/tenants/import/tenant-document.schema.ts';
import { buildDemoDocument, DEMO_ADMIN, DEMO_API_KEY, DEMO_GLOBEX_API_KEY } from '../src/demo/demo-tenant.ts';
import { buildLargeDocument } from '../src/demo/large-tenant.ts';
import { pgTextArrayLiteral } from '../src/modules/tenants/import/bulk-sql.ts';

const KEY = 'ck_test_contract_key_0123456789';
const REVOKED_KEY = 'ck_test_revoked_key_abcdefghij';
const GLOBEX_KEY = 'ck_test_globex_key_zyxwvutsrqpo';
const PASSWORD = 'correct horse battery staple';

/** The document of CONTRACT.md, filled in, plus a second tenant. */
function sampleDocument(): TTenantDocument {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        default_language: 'en',
        api_enabled: true,
        career_site: { domain: 'careers.acme.example', url_pattern: 'https://careers.acme.example/vacancies/{slug}' },
        domains: ['acme.example', 'jobs.acme.example'],
        api_keys: [
          { id: 1, name: 'Website', key: KEY, scopes: ['vacancies:read', 'team:read'], revoked: false },
          { id: 2, name: 'Old', key: REVOKED_KEY, scopes: [], revoked: true },
        ],
        users: [
          { id: 1, name: 'Ada Admin', email: 'ada@acme.example', role: 'admin', password: PASSWORD },
          { id: 2, name: 'Rob Recruiter', email: 'rob@acme.example', role: 'recruiter', password: null },
        ],
        locations: [
          {
            id: 1,
            slug: 'amsterdam-office',
            name: 'Amsterdam Office',
            address_line_1: 'Keizersgracht 100',
            address_line_2: null,
            address_line_3: null,
            locality: 'Amsterdam',
            administrative_area: 'North Holland',
            postal_code: '1015 AA',
            country_code: 'NL',
            latitude: 52.3676,
            longitude: 4.9041,
            created_at: '2025-01-02T03:04:05Z',
          },
          {
            id: 2,
            slug: 'berlin',
            name: 'Berlin',
            locality: 'Berlin',
            country_code: 'de',
            created_at: '2025-02-01T00:00:00+01:00',
          },
        ],
        companies: [
          {
            id: 1,
            name: 'Client Co',
            locations: [{ id: 1, name: 'Client Co Utrecht', city: 'Utrecht', country_code: 'NL' }],
          },
        ],
        departments: [
          { id: 1, name: { en: 'Engineering', nl: 'Techniek' } },
          { id: 2, name: 'Sales' },
        ],
        job_types: [
          { id: 1, name: { en: 'Full-time', nl: 'Voltijd' }, employment_type: 'FULL_TIME' },
          { id: 2, name: { en: 'Other' } },
        ],
        experience_levels: [{ id: 1, name: { en: 'Senior' } }],
        education_levels: [{ id: 1, name: { en: 'Master' } }],
        tags: [
          { id: 2, name: { en: 'Backend' }, parent_id: 1 },
          { id: 1, name: { en: 'Tech' }, parent_id: null },
        ],
        vacancies: [
          {
            id: 7,
            slug: 'senior-backend-engineer',
            title: 'Senior Backend Engineer',
            summary: '<p>Build things.</p>',
            description: '<p>All of it.</p>',
            requirements: null,
            offer: null,
            language: 'en',
            status: 'published',
            channels: ['api', 'website'],
            accepts_applications: true,
            published_at: '2025-03-01T09:00:00Z',
            created_at: '2025-02-20T09:00:00Z',
            ends_at: null,
            views_count: 12,
            location_id: 1,
            department_id: 1,
            company_location_id: 1,
            job_type_ids: [1],
            experience_level_ids: [1],
            education_level_ids: [],
            tag_ids: [2],
            compensation: { min: 5000, max: 6500, currency: 'EUR', period: 'month' },
            header_image: { default: 'https://img.example/d.jpg', small: 'https://img.example/s.jpg', large: null },
            canonical_url: null,
          },
          {
            id: 8,
            slug: 'sales-draft',
            title: 'Sales (draft)',
            language: 'nl',
            status: 'draft',
            channels: ['website'],
            published_at: null,
            department_id: 2,
            location_id: 2,
            tag_ids: [1, 2],
          },
        ],
        team_members: [
          {
            id: 1,
            given_name: 'Hanna',
            family_name: 'Jansen',
            email: 'hanna@acme.example',
            job_title: 'HR',
            phone: '+31201234567',
            role: { name: 'hr_manager', label: { en: 'HR manager', nl: 'HR-manager' } },
            avatar: { small: 'https://img.example/a64.jpg', medium: null, large: null },
            employed: true,
          },
          {
            id: 2,
            given_name: 'Bo',
            family_name: 'Berg',
            email: 'bo@acme.example',
            role: { name: 'hr_manager', label: { en: 'HR manager', nl: 'HR-manager' } },
            avatar: null,
            employed: false,
          },
          { id: 3, given_name: 'Cy', family_name: 'Clay', email: 'cy@acme.example' },
        ],
        articles: [
          {
            id: 1,
            slug: 'hello',
            type: 'news',
            status: 'published',
            is_featured: true,
            views_count: 3,
            published_at: '2025-03-01T00:00:00Z',
            expires_at: null,
            created_at: '2025-03-01T00:00:00Z',
            tag_ids: [1],
            featured_image: null,
            translations: {
              en: {
                title: 'Hello',
                excerpt: 'Hi',
                body_html: '<p>Hello world</p>',
                seo: { title: 'Hello | Acme', description: 'Greeting' },
              },
              nl: {
                title: 'Hallo',
                excerpt: null,
                body_html: '<p>Hallo wereld</p>',
                seo: { title: 'Hallo | Acme', description: 'Groet' },
              },
            },
          },
        ],
        candidates: [
          {
            id: 1,
            slug: 'jan',
            user_id: 1,
            first_name: 'Jan',
            last_name: 'Jansen',
            email: 'jan@example.com',
            phone: null,
            status: 'potential',
            created_at: '2025-04-01T00:00:00Z',
          },
          {
            id: 2,
            slug: 'piet',
            user_id: null,
            first_name: 'Piet',
            last_name: 'Puk',
            email: null,
            phone: '+31600000000',
            status: 'employee',
            created_at: '2025-04-02T00:00:00Z',
          },
        ],
      },
      {
        slug: 'globex',
        name: 'Globex',
        api_keys: [{ id: 3, name: 'Globex', key: GLOBEX_KEY, scopes: ['*'] }],
        locations: [{ id: 3, slug: 'amsterdam-office', name: 'Globex Amsterdam' }],
        vacancies: [
          {
            id: 9,
            slug: 'senior-backend-engineer',
            title: 'Same slug, other tenant',
            language: 'en',
            status: 'published',
            channels: ['api'],
            location_id: 3,
          },
        ],
      },
    ],
  };
}

const DATA_TABLES = IMPORTED_TABLES;

const opened: MikroORM[] = [];
async function freshOrm(): Promise<MikroORM> {
  const orm = await openOrm(await createTestDatabase());
  opened.push(orm);
  return orm;
}
afterAll(async () => {
  await Promise.all(opened.map((orm) => orm.close(true)));
});

/** Every row of every data table, as text, in primary-key order. */
async function dump(orm: MikroORM): Promise<Record<string, string[]>> {
  const db = kyselyOf(orm.em.fork());
  const out: Record<string, string[]> = {};
  for (const table of DATA_TABLES) {
    const { rows } = await sql<{
      row: string;
    }>`select row_to_json(t)::text as row from ${sql.table(table)} t order by 1`.execute(db);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

async function counts(orm: MikroORM): Promise<Record<string, number>> {
  const rows = await dump(orm);
  return Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, list.length]));
}

async function query<T>(orm: MikroORM, text: string): Promise<T[]> {
  return (await orm.em.fork().getConnection().execute(text)) as T[];
}

function expectRefusal(error: unknown, message: string): void {
  expect(error).toBeInstanceOf(TenantDocumentError);
  expect((error as Error).message).toBe(message);
}

describe('importTenantDocument', () => {
  it('imports a valid document with the given ids, hashed keys and passwords', async () => {
    const orm = await freshOrm();
    const summary = await importTenantDocument({ em: orm.em }, sampleDocument());
    expect(summary.tenants.map((t) => t.slug)).toEqual(['acme', 'globex']);
    expect(summary.totals).toMatchObject({
      vacancies: 3,
      locations: 3,
      api_keys: 3,
      team_roles: 1,
      article_translations: 2,
      company_locations: 1,
    });

    expect(
      await query(
        orm,
        'select id, slug, location_id, department_id, company_location_id, compensation_currency from vacancies order by id',
      ),
    ).toEqual([
      {
        id: 7,
        slug: 'senior-backend-engineer',
        location_id: 1,
        department_id: 1,
        company_location_id: 1,
        compensation_currency: 'EUR',
      },
      {
        id: 8,
        slug: 'sales-draft',
        location_id: 2,
        department_id: 2,
        company_location_id: null,
        compensation_currency: null,
      },
      {
        id: 9,
        slug: 'senior-backend-engineer',
        location_id: 3,
        department_id: null,
        company_location_id: null,
        compensation_currency: null,
      },
    ]);
    const [acme, globex] = summary.tenants;
    const [tenantRow] = await query<Record<string, unknown>>(orm, `select * from tenants where slug = 'acme'`);
    expect(tenantRow).toMatchObject({
      id: acme?.id,
      api_enabled: true,
      career_site_domain: 'careers.acme.example',
      domains: ['acme.example', 'jobs.acme.example'],
    });
    expect(
      (await query<{ tenant_id: number }>(orm, 'select tenant_id from vacancies where id = 9'))[0]?.tenant_id,
    ).toBe(globex?.id);

    // API keys: SHA-256 only, display start, revocation.
    const keys = await query<{ id: number; key_hash: string; start: string; scopes: string[]; revoked_at: unknown }>(
      orm,
      'select id, key_hash, start, scopes, revoked_at from api_keys order by id',
    );
    expect(keys.map((k) => [k.id, k.key_hash, k.start, k.scopes, k.revoked_at !== null])).toEqual([
      [1, hashApiKey(KEY), KEY.slice(0, 12), ['vacancies:read', 'team:read'], false],
      [2, hashApiKey(REVOKED_KEY), REVOKED_KEY.slice(0, 12), [], true],
      [3, hashApiKey(GLOBEX_KEY), GLOBEX_KEY.slice(0, 12), ['*'], false],
    ]);

    // Passwords: argon2id, verifiable; no password → null.
    const users = await query<{ id: number; password_hash: string | null }>(
      orm,
      'select id, password_hash from users order by id',
    );
    expect(users[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(users[0]?.password_hash ?? '', PASSWORD)).toBe(true);
    expect(users[1]?.password_hash).toBeNull();

    // No plaintext secret anywhere in the database.
    const everything = JSON.stringify(await dump(orm));
    for (const secret of [KEY, REVOKED_KEY, GLOBEX_KEY, PASSWORD]) expect(everything).not.toContain(secret);

    // Normalised and related rows.
    expect(await query(orm, 'select id, name from departments order by id')).toEqual([
      { id: 1, name: { en: 'Engineering', nl: 'Techniek' } },
      { id: 2, name: { en: 'Sales' } },
    ]);
    expect(await query(orm, 'select id, parent_id from tags order by id')).toEqual([
      { id: 1, parent_id: null },
      { id: 2, parent_id: 1 },
    ]);
    expect(await query(orm, 'select vacancy_id, tag_id from vacancy_tags order by 1, 2')).toEqual([
      { vacancy_id: 7, tag_id: 2 },
      { vacancy_id: 8, tag_id: 1 },
      { vacancy_id: 8, tag_id: 2 },
    ]);
    expect(await query(orm, 'select vacancy_id, job_type_id from vacancy_job_types')).toEqual([
      { vacancy_id: 7, job_type_id: 1 },
    ]);
    expect(await query(orm, 'select id, employment_type from job_types order by id')).toEqual([
      { id: 1, employment_type: 'FULL_TIME' },
      { id: 2, employment_type: null },
    ]);
    expect(await query(orm, 'select id, country_code from locations order by id')).toEqual([
      { id: 1, country_code: 'NL' },
      { id: 2, country_code: 'DE' },
      { id: 3, country_code: null },
    ]);
    expect(await query(orm, 'select id, company_id, name from company_locations')).toEqual([
      { id: 1, company_id: 1, name: 'Client Co Utrecht' },
    ]);
    expect(
      await query(
        orm,
        'select article_id, language, title, excerpt, seo_title, seo_description from article_translations order by language',
      ),
    ).toEqual([
      {
        article_id: 1,
        language: 'en',
        title: 'Hello',
        excerpt: 'Hi',
        seo_title: 'Hello | Acme',
        seo_description: 'Greeting',
      },
      {
        article_id: 1,
        language: 'nl',
        title: 'Hallo',
        excerpt: null,
        seo_title: 'Hallo | Acme',
        seo_description: 'Groet',
      },
    ]);
    expect(await query(orm, 'select article_id, tag_id from article_tags')).toEqual([{ article_id: 1, tag_id: 1 }]);
    const roles = await query<{ id: number; name: string; label: unknown }>(
      orm,
      'select id, name, label from team_roles',
    );
    expect(roles).toEqual([
      { id: expect.any(Number), name: 'hr_manager', label: { en: 'HR manager', nl: 'HR-manager' } },
    ]);
    expect(await query(orm, 'select id, role_id, employed, avatar from team_members order by id')).toEqual([
      {
        id: 1,
        role_id: roles[0]?.id,
        employed: true,
        avatar: { small: 'https://img.example/a64.jpg', medium: null, large: null },
      },
      { id: 2, role_id: roles[0]?.id, employed: false, avatar: null },
      { id: 3, role_id: null, employed: true, avatar: null },
    ]);
    expect(await query(orm, 'select candidate_id, user_id from candidate_users')).toEqual([
      { candidate_id: 1, user_id: 1 },
    ]);
    const [published] = await query<{ published_at: string }>(
      orm,
      `select to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as published_at from vacancies where id = 7`,
    );
    expect(published?.published_at).toBe('2025-03-01T09:00:00');
  });

  it('gives identical table contents when the same document is imported twice', async () => {
    const orm = await freshOrm();
    await importTenantDocument({ em: orm.em }, sampleDocument());
    const first = await dump(orm);
    await importTenantDocument({ em: orm.em }, sampleDocument());
    expect(await dump(orm)).toEqual(first);
  });

  it('replaces pivot rows, translations and roles of re-imported records', async () => {
    const orm = await freshOrm();
    await importTenantDocument({ em: orm.em }, sampleDocument());
    const changed = sampleDocument();
    const acme = changed.tenants[0];
    if (
      !acme?.vacancies?.[0] ||
      !acme.articles?.[0] ||
      !acme.team_members?.[0] ||
      !acme.candidates?.[0] ||
      !acme.api_keys?.[1]
    )
      throw new Error('fixture');
    acme.vacancies[0].tag_ids = [1];
    acme.vacancies[0].job_type_ids = [];
    acme.vacancies[0].title = 'Staff Backend Engineer';
    delete acme.articles[0].translations.nl;
    acme.team_members[0].role = null;
    acme.candidates[0].user_id = 2;
    acme.api_keys[1].revoked = false;
    acme.job_types = [
      { id: 1, name: { en: 'Part-time' }, employment_type: 'PART_TIME' },
      { id: 2, name: { en: 'Other' }, employment_type: 'OTHER' },
    ];
    const [before] = await query<{ content_version: string }>(
      orm,
      `select content_version from tenants where slug = 'acme'`,
    );
    await importTenantDocument({ em: orm.em }, changed);
    // A changed import is a content change (the identical one above is not: the dumps include the version).
    const [after] = await query<{ content_version: string }>(
      orm,
      `select content_version from tenants where slug = 'acme'`,
    );
    expect(Number(after?.content_version)).toBeGreaterThan(Number(before?.content_version));
    expect(await query(orm, 'select vacancy_id, tag_id from vacancy_tags where vacancy_id = 7')).toEqual([
      { vacancy_id: 7, tag_id: 1 },
    ]);
    expect(await query(orm, 'select * from vacancy_job_types')).toEqual([]);
    expect(await query(orm, 'select title from vacancies where id = 7')).toEqual([{ title: 'Staff Backend Engineer' }]);
    expect(await query(orm, 'select language from article_translations')).toEqual([{ language: 'en' }]);
    expect(await query(orm, 'select role_id from team_members where id = 1')).toEqual([{ role_id: null }]);
    expect(await query(orm, 'select candidate_id, user_id from candidate_users')).toEqual([
      { candidate_id: 1, user_id: 2 },
    ]);
    expect(await query(orm, 'select revoked_at from api_keys where id = 2')).toEqual([{ revoked_at: null }]);
    expect(await query(orm, 'select id, employment_type from job_types order by id')).toEqual([
      { id: 1, employment_type: 'PART_TIME' },
      { id: 2, employment_type: 'OTHER' },
    ]);
  });

  describe('refuses a bad document as a whole and writes nothing', () => {
    const cases: [string, (doc: TTenantDocument) => void, string][] = [
      [
        'a reference to nothing',
        (doc) => {
          const v = doc.tenants[0]?.vacancies?.[1];
          if (v) v.department_id = 99;
        },
        'tenants[0].vacancies[1].department_id: no such department',
      ],
      [
        "a reference to another tenant's record",
        (doc) => {
          const v = doc.tenants[1]?.vacancies?.[0];
          if (v) v.location_id = 1;
        },
        'tenants[1].vacancies[0].location_id: no such location',
      ],
      [
        'an unknown scope',
        (doc) => {
          doc.tenants[0]?.api_keys?.[0]?.scopes.push('vacancies:delete');
        },
        'tenants[0].api_keys[0].scopes[2]: unknown scope "vacancies:delete"',
      ],
      [
        'a bad status',
        (doc) => {
          const v = doc.tenants[0]?.vacancies?.[0];
          if (v) (v as { status: string }).status = 'archived';
        },
        'tenants[0].vacancies[0].status: must be one of draft|published|unpublished, got "archived"',
      ],
      [
        'a bad candidate status',
        (doc) => {
          const c = doc.tenants[0]?.candidates?.[1];
          if (c) (c as { status: string }).status = 'hired';
        },
        'tenants[0].candidates[1].status: must be one of potential|waiting_for_intake|intake_scheduled|active_mediation|latent_mediation|upcoming_employee|employee|ex_employee|do_not_contact, got "hired"',
      ],
      [
        'an unknown employment type (they are case-sensitive)',
        (doc) => {
          const t = doc.tenants[0]?.job_types?.[0];
          if (t) (t as { employment_type: unknown }).employment_type = 'full_time';
        },
        'tenants[0].job_types[0].employment_type: must be one of FULL_TIME|PART_TIME|CONTRACTOR|TEMPORARY|INTERN|VOLUNTEER|PER_DIEM|OTHER, got "full_time"',
      ],
      [
        'a bad sub-tag parent',
        (doc) => {
          const t = doc.tenants[0]?.tags?.[0];
          if (t) t.parent_id = 5;
        },
        'tenants[0].tags[0].parent_id: no such tag',
      ],
      [
        'an id used twice across tenants',
        (doc) => {
          const l = doc.tenants[1]?.locations?.[0];
          if (l) l.id = 2;
        },
        'tenants[1].locations[0].id: duplicate id 2 (ids of a table are unique across the whole document)',
      ],
      [
        'a duplicate slug in a tenant',
        (doc) => {
          const v = doc.tenants[0]?.vacancies?.[1];
          if (v) v.slug = 'senior-backend-engineer';
        },
        'tenants[0].vacancies[1].slug: duplicate vacancy slug "senior-backend-engineer"',
      ],
      [
        'a short key',
        (doc) => {
          const k = doc.tenants[0]?.api_keys?.[0];
          if (k) k.key = 'ck_short';
        },
        'tenants[0].api_keys[0].key: must be at least 20 characters',
      ],
      [
        'a candidate of an unknown user',
        (doc) => {
          const c = doc.tenants[0]?.candidates?.[0];
          if (c) c.user_id = 3;
        },
        'tenants[0].candidates[0].user_id: no such user',
      ],
      [
        'a string id',
        (doc) => {
          const v = doc.tenants[0]?.vacancies?.[0];
          if (v) (v as { id: unknown }).id = '7';
        },
        'tenants[0].vacancies[0].id: must be a number, got "7"',
      ],
    ];

    it.each(cases)('%s', async (_name, mutate, message) => {
      const orm = await freshOrm();
      const document = sampleDocument();
      mutate(document);
      const error = await importTenantDocument({ em: orm.em }, document).catch((e: unknown) => e);
      expectRefusal(error, message);
      expect(Object.values(await counts(orm)).every((n) => n === 0)).toBe(true);
    });

    it('names the first bad path when there are several', () => {
      const document = sampleDocument();
      const [acme] = document.tenants;
      if (!acme?.vacancies?.[0] || !acme.vacancies[1]) throw new Error('fixture');
      acme.vacancies[1].location_id = 42;
      acme.vacancies[0].job_type_ids = [1, 5];
      const result = parseTenantDocument(document);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toBe('tenants[0].vacancies[0].job_type_ids[1]: no such job type');
    });

    it('offers the same rules as one zod schema', () => {
      const good = TenantDocumentSchema.safeParse(sampleDocument());
      expect(good.success).toBe(true);
      expect(good.data?.tenants[0]?.departments[1]).toEqual({ id: 2, name: { en: 'Sales' } });
      const document = sampleDocument();
      const vacancy = document.tenants[0]?.vacancies?.[0];
      if (vacancy) vacancy.tag_ids = [3];
      const bad = TenantDocumentSchema.safeParse(document);
      expect(bad.error?.issues.map((i) => [i.path, i.message])).toEqual([
        [['tenants', 0, 'vacancies', 0, 'tag_ids', 0], 'no such tag'],
      ]);
    });

    it('refuses something that is not a document', async () => {
      const orm = await freshOrm();
      expectRefusal(
        await importTenantDocument({ em: orm.em }, [1, 2]).catch((e: unknown) => e),
        'document: must be an object, got an array',
      );
      expectRefusal(
        await importTenantDocument({ em: orm.em }, { tenants: {} }).catch((e: unknown) => e),
        'tenants: must be an array, got an object',
      );
    });

    it('refuses ids that belong to another tenant in the database, leaving the database as it was', async () => {
      const orm = await freshOrm();
      await importTenantDocument({ em: orm.em }, sampleDocument());
      const before = await dump(orm);
      const intruder: TTenantDocument = {
        tenants: [
          {
            slug: 'initech',
            name: 'Initech',
            locations: [{ id: 50, slug: 'austin', name: 'Austin' }],
            vacancies: [
              {
                id: 7,
                slug: 'takeover',
                title: 'Takeover',
                language: 'en',
                status: 'published',
                channels: ['api'],
                location_id: 50,
              },
            ],
          },
        ],
      };
      expectRefusal(
        await importTenantDocument({ em: orm.em }, intruder).catch((e: unknown) => e),
        'tenants[0].vacancies[0].id: id 7 belongs to another tenant',
      );
      expect(await dump(orm)).toEqual(before);
    });

    it('refuses a slug that clashes with a record already in the database, leaving it as it was', async () => {
      const orm = await freshOrm();
      await importTenantDocument({ em: orm.em }, sampleDocument());
      const before = await dump(orm);
      const clash = sampleDocument();
      const berlin = clash.tenants[0]?.locations?.[1];
      if (!berlin) throw new Error('fixture');
      // A new location (new id) with the slug of an existing one of the same tenant.
      clash.tenants[0]?.locations?.push({ ...berlin, id: 60, slug: 'amsterdam-office' });
      clash.tenants[0]?.locations?.splice(0, 1);
      const vacancy = clash.tenants[0]?.vacancies?.[0];
      if (vacancy) vacancy.location_id = 60;
      const error = await importTenantDocument({ em: orm.em }, clash).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TenantDocumentError);
      expect((error as Error).message).toMatch(
        /^tenants\[0\]\.locations: conflicts with data already in the database \(Key \(tenant_id, slug\)=\(\d+, amsterdam-office\) already exists\.\)$/,
      );
      expect(await dump(orm)).toEqual(before);
    });
  });

  it('moves every id sequence past the given ids', async () => {
    const orm = await freshOrm();
    await importTenantDocument({ em: orm.em }, sampleDocument());
    const db = kyselyOf(orm.em.fork());
    const tenant = await db
      .insertInto('tenants')
      .values({ slug: 'new', name: 'New' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(tenant.id).toBe(3);
    const vacancy = await sql<{
      id: number;
    }>`insert into vacancies (tenant_id, slug, title, language) values (${tenant.id}, 'v', 'V', 'en') returning id`.execute(
      db,
    );
    expect(vacancy.rows[0]?.id).toBe(10);
    for (const [table, next] of [
      ['locations', 4],
      ['api_keys', 4],
      ['tags', 3],
      ['articles', 2],
    ] as const) {
      const { rows } = await sql<{
        id: number;
      }>`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id`.execute(db);
      expect([table, rows[0]?.id]).toEqual([table, next]);
    }
  });

  it('imports the demo document cleanly, twice', async () => {
    const orm = await freshOrm();
    const document = buildDemoDocument();
    const summary = await importTenantDocument({ em: orm.em }, JSON.parse(JSON.stringify(document)));
    const [acme, globex] = summary.tenants;
    expect(acme?.slug).toBe('acme');
    expect(globex?.slug).toBe('globex');
    expect(acme?.counts.vacancies).toBeGreaterThanOrEqual(60);
    expect(acme?.counts.locations).toBeGreaterThanOrEqual(5);
    expect(acme?.counts.departments).toBeGreaterThanOrEqual(5);
    expect(acme?.counts.team_members).toBeGreaterThanOrEqual(12);
    const [visible] = await query<{ n: number }>(
      orm,
      `select count(*)::int as n from vacancies v join tenants t on t.id = v.tenant_id
       where t.slug = 'acme' and v.status = 'published' and 'api' = any(v.channels) and v.published_at <= now() and (v.ends_at is null or v.ends_at > now())`,
    );
    expect(visible?.n).toBeGreaterThanOrEqual(60);
    const [countries] = await query<{ n: number }>(
      orm,
      `select count(distinct country_code)::int as n from locations l join tenants t on t.id = l.tenant_id where t.slug = 'acme'`,
    );
    expect(countries?.n).toBeGreaterThanOrEqual(4);
    const types = await query<{ type: string }>(orm, 'select distinct type from articles order by type');
    expect(types.map((t) => t.type)).toEqual(['blog_post', 'company_update', 'event', 'news']);
    expect(await query(orm, `select scopes from api_keys where key_hash = '${hashApiKey(DEMO_API_KEY)}'`)).toEqual([
      {
        scopes: [
          'vacancies:read',
          'vacancies:write',
          'applications:write',
          'candidates:read',
          'candidates:write',
          'candidates:delete',
          'team:read',
          'locations:read',
          'articles:read',
        ],
      },
    ]);
    expect(
      await query(orm, `select count(*)::int as n from api_keys where key_hash = '${hashApiKey(DEMO_GLOBEX_API_KEY)}'`),
    ).toEqual([{ n: 1 }]);
    const [admin] = await query<{ password_hash: string }>(
      orm,
      `select password_hash from users where email = '${DEMO_ADMIN.email}'`,
    );
    expect(await verifyPassword(admin?.password_hash ?? '', DEMO_ADMIN.password)).toBe(true);
    expect(JSON.stringify(await dump(orm))).not.toContain(DEMO_API_KEY);

    const first = await dump(orm);
    await importTenantDocument({ em: orm.em }, buildDemoDocument());
    expect(await dump(orm)).toEqual(first);
  });

  it('builds the same demo document every time', () => {
    expect(JSON.stringify(buildDemoDocument())).toBe(JSON.stringify(buildDemoDocument()));
    expect(JSON.stringify(buildLargeDocument({ vacancies: 50, seed: 3 }))).toBe(
      JSON.stringify(buildLargeDocument({ vacancies: 50, seed: 3 })),
    );
  });

  it('imports a generated document of 2 000 vacancies next to the demo tenants', async () => {
    const orm = await freshOrm();
    await importTenantDocument({ em: orm.em }, buildDemoDocument());
    const started = performance.now();
    const summary = await importTenantDocument({ em: orm.em }, buildLargeDocument({ vacancies: 2_000, seed: 7 }));
    const elapsed = performance.now() - started;
    expect(summary.totals).toMatchObject({ vacancies: 2_000, locations: 200, departments: 30, tags: 60 });
    expect(
      await query(
        orm,
        `select count(*)::int as n from vacancies v join tenants t on t.id = v.tenant_id where t.slug = 'bench'`,
      ),
    ).toEqual([{ n: 2_000 }]);
    const [pivots] = await query<{ n: number }>(
      orm,
      `select count(*)::int as n from vacancy_tags where vacancy_id >= 1000000`,
    );
    expect(pivots?.n).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(30_000);
  });
});

describe('pgTextArrayLiteral', () => {
  it('quotes every element', async () => {
    expect(pgTextArrayLiteral([])).toBe('{}');
    const values = ['a', 'b c', 'd"e', 'f\\g', 'NULL', '{x}', ',', ''];
    expect(pgTextArrayLiteral(['a', 'd"e'])).toBe('{"a","d\\"e"}');
    const orm = await freshOrm();
    const { rows } = await sql<{ a: string[] }>`select ${pgTextArrayLiteral(values)}::text[] as a`.execute(
      kyselyOf(orm.em.fork()),
    );
    expect(rows[0]?.a).toEqual(values);
  });
});
