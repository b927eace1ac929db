import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '@careers/core/testing';
import { fetchChecked, startTestApi, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';

/**
 * Property-based fuzzing of every operation of the OpenAPI document. Inputs are generated from the document's
 * parameter and body schemas (valid ones, filled with real ids of the tenant) and then mutated (wrong types,
 * boundaries, unknown and repeated parameters, huge and unicode strings, SQL and HTML fragments, bad base64,
 * garbage bodies). Every answer goes through the test helper, which fails on anything the document does not
 * describe; on top of that: never a 5xx, valid input gets its success status, nothing of a second tenant
 * leaks, and the rate-limit counters hold.
 *
 * `pnpm test` runs RUNS=200 cases per operation with a fixed seed; `pnpm fuzz` reads FUZZ_RUNS (default 2000)
 * and FUZZ_SEED (default random) and prints the seed to replay a run.
 */

type TJson = Record<string, any>;

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.FUZZ_RUNS
    ? (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0
    : 7_202_605;
const FC = { numRuns: RUNS, seed: SEED, endOnFailure: false, maxSkipsPerRun: 10 };
/** Per property: generous for `pnpm fuzz` budgets (about 10 ms a case; shrinking a failure takes more). */
const TIMEOUT = Math.max(60_000, RUNS * 100);
console.log(
  `[fuzz] seed ${SEED}, ${RUNS} cases per operation — replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} pnpm fuzz`,
);

const ALL_SCOPES = [
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
  'candidates:delete',
  'team:read',
  'locations:read',
  'articles:read',
];
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
const ahead = (days: number) => new Date(NOW + days * 86_400_000).toISOString();

/** Keys per rate-limited operation, so that the fuzz cases stay under each key's limit. */
const RATE_LIMITED = {
  '/applications': { limit: 10, keys: Math.ceil(RUNS / 6) + 4 },
  '/candidates': { limit: 10, keys: Math.ceil(RUNS / 6) + 4 },
  '/vacancies/{slug}/canonical-url': { limit: 60, keys: Math.ceil(RUNS / 40) + 2 },
} as const;
type TLimitedPath = keyof typeof RATE_LIMITED;

// ---- Two tenants with disjoint ids and slugs ----

type TTenantData = {
  slug: string;
  marker: string;
  readKey: string;
  limitedKeys: Record<TLimitedPath, string[]>;
  ids: {
    users: number[];
    locations: number[];
    companyLocations: number[];
    departments: number[];
    jobTypes: number[];
    experienceLevels: number[];
    educationLevels: number[];
    tags: number[];
    vacancies: number[];
    visibleVacancies: number[];
    openVacancies: number[];
    closedVacancies: number[];
    team: number[];
    employed: number[];
    articles: number[];
    candidates: number[];
  };
  slugs: {
    locations: string[];
    vacancies: string[];
    visibleVacancies: string[];
    openVacancies: string[];
    closedVacancies: string[];
    articles: string[];
    visibleArticles: string[];
  };
  domains: string[];
  document: TJson;
  processingId?: string;
};

/** A tenant whose ids start at `base` and whose names carry `marker` (so a leak is visible in any text). */
function tenantData(slug: string, base: number, keyBase: number, marker: string): TTenantData {
  const id = (offset: number) => base + offset;
  const key = (name: string, index: number) => `ck_test_fuzz_${slug}_${name}_${String(index).padStart(4, '0')}`;
  const limitedKeys = {
    '/applications': Array.from({ length: RATE_LIMITED['/applications'].keys }, (_, i) => key('app', i)),
    '/candidates': Array.from({ length: RATE_LIMITED['/candidates'].keys }, (_, i) => key('cand', i)),
    '/vacancies/{slug}/canonical-url': Array.from(
      { length: RATE_LIMITED['/vacancies/{slug}/canonical-url'].keys },
      (_, i) => key('url', i),
    ),
  };
  const readKey = key('read', 0);
  let keyId = keyBase;
  const apiKeys = [
    { id: keyId++, name: 'read', key: readKey, scopes: ALL_SCOPES },
    ...limitedKeys['/applications'].map((k) => ({
      id: keyId++,
      name: 'applications',
      key: k,
      scopes: ['applications:write'],
    })),
    ...limitedKeys['/candidates'].map((k) => ({
      id: keyId++,
      name: 'candidates',
      key: k,
      scopes: ['candidates:write', 'candidates:read'],
    })),
    ...limitedKeys['/vacancies/{slug}/canonical-url'].map((k) => ({
      id: keyId++,
      name: 'canonical',
      key: k,
      scopes: ['vacancies:write'],
    })),
  ];
  const M = marker;
  const vacancy = (offset: number, name: string, fields: TJson) => ({
    id: id(offset),
    slug: `${slug}-${name}`,
    title: `${M} ${name} engineer`,
    summary: `<p>${M} summary of ${name}</p>`,
    description: `<p>${M} description</p>`,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    accepts_applications: true,
    published_at: ago(5),
    created_at: ago(6),
    location_id: id(10),
    department_id: id(30),
    company_location_id: id(21),
    job_type_ids: [id(40)],
    experience_level_ids: [id(50)],
    education_level_ids: [id(60)],
    tag_ids: [id(71)],
    compensation: { min: 3000, max: 4000.5, currency: 'EUR', period: 'month' },
    header_image: {
      default: `https://img.${slug}.example/h.png`,
      small: null,
      large: `https://img.${slug}.example/l.png`,
    },
    ...fields,
  });
  const vacancies = [
    vacancy(100, 'backend', {}),
    vacancy(101, 'frontend', {
      language: 'nl',
      location_id: id(11),
      tag_ids: [id(70), id(72)],
      job_type_ids: [id(40), id(41)],
      compensation: null,
    }),
    vacancy(102, 'closed', {
      accepts_applications: false,
      location_id: null,
      department_id: null,
      company_location_id: null,
      header_image: null,
    }),
    vacancy(103, 'draft', { status: 'draft' }),
    vacancy(104, 'ended', { ends_at: ago(1) }),
    vacancy(105, 'website-only', { channels: ['website'] }),
    vacancy(106, 'future', { published_at: ahead(3) }),
    vacancy(107, 'zurich-ops', {
      title: `${M} Zürich ÖPS — ünïcode`,
      language: 'de',
      location_id: id(12),
      ends_at: ahead(30),
    }),
  ];
  const article = (offset: number, name: string, fields: TJson) => ({
    id: id(offset),
    slug: `${slug}-${name}`,
    type: 'news',
    status: 'published',
    is_featured: false,
    published_at: ago(2),
    tag_ids: [id(70)],
    featured_image: null,
    translations: {
      en: {
        title: `${M} ${name}`,
        excerpt: `${M} excerpt`,
        body_html: `<p>${M} body <script>x()</script> text</p>`,
        seo: { title: `${M} seo`, description: null },
      },
      nl: { title: `${M} ${name} nl`, excerpt: null, body_html: `<p>${M} tekst</p>` },
    },
    ...fields,
  });
  const articles = [
    article(300, 'news', {}),
    article(301, 'event', {
      type: 'event',
      is_featured: true,
      featured_image: { default: `https://img.${slug}.example/a.png`, small: null, large: null },
    }),
    article(302, 'draft', { status: 'draft' }),
    article(303, 'expired', { expires_at: ago(1) }),
    article(304, 'blog', {
      type: 'blog_post',
      translations: { de: { title: `${M} Blog`, excerpt: null, body_html: '<p>Grüße</p>' } },
    }),
  ];
  const team = [
    {
      id: id(200),
      given_name: `${M}Ann`,
      family_name: 'Zed',
      email: `ann@${slug}.example`,
      job_title: 'Recruiter',
      phone: '+31201234567',
      role: { name: 'hr_manager', label: { en: `${M} HR`, nl: 'HR' } },
      avatar: { small: `https://img.${slug}.example/s.png`, medium: null, large: null },
    },
    { id: id(201), given_name: `${M}Bob`, family_name: 'Young', email: `bob@${slug}.example`, job_title: null },
    { id: id(202), given_name: `${M}Cy`, family_name: 'Gone', email: `cy@${slug}.example`, employed: false },
    { id: id(203), given_name: `${M}Dee`, family_name: 'Émile', email: `dee@${slug}.example`, job_title: 'Engineer' },
  ];
  const candidates = [
    {
      id: id(400),
      slug: `${slug}-cand-1`,
      user_id: id(1),
      first_name: `${M}Eve`,
      last_name: 'One',
      email: `eve@${slug}.example`,
      status: 'potential',
    },
    {
      id: id(401),
      slug: `${slug}-cand-2`,
      user_id: id(1),
      first_name: `${M}Fay`,
      last_name: 'Two',
      email: null,
      status: 'employee',
    },
    {
      id: id(402),
      slug: `${slug}-cand-3`,
      user_id: id(2),
      first_name: `${M}Gus`,
      last_name: 'Three',
      email: `gus@${slug}.example`,
      status: 'do_not_contact',
    },
  ];
  const domains = [`${slug}.example`, `jobs.${slug}.example`];
  const document = {
    slug,
    name: `${M} ${slug}`,
    default_language: 'en',
    career_site: {
      domain: `careers.${slug}.example`,
      url_pattern: `https://careers.${slug}.example/jobs/{slug}?id={id}`,
    },
    domains,
    api_keys: apiKeys,
    users: [
      { id: id(1), name: `${M} User`, email: `user@${slug}.example`, role: 'recruiter', password: null },
      { id: id(2), name: `${M} Other`, email: `other@${slug}.example`, role: 'admin', password: null },
    ],
    locations: [
      {
        id: id(10),
        slug: `${slug}-amsterdam`,
        name: `${M} Amsterdam`,
        address_line_1: 'Keizersgracht 1',
        locality: 'Amsterdam',
        postal_code: '1015 AA',
        country_code: 'NL',
        latitude: 52.37,
        longitude: 4.9,
        created_at: ago(30),
      },
      {
        id: id(11),
        slug: `${slug}-berlin`,
        name: `${M} Berlin`,
        locality: 'Berlin',
        country_code: 'de',
        created_at: ago(20),
      },
      {
        id: id(12),
        slug: `${slug}-zurich`,
        name: `${M} Zürich`,
        locality: 'Zürich',
        country_code: 'CH',
        latitude: 47.37,
        longitude: 8.54,
        created_at: ago(10),
      },
    ],
    companies: [
      {
        id: id(20),
        name: `${M} Client`,
        locations: [{ id: id(21), name: `${M} Client Utrecht`, city: 'Utrecht', country_code: 'NL' }],
      },
    ],
    departments: [
      { id: id(30), name: { en: `${M} Engineering`, nl: 'Techniek' } },
      { id: id(31), name: `${M} Sales` },
    ],
    job_types: [
      { id: id(40), name: { en: `${M} Full-time`, nl: 'Voltijd' } },
      { id: id(41), name: { en: `${M} Part-time` } },
    ],
    experience_levels: [{ id: id(50), name: { en: `${M} Senior` } }],
    education_levels: [{ id: id(60), name: { en: `${M} Master` } }],
    tags: [
      { id: id(70), name: { en: `${M} Tech` }, parent_id: null },
      { id: id(71), name: { en: `${M} Backend` }, parent_id: id(70) },
      { id: id(72), name: { en: `${M} Remote` }, parent_id: null },
    ],
    vacancies,
    team_members: team,
    articles,
    candidates,
  };
  // Draft, ended, website-only and future vacancies are invisible.
  const invisible = new Set([id(103), id(104), id(105), id(106)]);
  const visible = vacancies.filter((v) => !invisible.has(v.id));
  return {
    slug,
    marker,
    readKey,
    limitedKeys,
    ids: {
      users: [id(1), id(2)],
      locations: [id(10), id(11), id(12)],
      companyLocations: [id(21)],
      departments: [id(30), id(31)],
      jobTypes: [id(40), id(41)],
      experienceLevels: [id(50)],
      educationLevels: [id(60)],
      tags: [id(70), id(71), id(72)],
      vacancies: vacancies.map((v) => v.id),
      visibleVacancies: visible.map((v) => v.id),
      openVacancies: visible.filter((v) => v.accepts_applications).map((v) => v.id),
      closedVacancies: visible.filter((v) => !v.accepts_applications).map((v) => v.id),
      team: team.map((m) => m.id),
      employed: team.filter((m) => m.employed !== false).map((m) => m.id),
      articles: articles.map((a) => a.id),
      candidates: candidates.map((c) => c.id),
    },
    slugs: {
      locations: document.locations.map((l) => l.slug),
      vacancies: vacancies.map((v) => v.slug),
      visibleVacancies: visible.map((v) => v.slug),
      openVacancies: visible.filter((v) => v.accepts_applications).map((v) => v.slug),
      closedVacancies: visible.filter((v) => !v.accepts_applications).map((v) => v.slug),
      articles: articles.map((a) => a.slug),
      visibleArticles: [`${slug}-news`, `${slug}-event`, `${slug}-blog`],
    },
    domains: [`careers.${slug}.example`, ...domains],
    document,
  };
}

const A = tenantData('alpha', 1000, 100_000, 'Alphamark');
const B = tenantData('beta', 5000, 200_000, 'Zqxbeta');
/** Every id of tenant B's records: none may ever appear in an answer to tenant A. */
const B_IDS = new Set(Object.values(B.ids).flat());
const B_SLUGS = [
  ...B.slugs.vacancies,
  ...B.slugs.locations,
  ...B.slugs.articles,
  ...B.document.candidates.map((c: TJson) => c.slug as string),
];

let api: TTestApi;
let document: TJson;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, { tenants: [A.document, B.document] });
  api = await startTestApi(databaseUrl);
  document = (await api.get('/openapi.json')).body as TJson;
  // One resume processing per tenant, so GET /candidates/processing/{id} has real ids of both.
  for (const tenant of [A, B]) {
    const response = await api.post(
      '/candidates',
      {
        user_id: tenant.ids.users[0],
        resume: {
          filename: 'cv.pdf',
          content: Buffer.from('%PDF-1.4 cv').toString('base64'),
          mime_type: 'application/pdf',
        },
      },
      tenant.limitedKeys['/candidates'][0],
    );
    expect(response.status, response.text).toBe(202);
    tenant.processingId = response.body.processing_id as string;
  }
  // Tenant B's data is really there (the isolation checks below are not vacuous).
  expect((await api.get(`/vacancies/${B.slugs.visibleVacancies[0]}`, B.readKey)).status).toBe(200);
  expect((await api.get('/vacancies', B.readKey)).body.meta.total).toBe(B.ids.visibleVacancies.length);
  expect((await api.get('/vacancies', A.readKey)).body.meta.total).toBe(A.ids.visibleVacancies.length);
}, 120_000);
afterAll(async () => api?.close());

// ---- Checks every answer gets ----

/** Walks an answer (without its links, which echo the query) for ids or texts of tenant B. */
function leaks(value: unknown, key = ''): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number')
    return (key === 'id' || key.endsWith('_id') || key.endsWith('_ids')) && B_IDS.has(value)
      ? `${key}=${value}`
      : undefined;
  if (typeof value === 'string') {
    if (value.toLowerCase().includes(B.marker.toLowerCase())) return `${key}: ${value.slice(0, 80)}`;
    return B_SLUGS.includes(value) ? `${key}=${value}` : undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = leaks(item, key);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object') {
    for (const [child, item] of Object.entries(value)) {
      if (child === 'links' || (key === 'meta' && child === 'path')) continue;
      const found = leaks(item, child);
      if (found) return found;
    }
  }
  return undefined;
}

/** What a case is (for the failure message) and the statuses it may answer. */
type TCase = { label: string; expected: number[] };

function assertAnswer(what: string, response: TResponse, testCase: TCase): void {
  const context = `${what} [${testCase.label}] → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  expect(testCase.expected, context).toContain(response.status);
  expect(leaks(response.body), context).toBeUndefined();
}

// ---- Generators from the document's schemas ----

const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE vacancies; --',
  "'); select pg_sleep(5); --",
  '1 UNION SELECT password FROM users',
  "\\'",
  '%_%',
  '%',
  '_',
];
const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  '&lt;b&gt;',
  '<!--',
  ']]>',
];
const UNICODE = [
  'Zürich',
  'İstanbul',
  'ß',
  'ǅ',
  '日本語の求人',
  'مرحبا',
  '\u202eevil',
  '😀🏳️‍🌈',
  'e\u0301',
  '\ud800',
  '\u0000',
  '\ufeff',
  'Ω≈ç√∫',
];
const NUMBERS = [
  '',
  ' ',
  '0',
  '-1',
  '+1',
  '1.5',
  '1e3',
  '0x1F',
  '01',
  '٣',
  'NaN',
  'Infinity',
  '9'.repeat(15),
  '9'.repeat(16),
  '9'.repeat(40),
  '2147483648',
  '-0',
];
const WORDS = [
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '\\',
  '%00',
  '%zz',
];

const garbageText = fc.oneof(
  fc.constantFrom(...SQL, ...HTML, ...UNICODE, ...NUMBERS, ...WORDS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1, max: 10_000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 1, max: 300 }).map((n) => 'ü'.repeat(n)),
);

/** Text a client may put in a free-text filter: words of both tenants' data, unicode, SQL and HTML. */
const searchText = fc.oneof(
  fc.constantFrom(
    'engineer',
    'Alphamark',
    'zürich',
    'ZÜRICH',
    'backend',
    'Tech',
    'Recruiter',
    'nl',
    'a',
    '  padded  ',
    'a\u0000b',
    '\u0000',
    ...SQL,
    ...HTML,
    ...UNICODE,
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** A schema-valid value for one JSON schema node (bounded sizes), in JSON form. */
function fromSchema(schema: TJson, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return fromSchema(resolveRef(schema.$ref as string), depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as TJson[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => fromSchema(branch, depth)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  return fc.oneof(...types.map((type) => fromType(type, schema, depth)));
}

function fromType(type: string, schema: TJson, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1e6, -2_000_000_000),
        max: Math.min(schema.maximum ?? 1e6, 2_000_000_000),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties = (schema.properties ?? {}) as TJson;
      const record = Object.fromEntries(
        Object.entries(properties).map(([name, child]) => [name, fromSchema(child as TJson, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: (schema.required ?? []) as string[] });
    }
    default: {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      if (schema.pattern)
        return fc
          .stringMatching(new RegExp(schema.pattern as string))
          .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
      return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
    }
  }
}

function resolveRef(pointer: string): TJson {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<TJson>((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
}

/** Real ids of tenant A for the id filters, so that filtered lists have data. */
function idPool(name: string, tenant: TTenantData): number[] | undefined {
  const pools: Record<string, number[]> = {
    location_id: tenant.ids.locations,
    department_id: tenant.ids.departments,
    company_location_id: tenant.ids.companyLocations,
    job_types: tenant.ids.jobTypes,
    experience_levels: tenant.ids.experienceLevels,
    education_levels: tenant.ids.educationLevels,
    tags: tenant.ids.tags,
    user_id: tenant.ids.users,
  };
  return pools[name];
}

type TPair = [string, string];

/** A valid query value of one documented parameter (the documented form: `name[]` for arrays). */
function validQueryPairs(parameter: TJson): fc.Arbitrary<TPair[]> {
  const name = String(parameter.name);
  const field = name.replace(/\[\]$/, '');
  const schema = parameter.schema as TJson;
  const ids = idPool(field, A);
  if (ids) {
    const one = fc.constantFrom(...ids).map(String);
    if (schema.type === 'array')
      return fc.uniqueArray(one, { minLength: 1, maxLength: 3 }).map((values) => values.map((v): TPair => [name, v]));
    if (schema.anyOf) {
      return fc.oneof(
        one.map((v): TPair[] => [[name, v]]),
        fc.uniqueArray(one, { minLength: 1, maxLength: 3 }).map((values) => values.map((v): TPair => [`${name}[]`, v])),
        // Repeated keys (`name=1&name=2`); a pool of one id repeats it.
        fc.array(one, { minLength: 2, maxLength: 3 }).map((values) => values.map((v): TPair => [name, v])),
      );
    }
    return one.map((v): TPair[] => [[name, v]]);
  }
  // A change-feed cursor is only valid as handed out: valid queries start from the oldest entry (mutations still try garbage).
  if (field === 'after') return fc.constant([]);
  if (schema.type === 'array' && Array.isArray(schema.items?.enum)) {
    return fc
      .uniqueArray(fc.constantFrom(...(schema.items.enum as string[])), { minLength: 1 })
      .map((values) => values.map((v): TPair => [name, v]));
  }
  let value: fc.Arbitrary<string>;
  if (schema.type === 'boolean') value = fc.constantFrom('true', 'false', '1', '0');
  // sort=relevance and sort=distance are valid only with q and near (vacancies-search and vacancies-near test them).
  else if (field === 'sort' && Array.isArray(schema.enum))
    value = fc.constantFrom(...(schema.enum as string[]).filter((sort) => sort !== 'relevance' && sort !== 'distance'));
  else if (Array.isArray(schema.enum)) value = fc.constantFrom(...(schema.enum as string[]));
  else if (schema.type === 'integer') {
    const max = Math.min(schema.maximum ?? 1000, 1000);
    value = fc
      .oneof(fc.integer({ min: schema.minimum ?? 0, max }), fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? max))
      .map(String);
  } else if (schema.pattern === '^[A-Za-z]{2}$') value = fc.constantFrom('en', 'nl', 'de', 'EN', 'Nl', 'fr', 'zz');
  else if (field === 'near') {
    // Coordinates in range (the operation's pattern); anything else is a mutation.
    value = fc
      .tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }))
      .map(([lat, lng]) => `${lat.toFixed(4)},${lng.toFixed(4)}`);
  } else if (field === 'email')
    value = fc.constantFrom(`eve@${A.slug}.example`, `EVE@${A.slug.toUpperCase()}.EXAMPLE`, 'nobody@example.org', ' ');
  else value = searchText.filter((text) => text.length <= (schema.maxLength ?? 255));
  return value.map((v): TPair[] => [[name, v]]);
}

/** Valid query strings of a GET operation: each optional parameter present or not, required ones always. */
function validQuery(operation: TJson): fc.Arbitrary<TPair[]> {
  const parameters = ((operation.parameters ?? []) as TJson[]).filter((parameter) => parameter.in === 'query');
  const parts = parameters.map((parameter) =>
    parameter.required
      ? validQueryPairs(parameter)
      : fc.option(validQueryPairs(parameter), { nil: undefined, freq: 2 }).map((pairs) => pairs ?? []),
  );
  return (parts.length ? fc.tuple(...parts) : fc.constant([] as TPair[][])).chain((groups) =>
    fc.shuffledSubarray(groups.flat(), { minLength: groups.flat().length }),
  );
}

/** One mutation of a query string. */
function mutateQuery(operation: TJson, pairs: TPair[]): fc.Arbitrary<TPair[]> {
  const names = ((operation.parameters ?? []) as TJson[]).filter((p) => p.in === 'query').map((p) => String(p.name));
  const known = names.length ? fc.constantFrom(...names) : fc.constant('page');
  const bIds = fc
    .constantFrom(
      ...B.ids.locations,
      ...B.ids.tags,
      ...B.ids.departments,
      ...B.ids.jobTypes,
      ...B.ids.users,
      ...B.ids.companyLocations,
    )
    .map(String);
  return fc.oneof(
    // A known parameter with a garbage, boundary, or other tenant's value.
    fc
      .tuple(
        known,
        fc.oneof(
          garbageText,
          bIds,
          fc.constantFrom('0', '1', '100', '101', '-1', '1000000', '1000001', '999999999999999', '1000000000000000'),
        ),
      )
      .map(([name, value]): TPair[] => [...pairs, [name, value]]),
    // The same parameter twice, or with and without [].
    fc.tuple(known, garbageText).map(([name, value]): TPair[] => [...pairs, [name, value], [name, value]]),
    known.map((name): TPair[] => [...pairs, [name.endsWith('[]') ? name.slice(0, -2) : `${name}[]`, '1']]),
    // Unknown parameters are ignored.
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), garbageText)
      .map(([name, value]): TPair[] => [...pairs, [name, value]]),
    fc.constant([...pairs, ['per_page', '0'], ['page', '0']] as TPair[]),
    fc
      .constantFrom(
        ['page', '-1'],
        ['page', '99999999999999999999'],
        ['per_page', '101'],
        ['per_page', '100'],
        ['per_page', '1'],
        ['page', '1000000'],
      )
      .map((pair): TPair[] => [...pairs, pair as TPair]),
  );
}

/** Percent-encoded like a browser's URLSearchParams (lone surrogates become U+FFFD). */
const encode = (text: string) => encodeURIComponent(text.toWellFormed());
const queryString = (pairs: TPair[]) =>
  pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';

// ---- Path parameters ----

type TPathValue = { value: string; found: boolean };

/** `.` and `..` segments (also as %2e) are resolved by the client's URL parser: they never reach the API as a value. */
const isDotSegment = (segment: string) => /^(\.|%2e){1,2}$/i.test(segment);
const encodedGarbage = fc
  .oneof(
    garbageText.filter((text) => text.length > 0 && text.length <= 2000).map(encode),
    fc.constantFrom('%zz', '%E0%A4%A', '%', '%2F', '%00', 'a%20b', '~', '-', '_', '...'),
    fc.integer({ min: 1000, max: 10_000 }).map((n) => 'x'.repeat(n)),
  )
  .filter((segment) => !isDotSegment(segment));

function pathValues(path: string, name: string): fc.Arbitrary<TPathValue> {
  const found = (values: Array<string | number>) =>
    fc.constantFrom(...values).map((value) => ({ value: encode(String(value)), found: true }));
  const missing = (values: Array<string | number>) =>
    fc.constantFrom(...values).map((value) => ({ value: encode(String(value)), found: false }));
  const garbage = encodedGarbage.map((value) => ({ value, found: false }));
  const digits = fc
    .oneof(
      fc.integer({ min: 0, max: 2_147_483_647 }).map(String),
      fc.constantFrom('9'.repeat(15), '9'.repeat(16), '2147483648', '0', '00', '-1', '1.0'),
    )
    .map((value) => ({ value, found: false }));
  const visibleArticles = A.slugs.visibleArticles;
  switch (`${path} ${name}`) {
    case '/vacancies/{slug} slug':
    case '/vacancies/{slug}/canonical-url slug':
    case '/vacancies/{slug}/application-form slug':
      return fc.oneof(
        found(A.slugs.visibleVacancies),
        missing(A.slugs.vacancies.filter((s) => !A.slugs.visibleVacancies.includes(s))),
        missing(B.slugs.vacancies),
        garbage,
      );
    case '/locations/{slug} slug':
      return fc.oneof(found(A.slugs.locations), missing(B.slugs.locations), garbage);
    case '/articles/{slug} slug':
      return fc.oneof(
        found(visibleArticles),
        missing(A.slugs.articles.filter((s) => !visibleArticles.includes(s))),
        missing(B.slugs.articles),
        garbage,
      );
    case '/team/{id} id':
      return fc.oneof(
        found(A.ids.employed),
        missing(A.ids.team.filter((id) => !A.ids.employed.includes(id))),
        missing(B.ids.team),
        digits,
        garbage,
      );
    case '/candidates/{id} id':
    case '/candidates/{id}/export id':
      return fc.oneof(found(A.ids.candidates), missing(B.ids.candidates), digits, garbage);
    case '/candidates/processing/{processing_id} processing_id':
      return fc.oneof(
        found([A.processingId!]),
        missing([B.processingId!]),
        fc.uuid().map((value) => ({ value, found: false })),
        digits,
        garbage,
      );
    default:
      throw new Error(`no generator for the path parameter ${name} of ${path}`);
  }
}

// ---- Bodies ----

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const fileContent = fc.uint8Array({ minLength: 1, maxLength: 64 }).map(b64);
const badBase64 = fc.constantFrom(
  '@@@@',
  'YQ',
  'YQ=',
  'YQ===',
  'Y Q==',
  'YQ==\n',
  'YWJj-_==',
  '====',
  'YWJjZA=a',
  ' ',
  'data:application/pdf;base64,YWJj',
  '\u00e9\u00e9\u00e9\u00e9',
);
const safeText = (max: number) =>
  fc
    .oneof(
      fc.constantFrom('Ada', 'Ünïcödé', '日本', "O'Brien", 'Jean-Luc', 'a'.repeat(max), ...HTML.slice(0, 2), SQL[1]!),
      fc.string({ minLength: 1, maxLength: 20 }),
    )
    .filter((s) => s.trim().length > 0 && s.trim().length <= max);
const emailAddress = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z]{1,10}$/))
  .map(([local, domain]) => `${local}.${randomUUID().slice(0, 8)}@${domain}.example.org`);
const document64 = fc.record({
  filename: safeText(255),
  content: fileContent,
  mime_type: fc.constantFrom('application/pdf', 'text/plain', 'image/png', 'application/msword; charset=x'),
});

function validApplication(): fc.Arbitrary<{ body: TJson; expected: number[]; label: string }> {
  const vacancy = fc.oneof(
    fc
      .constantFrom(...A.slugs.openVacancies)
      .map((v) => ({ v: v as string | number, expected: [201], label: 'open slug' })),
    fc
      .constantFrom(...A.ids.openVacancies)
      .map((v) => ({ v: v as string | number, expected: [201], label: 'open id' })),
    fc
      .constantFrom(...A.ids.openVacancies)
      .map((v) => ({ v: String(v) as string | number, expected: [201], label: 'open id as digits' })),
    fc
      .constantFrom(...A.slugs.closedVacancies, ...A.ids.closedVacancies)
      .map((v) => ({ v: v as string | number, expected: [400], label: 'closed' })),
    fc
      .constantFrom(
        ...B.slugs.vacancies,
        ...B.ids.vacancies,
        ...A.slugs.vacancies.filter((s) => !A.slugs.visibleVacancies.includes(s)),
      )
      .map((v) => ({ v: v as string | number, expected: [404], label: 'invisible or other tenant' })),
  );
  const candidate = fc.record(
    {
      given_name: safeText(255),
      family_name: safeText(255),
      email: emailAddress,
      linkedin_url: fc.oneof(
        fc.constant(null),
        fc.constant(''),
        fc.webUrl({ validSchemes: ['https', 'http'] }).filter((u) => u.length <= 2048 && /^https?:\/\/[^\s]+$/.test(u)),
      ),
      mobile_phone: fc.oneof(fc.constant(null), fc.constantFrom('+31 6 1234 5678', '0612345678', '')),
      fixed_phone: fc.oneof(fc.constant(null), safeText(64)),
    },
    { requiredKeys: ['given_name', 'family_name', 'email'] },
  );
  const documents = fc.record(
    {
      resume: fc.oneof(document64, fc.constant(null)),
      cover_letter: document64,
      additional: fc.array(document64, { maxLength: 5 }),
    },
    { requiredKeys: [] },
  );
  const tracking = fc.record(
    {
      ip_address: fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant('')),
      user_agent: safeText(1024),
      referrer: fc.oneof(fc.constant(null), fc.constant('https://www.example.org/jobs?q=1')),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({
      vacancy,
      candidate,
      documents: fc.option(documents, { nil: undefined }),
      privacy_policy_accepted: fc.option(fc.boolean(), { nil: undefined }),
      tracking: fc.option(tracking, { nil: undefined }),
    })
    .map(({ vacancy: v, candidate: c, documents: d, privacy_policy_accepted: p, tracking: t }) => ({
      body: JSON.parse(
        JSON.stringify({ vacancy: v.v, candidate: c, documents: d, privacy_policy_accepted: p, tracking: t }),
      ) as TJson,
      expected: v.expected,
      label: `valid application (${v.label})`,
    }));
}

type TBodyCase = { body: TJson; expected: number[]; label: string };

function validCandidate(): fc.Arbitrary<TBodyCase> {
  return fc
    .record(
      {
        user_id: fc.constantFrom(...A.ids.users),
        resume: fc.record({
          filename: fc.string({ minLength: 1, maxLength: 255 }),
          content: fileContent,
          mime_type: fc.constantFrom(
            'application/pdf',
            'application/msword',
            'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            'APPLICATION/PDF',
            ' application/pdf ',
          ),
        }),
        create_intake: fc.boolean(),
      },
      { requiredKeys: ['user_id', 'resume'] },
    )
    .chain(
      (body): fc.Arbitrary<TBodyCase> =>
        fc.oneof(
          { weight: 5, arbitrary: fc.constant<TBodyCase>({ body, expected: [202], label: 'valid resume' }) },
          // Another tenant's user is no user of this tenant.
          {
            weight: 1,
            arbitrary: fc.constantFrom(...B.ids.users).map(
              (userId): TBodyCase => ({
                body: { ...body, user_id: userId },
                expected: [422],
                label: "other tenant's user",
              }),
            ),
          },
        ),
    );
}

function validCanonicalUrl(): fc.Arbitrary<{ body: TJson; expected: number[]; label: string }> {
  const pathPart = fc.oneof(
    fc.webPath(),
    fc.constantFrom('/vacatures/zürich', '/jobs/a?b=c#d', '/', '/%E2%82%AC', '/' + 'p'.repeat(1900)),
  );
  return fc
    .tuple(fc.constantFrom(...A.domains), fc.constantFrom('', ':443'), pathPart, fc.boolean())
    .map(([host, port, path, upper]) => `https://${upper ? host.toUpperCase() : host}${port}${path}`)
    .filter((url) => url.length <= 2048 && URL.canParse(url) && !/\s/.test(url))
    .map((url) => ({ body: { url }, expected: [200], label: 'valid url' }));
}

const hostileUrl = fc.oneof(
  fc.constantFrom(...B.domains).map((host) => `https://${host}/jobs/1`),
  fc.constantFrom(
    `http://careers.${A.slug}.example/x`,
    `https://careers.${A.slug}.example.evil.org/x`,
    `https://user:pw@careers.${A.slug}.example/x`,
    `javascript:alert(1)`,
    `https://careers.${A.slug}.example/${'x'.repeat(2049)}`,
    'https://',
    '//careers.alpha.example/x',
    `https://careers.${A.slug}.example/a b`,
  ),
  garbageText,
);

/** Replaces one node of a JSON value (chosen by the generated path) with a generated value. */
function mutateAt(value: unknown, path: number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const index = (head ?? 0) % value.length;
    return value.map((item, i) => (i === index ? mutateAt(item, rest, replacement) : item));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[(head ?? 0) % keys.length]!;
  return { ...(value as TJson), [key]: mutateAt((value as TJson)[key], rest, replacement) };
}

const jsonGarbage: fc.Arbitrary<unknown> = fc.oneof(
  garbageText,
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53,
    -(2 ** 63),
    1e308,
    [],
    {},
    [[[]]],
    { a: { b: { c: {} } } },
    ['x', 1, null],
  ),
  fc.jsonValue({ maxDepth: 3 }),
  badBase64,
);

type TRawBody = { text: string; label: string };

/** Mutations of a body: a node replaced by garbage, keys dropped or added, non-object or malformed JSON. */
function mutateBody(body: TJson): fc.Arbitrary<TRawBody> {
  const keys = Object.keys(body);
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.tuple(fc.array(fc.nat(20), { minLength: 1, maxLength: 4 }), jsonGarbage).map(([path, garbage]) => ({
        text: JSON.stringify(mutateAt(body, path, garbage)),
        label: `node ${path.join('.')} replaced`,
      })),
    },
    {
      weight: 2,
      arbitrary: fc.subarray(keys).map((kept) => ({
        text: JSON.stringify(Object.fromEntries(kept.map((k) => [k, body[k]]))),
        label: 'keys dropped',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.string({ maxLength: 10 }), jsonGarbage, { maxKeys: 4 })
        .map((extra) => ({ text: JSON.stringify({ ...extra, ...body }), label: 'unknown keys' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
          fc.constant([body]),
        )
        .map((value) => ({ text: JSON.stringify(value) ?? 'null', label: 'not an object' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":}',
          "{'a':1}",
          '{"a":1}}',
          'undefined',
          '\u0000',
          '[1,]',
          '{"a":NaN}',
          `{"vacancy":"${'\\u'}"}`,
        )
        .map((text) => ({ text, label: 'malformed JSON' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', ' ', '{}', '1e309', '"x"')
        .map((text) => ({ text, label: 'empty or scalar body' })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 3000 }).map((depth) => ({
        text: JSON.stringify({ ...body, nested: JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) }),
        label: `nested ${depth}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        text: JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, [v]]))),
        label: 'arrays for scalars',
      }),
    },
  );
}

// ---- Rate-limit bookkeeping ----

type TLimitRecord = { at: number; status: number; limit: number; remaining: number };
const limitRecords = new Map<string, TLimitRecord[]>();

function keyRing(path: TLimitedPath): () => string {
  let next = 0;
  // The last key is kept for the one-key checks below.
  const keys = A.limitedKeys[path].slice(0, -1);
  return () => keys[next++ % keys.length]!;
}

function recordLimit(key: string, at: number, response: TResponse): void {
  const limit = response.headers.get('x-ratelimit-limit');
  const remaining = response.headers.get('x-ratelimit-remaining');
  if (limit === null || remaining === null) return;
  const list = limitRecords.get(key) ?? [];
  list.push({ at, status: response.status, limit: Number(limit), remaining: Number(remaining) });
  limitRecords.set(key, list);
}

/** Per key: remaining never negative, and never more than `limit` answers under the limit in one 60 s window. */
function assertRateLimitInvariants(path: TLimitedPath): void {
  const { limit } = RATE_LIMITED[path];
  for (const key of A.limitedKeys[path]) {
    const records = limitRecords.get(key) ?? [];
    for (const record of records) {
      expect(record.limit, key).toBe(limit);
      expect(record.remaining, key).toBeGreaterThanOrEqual(0);
      expect(record.remaining, key).toBeLessThan(limit);
    }
    const first = records[0];
    if (!first) continue;
    const inFirstWindow = records.filter((record) => record.at - first.at < 55_000);
    expect(inFirstWindow.filter((record) => record.status !== 429).length, key).toBeLessThanOrEqual(limit);
  }
}

// ---- The properties ----

const operationsOf = () =>
  Object.entries(document.paths as TJson).flatMap(([path, item]) =>
    Object.entries(item as TJson)
      .filter(([method]) => ['get', 'post'].includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as TJson })),
  );

/** Expected statuses of a GET: valid parameters answer 200 (404 for an identifier that names nothing). */
function getExpectation(path: string, found: boolean, mutated: boolean): number[] {
  const success = found ? [200] : [404];
  if (!mutated) return success;
  return path.includes('{') ? [200, 404, 422] : [200, 422];
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers every operation the document lists', () => {
    const covered = new Set([...GET_OPERATIONS, ...POST_OPERATIONS, ...DELETE_OPERATIONS]);
    for (const { path, method } of operationsOf()) expect(covered, `${method} ${path}`).toContain(`${method} ${path}`);
  });

  const GET_OPERATIONS = [
    'get /health',
    'get /me',
    'get /vacancies',
    'get /vacancies/facets',
    'get /vacancies/suggest',
    'get /vacancies/{slug}',
    'get /vacancies/{slug}/application-form',
    'get /locations',
    'get /locations/{slug}',
    'get /team',
    'get /team/{id}',
    'get /articles',
    'get /articles/{slug}',
    'get /candidates',
    'get /candidates/{id}',
    'get /candidates/{id}/export',
    'get /candidates/processing/{processing_id}',
    'get /changes',
    'get /openapi.json',
    'get /docs',
    'get /livez',
    'get /readyz',
  ];
  const POST_OPERATIONS = ['post /vacancies/{slug}/canonical-url', 'post /applications', 'post /candidates'];
  const DELETE_OPERATIONS = ['delete /candidates/{id}'];

  // Erasure: only ids that name nothing of the key's tenant (the other operations' fixtures stay), with and without keys.
  it(
    "delete /candidates/{id}: documented answers, no 5xx, another tenant's candidate untouched",
    async () => {
      const ids = fc.oneof(
        fc.constantFrom(...B.ids.candidates).map((id) => encode(String(id))),
        fc.constantFrom('9'.repeat(15), '9'.repeat(16), '2147483648', '0', '00', '-1', '1.0', 'abc'),
        encodedGarbage,
      );
      await fc.assert(
        fc.asyncProperty(
          ids,
          fc.constantFrom<string | undefined>(undefined, A.readKey, 'ck_test_nope_0000000000000000'),
          async (id, apiKey) => {
            const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
            const response = await fetchChecked(`${api.baseUrl}/candidates/${id}`, { method: 'DELETE', headers });
            assertAnswer(`DELETE /candidates/${id.slice(0, 80)}`, response, {
              label: 'missing',
              expected: apiKey === A.readKey ? [404] : [401, 404],
            });
          },
        ),
        FC,
      );
      for (const id of B.ids.candidates)
        expect(
          (await fetchChecked(`${api.baseUrl}/candidates/${id}`, { headers: { authorization: `Bearer ${B.readKey}` } }))
            .status,
        ).toBe(200);
    },
    TIMEOUT,
  );

  for (const key of GET_OPERATIONS) {
    const path = key.slice(4);
    it(
      `${key}: documented answers, no 5xx, no leak`,
      async () => {
        const operation = document.paths[path].get as TJson;
        // A path item with its own server lives at the root of the host, everything else under /v1.
        const root = document.paths[path].servers ? api.baseUrl.replace(/\/v1$/, '') : api.baseUrl;
        const pathParameters = ((operation.parameters ?? []) as TJson[]).filter((parameter) => parameter.in === 'path');
        const pathArb = pathParameters.length
          ? fc.tuple(...pathParameters.map((parameter) => pathValues(path, String(parameter.name)))).map((values) => {
              let concrete = path;
              pathParameters.forEach((parameter, index) => {
                concrete = concrete.replace(`{${parameter.name}}`, values[index]!.value);
              });
              return { concrete, found: values.every((value) => value.found) };
            })
          : fc.constant({ concrete: path, found: true });
        const queryArb = validQuery(operation).chain((pairs) =>
          fc.oneof(
            fc.constant({ pairs, mutated: false }),
            mutateQuery(operation, pairs).map((mutatedPairs) => ({ pairs: mutatedPairs, mutated: true })),
          ),
        );
        const conditional = fc.option(fc.constantFrom('*', 'W/"nope"', '"x", W/"y"', ''), { nil: undefined, freq: 6 });
        const keyArb = operation.security?.length
          ? fc.constantFrom(A.readKey)
          : fc.constantFrom<string | undefined>(undefined, A.readKey);
        await fc.assert(
          // Request line and headers stay under Node's 16 KiB limit (beyond it the HTTP layer answers 431).
          fc.asyncProperty(
            fc
              .tuple(pathArb, queryArb)
              .filter(([target, query]) => target.concrete.length + queryString(query.pairs).length < 12_000),
            conditional,
            keyArb,
            async ([target, query], ifNoneMatch, apiKey) => {
              // An identifier that names nothing is 404 before some query errors are seen, and after others: both are documented.
              const headers: Record<string, string> = ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch };
              if (apiKey) headers.authorization = `Bearer ${apiKey}`;
              const response = await fetchChecked(`${root}${target.concrete}${queryString(query.pairs)}`, { headers });
              const expected = getExpectation(path, target.found, query.mutated || !target.found);
              if (ifNoneMatch === '*') expected.push(304);
              if (path === '/docs') expected.push(200);
              assertAnswer(`GET ${target.concrete}${queryString(query.pairs).slice(0, 200)}`, response, {
                label: query.mutated ? 'mutated' : 'valid',
                expected,
              });
            },
          ),
          FC,
        );
      },
      TIMEOUT,
    );
  }

  const bodyCases: Record<TLimitedPath, () => fc.Arbitrary<{ body: TJson; expected: number[]; label: string }>> = {
    '/applications': validApplication,
    '/candidates': validCandidate,
    '/vacancies/{slug}/canonical-url': validCanonicalUrl,
  };

  for (const key of POST_OPERATIONS) {
    const path = key.slice(5) as TLimitedPath;
    it(
      `${key}: documented answers, no 5xx, no leak, rate limits hold`,
      async () => {
        const operation = document.paths[path].post as TJson;
        const bodySchema = operation.requestBody.content['application/json'].schema as TJson;
        const nextKey = keyRing(path);
        const hasSlug = path.includes('{slug}');
        const slugArb = hasSlug ? pathValues(path, 'slug') : fc.constant({ value: '', found: true });
        // Valid bodies (hand-made for the business rules), bodies that merely fit the schema, and mutations of both.
        const valid = bodyCases[path]().map((c) => ({
          text: JSON.stringify(c.body),
          expected: c.expected,
          label: c.label,
          mutated: false,
        }));
        const shaped = fromSchema(bodySchema).map((body) => ({
          text: JSON.stringify(body),
          expected: [] as number[],
          label: 'schema-shaped',
          mutated: true,
        }));
        const mutated = fc
          .oneof(
            bodyCases[path]().map((c) => c.body),
            fromSchema(bodySchema) as fc.Arbitrary<TJson>,
          )
          .chain((body) => mutateBody(typeof body === 'object' && body !== null ? body : {}))
          .map((raw) => ({ ...raw, expected: [] as number[], mutated: true }));
        const badFile =
          path === '/vacancies/{slug}/canonical-url'
            ? undefined
            : fc.tuple(bodyCases[path](), badBase64).map(([c, content]) => {
                const body = structuredClone(c.body);
                if (path === '/candidates') body.resume.content = content;
                else
                  body.documents = {
                    ...body.documents,
                    cover_letter: { filename: 'letter.pdf', content, mime_type: 'application/pdf' },
                  };
                return { text: JSON.stringify(body), expected: [422], label: 'bad base64', mutated: false };
              });
        const hostile =
          path === '/vacancies/{slug}/canonical-url'
            ? hostileUrl.map((url) => ({
                text: JSON.stringify({ url }),
                expected: [422],
                label: 'hostile url',
                mutated: false,
              }))
            : undefined;
        const bodyArb = fc.oneof(valid, valid, shaped, mutated, mutated, hostile ?? badFile ?? valid);
        const idempotencyArb = fc.option(
          fc.oneof(
            fc.constant('fresh'),
            fc.constantFrom('', ' ', 'x'.repeat(256), 'caf\u00e9', 'same-key', 'tab\tinside'),
          ),
          { nil: undefined, freq: 3 },
        );
        let limited = 0;
        await fc.assert(
          fc.asyncProperty(slugArb, bodyArb, idempotencyArb, async (slug, body, idempotency) => {
            const concrete = hasSlug ? path.replace('{slug}', slug.value) : path;
            const apiKey = nextKey();
            const headers: Record<string, string> = {};
            if (idempotency !== undefined)
              headers['idempotency-key'] = idempotency === 'fresh' ? randomUUID() : idempotency;
            const at = Date.now();
            const response = await api.post(concrete, body.text, apiKey, headers);
            recordLimit(apiKey, at, response);
            if (response.status === 429) limited++;
            const freshKey = idempotency === undefined || idempotency === 'fresh';
            let expected: number[];
            if (!body.mutated && freshKey)
              expected = slug.found ? body.expected : [404, ...(body.expected.includes(422) ? [422] : [])];
            else expected = [200, 201, 202, 400, 404, 422];
            expected.push(429);
            assertAnswer(`POST ${concrete.slice(0, 200)} ${body.text.slice(0, 200)}`, response, {
              label: `${body.label}${idempotency ? `, Idempotency-Key ${idempotency}` : ''}`,
              expected,
            });
          }),
          FC,
        );
        // Enough keys were handed out that the fuzz cases themselves never hit the limit.
        expect(limited).toBe(0);
        assertRateLimitInvariants(path);
      },
      TIMEOUT,
    );
  }
});

describe('rate limits under fuzzing, one key', () => {
  const cases: Array<[TLimitedPath, () => fc.Arbitrary<{ body: TJson }>]> = [
    ['/applications', validApplication],
    ['/candidates', validCandidate],
    ['/vacancies/{slug}/canonical-url', validCanonicalUrl],
  ];
  for (const [path, bodies] of cases) {
    it(`${path}: exactly \`limit\` answers pass per window, remaining counts down to 0, then 429`, async () => {
      const { limit } = RATE_LIMITED[path];
      const key = A.limitedKeys[path].at(-1)!;
      const concrete = path.replace('{slug}', A.slugs.openVacancies[0]!);
      // Valid and invalid bodies mixed: every request after the limit check counts, whatever it asks for.
      const samples = fc.sample(
        fc.oneof(
          bodies().map((b) => JSON.stringify(b.body)),
          fc.constantFrom('{}', '[]', '{"url":1}'),
        ),
        { numRuns: limit + 8, seed: SEED },
      );
      const concurrent = await Promise.all(samples.slice(0, limit + 4).map((text) => api.post(concrete, text, key)));
      const sequential: TResponse[] = [];
      for (const text of samples.slice(limit + 4)) sequential.push(await api.post(concrete, text, key));
      const all = [...concurrent, ...sequential];
      const passed = all.filter((response) => response.status !== 429);
      expect(passed.length, all.map((r) => r.status).join(',')).toBe(limit);
      const remaining = passed
        .map((response) => Number(response.headers.get('x-ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => i));
      for (const response of all.filter((r) => r.status === 429)) {
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    });
  }
});
