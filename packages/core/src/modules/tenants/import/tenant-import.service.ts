import { sql } from 'kysely';
import { sanitizeTenantHtml } from '../../../lib/tenant-html.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { kyselyOf, type TDb } from '../../../db/kysely.ts';
import { displayStart, hashApiKey } from '../../api-keys/api-key.crypto.ts';
import { hashPassword, verifyPassword } from '../../users/password.ts';
import { replaceOwnedRows, upsertRows, writeById, type TColumn } from './bulk-sql.ts';
import { countWritten, inImportTransaction, type TImportTransaction } from './import-transaction.ts';
import { refreshSearchDocuments, storeSearchSynonyms } from '../../vacancies/vacancy-search.ts';
import { formatPath, parseTenantDocument, type TParsedTenant, type TParsedTenantDocument } from './tenant-document.schema.ts';

/** A document that breaks the rules of CONTRACT.md's tenant document, or clashes with the database. Nothing was written. */
export class TenantDocumentError extends Error {
  /** The first bad path, e.g. `tenants[0].vacancies[3].department_id`. */
  readonly path: string;

  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super(`${path}: ${problem}`, options);
    this.name = 'TenantDocumentError';
    this.path = path;
  }
}

export type TImportCounts = {
  api_keys: number;
  users: number;
  locations: number;
  companies: number;
  company_locations: number;
  departments: number;
  job_types: number;
  experience_levels: number;
  education_levels: number;
  tags: number;
  vacancies: number;
  team_roles: number;
  team_members: number;
  articles: number;
  article_translations: number;
  candidates: number;
};

export type TImportSummary = {
  tenants: { id: number; slug: string; counts: TImportCounts }[];
  /** Sums over all tenants. */
  totals: TImportCounts;
  /** Wall-clock time of validation plus the transaction, in milliseconds. */
  duration_ms: number;
};

type TImportOptions = {
  /** Called after each phase with its duration (for measurements). */
  onPhase?: (phase: string, ms: number) => void;
};

/** Every table an import writes, parents before children. */
export const IMPORTED_TABLES = [
  'tenants',
  'api_keys',
  'users',
  'locations',
  'companies',
  'company_locations',
  'departments',
  'job_types',
  'experience_levels',
  'education_levels',
  'tags',
  'team_roles',
  'team_members',
  'articles',
  'article_translations',
  'article_tags',
  'vacancies',
  'vacancy_job_types',
  'vacancy_experience_levels',
  'vacancy_education_levels',
  'vacancy_tags',
  'candidates',
  'candidate_users',
] as const;

/** Link tables: rows without an id of their own. */
const LINK_TABLES: ReadonlySet<string> = new Set(['article_tags', 'vacancy_job_types', 'vacancy_experience_levels', 'vacancy_education_levels', 'vacancy_tags', 'candidate_users']);

/** Tables with an id sequence (moved past the document's ids after an import). */
const SEQUENCE_TABLES = IMPORTED_TABLES.filter((table) => !LINK_TABLES.has(table));

/**
 * Loads a tenant document (CONTRACT.md, "Tenant document"): validates all of it first (a bad document throws
 * TenantDocumentError naming the first bad path and writes nothing), then writes every tenant in one
 * transaction, keeping the given ids. Importing the same document again gives the same state: records are
 * upserted by id, and the pivot rows, translations and role links of imported records are replaced.
 * Tenants are matched by slug. Records in the database that the document does not mention are left alone.
 */
export async function importTenantDocument(orm: MikroORM, input: unknown, options: TImportOptions = {}): Promise<TImportSummary> {
  const started = performance.now();
  const parsed = parseTenantDocument(input);
  options.onPhase?.('validate', performance.now() - started);
  if (!parsed.ok) throw new TenantDocumentError(parsed.problem.path, parsed.problem.message);
  const document: TParsedTenantDocument = parsed.document;

  let commitStarted = performance.now();
  let written = new Map<string, number>();
  const tenants = await inImportTransaction(orm, async (trx) => {
    const results: TImportSummary['tenants'] = [];
    for (const [index, tenant] of document.tenants.entries()) {
      results.push(await importTenant(trx, tenant, index, options));
    }
    await timed(options, 'sequences', () => moveSequences(trx.db));
    written = trx.written;
    commitStarted = performance.now();
    return results;
  });
  options.onPhase?.('commit', performance.now() - commitStarted);
  await timed(options, 'analyze', () => refreshStatistics(orm, written));

  const totals = emptyCounts();
  for (const { counts } of tenants) {
    for (const key of Object.keys(totals) as (keyof TImportCounts)[]) totals[key] += counts[key];
  }
  return { tenants, totals, duration_ms: Math.round(performance.now() - started) };
}

function emptyCounts(): TImportCounts {
  return {
    api_keys: 0,
    users: 0,
    locations: 0,
    companies: 0,
    company_locations: 0,
    departments: 0,
    job_types: 0,
    experience_levels: 0,
    education_levels: 0,
    tags: 0,
    vacancies: 0,
    team_roles: 0,
    team_members: 0,
    articles: 0,
    article_translations: 0,
    candidates: 0,
  };
}

/** Turns a constraint violation while writing one collection into a TenantDocumentError on that collection. */
async function step<T>(options: TImportOptions, path: string, write: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await write();
    options.onPhase?.(path, performance.now() - started);
    return result;
  } catch (error) {
    const pgError = findPgError(error);
    if (pgError && (pgError.code === '23505' || pgError.code === '23503' || pgError.code === '23514')) {
      const detail = pgError.detail ?? pgError.message;
      throw new TenantDocumentError(path, `conflicts with data already in the database (${detail})`, { cause: error });
    }
    throw error;
  }
}

type TPgError = { code: string; detail?: string; message: string };

function findPgError(error: unknown): TPgError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as Partial<TPgError> & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate as TPgError;
    current = candidate.cause;
  }
  return undefined;
}

async function importTenant(trx: TImportTransaction, tenant: TParsedTenant, index: number, options: TImportOptions): Promise<TImportSummary['tenants'][number]> {
  const { db } = trx;
  const at = (...rest: PropertyKey[]): string => formatPath(['tenants', index, ...rest]);
  const tenantId = await upsertTenant(db, tenant, index);
  const storedIds = await timed(options, 'stored ids', () => findStoredIds(db, tenant, tenantId, index));
  const stored = (table: string): ReadonlySet<number> => storedIds.get(table) ?? new Set();

  const T = (name: string, type: TColumn['type'], extra: Partial<TColumn> = {}): TColumn => ({ name, type, ...extra });
  const id = T('id', 'int4');
  const tenantCol = T('tenant_id', 'int4');
  const createdAt = T('created_at', 'timestamptz', { defaultWhenNull: true });

  await step(options, at('api_keys'), () =>
    writeById(trx, 'api_keys',
      [
        id,
        tenantCol,
        T('name', 'text'),
        T('key_hash', 'text'),
        T('start', 'text'),
        T('scopes', 'text[]'),
        T('kind', 'text'),
        T('origins', 'text[]'),
        createdAt,
        // A key revoked before keeps its revocation time; an un-revoked key is active again.
        T('revoked_at', 'timestamptz', {
          onUpdate: (stored, given) => `case when ${given} is null then null else coalesce(${stored}, ${given}) end`,
        }),
      ],
      tenant.api_keys.map((k) => [k.id, tenantId, k.name, hashApiKey(k.key), displayStart(k.key), k.scopes, k.kind, k.origins ?? null, k.created_at ?? null, k.revoked ? new Date().toISOString() : null]), stored('api_keys')),
  );

  const passwordHashes = await passwordHashesFor(db, tenant, tenantId);
  await step(options, at('users'), () =>
    writeById(trx, 'users',
      [id, tenantCol, T('name', 'text'), T('email', 'text'), T('role', 'text'), T('password_hash', 'text'), createdAt],
      tenant.users.map((u) => [u.id, tenantId, u.name, u.email, u.role, passwordHashes.get(u.id) ?? null, u.created_at ?? null]), stored('users')),
  );

  await step(options, at('locations'), () =>
    writeById(trx, 'locations',
      [
        id,
        tenantCol,
        T('slug', 'text'),
        T('name', 'text'),
        T('address_line_1', 'text'),
        T('address_line_2', 'text'),
        T('address_line_3', 'text'),
        T('locality', 'text'),
        T('administrative_area', 'text'),
        T('postal_code', 'text'),
        T('country_code', 'text'),
        T('latitude', 'float8'),
        T('longitude', 'float8'),
        createdAt,
      ],
      tenant.locations.map((l) => [
        l.id,
        tenantId,
        l.slug,
        l.name,
        l.address_line_1,
        l.address_line_2,
        l.address_line_3,
        l.locality,
        l.administrative_area,
        l.postal_code,
        l.country_code,
        l.latitude,
        l.longitude,
        l.created_at ?? null,
      ]), stored('locations')),
  );

  await step(options, at('companies'), async () => {
    await writeById(trx, 'companies', [id, tenantCol, T('name', 'text')], tenant.companies.map((c) => [c.id, tenantId, c.name]), stored('companies'));
    await writeById(trx, 'company_locations',
      [id, tenantCol, T('company_id', 'int4'), T('name', 'text'), T('city', 'text'), T('country_code', 'text')],
      tenant.companies.flatMap((c) => c.locations.map((l) => [l.id, tenantId, c.id, l.name, l.city, l.country_code])), stored('company_locations'));
  });

  for (const table of ['departments', 'experience_levels', 'education_levels'] as const) {
    await step(options, at(table), () =>
      writeById(trx, table, [id, tenantCol, T('name', 'jsonb')], tenant[table].map((x) => [x.id, tenantId, x.name]), stored(table)),
    );
  }
  await step(options, at('job_types'), () =>
    writeById(trx, 'job_types',
      [id, tenantCol, T('name', 'jsonb'), T('employment_type', 'text')],
      tenant.job_types.map((x) => [x.id, tenantId, x.name, x.employment_type]), stored('job_types')),
  );

  await step(options, at('tags'), () =>
    writeById(trx, 'tags',
      [id, tenantCol, T('name', 'jsonb'), T('parent_id', 'int4')],
      parentsFirst(tenant.tags).map((t) => [t.id, tenantId, t.name, t.parent_id]), stored('tags')),
  );

  const roleIds = await step(options, at('team_members'), () => upsertRoles(db, tenant, tenantId));
  await step(options, at('team_members'), () =>
    writeById(trx, 'team_members',
      [
        id,
        tenantCol,
        T('given_name', 'text'),
        T('family_name', 'text'),
        T('email', 'text'),
        T('job_title', 'text'),
        T('phone', 'text'),
        T('role_id', 'int4'),
        T('avatar', 'jsonb'),
        T('employed', 'bool'),
      ],
      tenant.team_members.map((m) => [
        m.id,
        tenantId,
        m.given_name,
        m.family_name,
        m.email,
        m.job_title,
        m.phone,
        m.role ? (roleIds.get(m.role.name) ?? null) : null,
        m.avatar,
        m.employed,
      ]), stored('team_members')),
  );

  await step(options, at('articles'), () => importArticles(trx, tenant, tenantId, stored('articles'), options));
  await step(options, at('vacancies'), () => importVacancies(trx, tenant, tenantId, stored('vacancies'), options));
  // Left out of the document: the stored groups stay as they are.
  const synonyms = tenant.search_synonyms;
  if (synonyms) await step(options, at('search_synonyms'), () => storeSearchSynonyms(db, tenantId, synonyms));
  // After everything a vacancy's search text is made of (taxonomies, locations, vacancies) is written.
  await timed(options, 'search documents', async () => countWritten(trx, 'vacancy_search_documents', await refreshSearchDocuments(db, tenantId)));

  await step(options, at('candidates'), async () => {
    const newCandidates = await writeById(trx, 'candidates',
      [
        id,
        tenantCol,
        T('slug', 'text'),
        T('first_name', 'text'),
        T('last_name', 'text'),
        T('email', 'text'),
        T('phone', 'text'),
        T('linkedin_url', 'text'),
        T('status', 'text'),
        createdAt,
        T('updated_at', 'timestamptz', { defaultWhenNull: true }),
      ],
      tenant.candidates.map((c) => [
        c.id,
        tenantId,
        c.slug,
        c.first_name,
        c.last_name,
        c.email,
        c.phone,
        c.linkedin_url,
        c.status,
        c.created_at ?? null,
        c.updated_at ?? c.created_at ?? null,
      ]), stored('candidates'));
    await replaceLinks(trx, 'candidate_users', 'candidate_id', 'user_id', tenant.candidates.map((c) => [c.id, c.user_id === null ? [] : [c.user_id]]), newCandidates, options);
  });

  return {
    id: tenantId,
    slug: tenant.slug,
    counts: {
      api_keys: tenant.api_keys.length,
      users: tenant.users.length,
      locations: tenant.locations.length,
      companies: tenant.companies.length,
      company_locations: tenant.companies.reduce((n, c) => n + c.locations.length, 0),
      departments: tenant.departments.length,
      job_types: tenant.job_types.length,
      experience_levels: tenant.experience_levels.length,
      education_levels: tenant.education_levels.length,
      tags: tenant.tags.length,
      vacancies: tenant.vacancies.length,
      team_roles: roleIds.size,
      team_members: tenant.team_members.length,
      articles: tenant.articles.length,
      article_translations: tenant.articles.reduce((n, a) => n + Object.keys(a.translations).length, 0),
      candidates: tenant.candidates.length,
    },
  };
}

/** Matches the tenant by slug (and by id, when the document gives one); returns its id. */
async function upsertTenant(db: TDb, tenant: TParsedTenant, index: number): Promise<number> {
  const path = formatPath(['tenants', index, 'id']);
  const bySlug = await db.selectFrom('tenants').select('id').where('slug', '=', tenant.slug).executeTakeFirst();
  if (tenant.id !== undefined) {
    if (bySlug && bySlug.id !== tenant.id) throw new TenantDocumentError(path, `tenant "${tenant.slug}" already exists with id ${bySlug.id}`);
    const byId = await db.selectFrom('tenants').select('slug').where('id', '=', tenant.id).executeTakeFirst();
    if (byId && byId.slug !== tenant.slug) throw new TenantDocumentError(path, `id ${tenant.id} belongs to tenant "${byId.slug}"`);
  }
  const columns: TColumn[] = [
    { name: 'slug', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'default_language', type: 'text' },
    { name: 'api_enabled', type: 'bool' },
    { name: 'duplicate_applications', type: 'text' },
    { name: 'career_site_domain', type: 'text' },
    { name: 'url_pattern', type: 'text' },
    { name: 'domains', type: 'text[]' },
    { name: 'privacy', type: 'jsonb' },
    { name: 'default_country', type: 'text', defaultWhenNull: true },
    { name: 'created_at', type: 'timestamptz', defaultWhenNull: true },
    { name: 'id', type: 'int4', defaultWhenNull: true, onUpdate: 'keep' },
  ];
  const row = [
    tenant.slug,
    tenant.name,
    tenant.default_language,
    tenant.api_enabled,
    tenant.duplicate_applications,
    tenant.career_site.domain,
    tenant.career_site.url_pattern,
    tenant.domains,
    tenant.privacy,
    tenant.default_country?.toUpperCase() ?? null,
    tenant.created_at ?? null,
    tenant.id ?? null,
  ];
  const [result] = await step({}, formatPath(['tenants', index]), () =>
    upsertRows<{ id: number }>(db, 'tenants', columns, [row], { conflict: ['slug'], returning: ['id'] }),
  );
  if (!result) throw new Error('tenant upsert returned no row');
  return result.id;
}

type TOwnedCollection = { table: string; ids: number[]; path: (position: number) => PropertyKey[] };

/**
 * The ids of the document that are already in the database, per table. Refuses ids that belong to another
 * tenant (an import never moves another tenant's rows), naming the smallest such id of the first collection.
 */
async function findStoredIds(db: TDb, tenant: TParsedTenant, tenantId: number, index: number): Promise<Map<string, Set<number>>> {
  const simple = (key: Exclude<keyof TParsedTenant, 'companies'>, table: string): TOwnedCollection => {
    const records = tenant[key] as unknown as { id: number }[];
    return { table, ids: records.map((r) => r.id), path: (i) => [key, i, 'id'] };
  };
  const companyLocations = tenant.companies.flatMap((c, i) => c.locations.map((l, j) => ({ id: l.id, path: ['companies', i, 'locations', j, 'id'] })));
  const collections: TOwnedCollection[] = [
    simple('api_keys', 'api_keys'),
    simple('users', 'users'),
    simple('locations', 'locations'),
    { table: 'companies', ids: tenant.companies.map((c) => c.id), path: (i) => ['companies', i, 'id'] },
    { table: 'company_locations', ids: companyLocations.map((x) => x.id), path: (i) => companyLocations[i]?.path ?? [] },
    simple('departments', 'departments'),
    simple('job_types', 'job_types'),
    simple('experience_levels', 'experience_levels'),
    simple('education_levels', 'education_levels'),
    simple('tags', 'tags'),
    simple('team_members', 'team_members'),
    simple('articles', 'articles'),
    simple('vacancies', 'vacancies'),
    simple('candidates', 'candidates'),
  ];
  const stored = new Map<string, Set<number>>();
  for (const { table, ids, path } of collections) {
    const own = new Set<number>();
    stored.set(table, own);
    if (ids.length === 0) continue;
    const { rows } = await sql<{ id: number; tenant_id: number }>`select id, tenant_id from ${sql.id(table)} where id = any(${ids}::int4[])`.execute(db);
    let taken: number | undefined;
    for (const row of rows) {
      if (row.tenant_id === tenantId) own.add(row.id);
      else if (taken === undefined || row.id < taken) taken = row.id;
    }
    if (taken !== undefined) {
      throw new TenantDocumentError(formatPath(['tenants', index, ...path(ids.indexOf(taken))]), `id ${taken} belongs to another tenant`);
    }
  }
  return stored;
}

/**
 * argon2id hashes of the users' passwords. A stored hash that still matches is kept, so importing the same
 * document again leaves the users table unchanged.
 */
async function passwordHashesFor(db: TDb, tenant: TParsedTenant, tenantId: number): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  const withPassword = tenant.users.filter((u) => u.password !== null);
  if (withPassword.length === 0) return hashes;
  const { rows } = await sql<{ id: number; password_hash: string | null }>`select id, password_hash from users
    where id = any(${withPassword.map((u) => u.id)}::int4[]) and tenant_id = ${tenantId}`.execute(db);
  const storedById = new Map(rows.map((row) => [row.id, row.password_hash]));
  await Promise.all(
    withPassword.map(async (user) => {
      const password = user.password as string;
      const current = storedById.get(user.id);
      hashes.set(user.id, current && (await verifyPassword(current, password)) ? current : await hashPassword(password));
    }),
  );
  return hashes;
}

/** One team_roles row per (tenant, role name); returns role name → id. */
async function upsertRoles(db: TDb, tenant: TParsedTenant, tenantId: number): Promise<Map<string, number>> {
  const roles = new Map<string, Record<string, string>>();
  for (const member of tenant.team_members) {
    if (member.role && !roles.has(member.role.name)) roles.set(member.role.name, member.role.label);
  }
  const rows = await upsertRows<{ id: number; name: string }>(
    db,
    'team_roles',
    [
      { name: 'tenant_id', type: 'int4' },
      { name: 'name', type: 'text' },
      { name: 'label', type: 'jsonb' },
    ],
    [...roles].map(([name, label]) => [tenantId, name, label]),
    { conflict: ['tenant_id', 'name'], returning: ['id', 'name'] },
  );
  return new Map(rows.map((r) => [r.name, r.id]));
}

async function importArticles(trx: TImportTransaction, tenant: TParsedTenant, tenantId: number, stored: ReadonlySet<number>, options: TImportOptions): Promise<void> {
  const newArticles = await writeById(
    trx,
    'articles',
    [
      { name: 'id', type: 'int4' },
      { name: 'tenant_id', type: 'int4' },
      { name: 'slug', type: 'text' },
      { name: 'type', type: 'text' },
      { name: 'status', type: 'text' },
      { name: 'is_featured', type: 'bool' },
      { name: 'views_count', type: 'int4' },
      { name: 'published_at', type: 'timestamptz' },
      { name: 'expires_at', type: 'timestamptz' },
      { name: 'created_at', type: 'timestamptz', defaultWhenNull: true },
      { name: 'featured_image', type: 'jsonb' },
    ],
    tenant.articles.map((a) => [
      a.id,
      tenantId,
      a.slug,
      a.type,
      a.status,
      a.is_featured,
      a.views_count,
      a.published_at,
      a.expires_at,
      a.created_at ?? null,
      a.featured_image,
    ]),
    stored,
  );
  // Translations keep their ids across imports (matched by article and language); languages no longer in
  // the document are removed.
  await timed(options, 'article_translations', () =>
    replaceOwnedRows(
      trx,
      'article_translations',
      [
        { name: 'tenant_id', type: 'int4' },
        { name: 'article_id', type: 'int4' },
        { name: 'language', type: 'text' },
        { name: 'title', type: 'text' },
        { name: 'excerpt', type: 'text' },
        { name: 'body_html', type: 'text' },
        { name: 'seo_title', type: 'text' },
        { name: 'seo_description', type: 'text' },
      ],
      ['article_id', 'language'],
      tenant.articles.map((a) => a.id),
      tenant.articles.flatMap((a) =>
        Object.entries(a.translations).map(([language, content]) => [
          tenantId,
          a.id,
          language,
          content.title,
          content.excerpt,
          content.body_html,
          content.seo?.title ?? null,
          content.seo?.description ?? null,
        ]),
      ),
      newArticles,
    ),
  );
  await replaceLinks(trx, 'article_tags', 'article_id', 'tag_id', tenant.articles.map((a) => [a.id, a.tag_ids]), newArticles, options);
}

async function timed<T>(options: TImportOptions, phase: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  options.onPhase?.(phase, performance.now() - started);
  return result;
}

const storedHtml = (html: string | null) => (html === null ? null : sanitizeTenantHtml(html));

async function importVacancies(trx: TImportTransaction, tenant: TParsedTenant, tenantId: number, stored: ReadonlySet<number>, options: TImportOptions): Promise<void> {
  const newVacancies = await timed(options, 'vacancy rows', () =>
    writeById(
      trx,
      'vacancies',
      [
        { name: 'id', type: 'int4' },
        { name: 'tenant_id', type: 'int4' },
        { name: 'slug', type: 'text' },
        { name: 'title', type: 'text' },
        { name: 'summary', type: 'text' },
        { name: 'description', type: 'text' },
        { name: 'requirements', type: 'text' },
        { name: 'offer', type: 'text' },
        { name: 'language', type: 'text' },
        { name: 'status', type: 'text' },
        { name: 'channels', type: 'text[]' },
        { name: 'accepts_applications', type: 'bool' },
        { name: 'published_at', type: 'timestamptz' },
        { name: 'ends_at', type: 'timestamptz' },
        { name: 'created_at', type: 'timestamptz', defaultWhenNull: true },
        { name: 'views_count', type: 'int4' },
        { name: 'location_id', type: 'int4' },
        { name: 'department_id', type: 'int4' },
        { name: 'company_location_id', type: 'int4' },
        { name: 'compensation_min', type: 'float8' },
        { name: 'compensation_max', type: 'float8' },
        { name: 'compensation_currency', type: 'text' },
        { name: 'compensation_period', type: 'text' },
        { name: 'header_image', type: 'jsonb' },
        { name: 'canonical_url', type: 'text' },
        { name: 'questions', type: 'jsonb' },
        { name: 'workplace_type', type: 'text' },
        { name: 'remote_countries', type: 'text[]' },
      ],
      tenant.vacancies.map((v) => [
        v.id,
        tenantId,
        v.slug,
        v.title,
        // Stored sanitized, like article HTML is served: career sites insert it as it is (innerHTML, JSON-LD).
        storedHtml(v.summary),
        storedHtml(v.description),
        storedHtml(v.requirements),
        storedHtml(v.offer),
        v.language,
        v.status,
        v.channels,
        v.accepts_applications,
        v.published_at,
        v.ends_at,
        v.created_at ?? null,
        v.views_count,
        v.location_id,
        v.department_id,
        v.company_location_id,
        v.compensation?.min ?? null,
        v.compensation?.max ?? null,
        v.compensation?.currency ?? null,
        v.compensation?.period ?? null,
        v.header_image,
        v.canonical_url,
        v.questions,
        v.workplace_type,
        v.remote_countries,
      ]),
      stored,
    ),
  );
  await replaceLinks(trx, 'vacancy_job_types', 'vacancy_id', 'job_type_id', tenant.vacancies.map((v) => [v.id, v.job_type_ids]), newVacancies, options);
  await replaceLinks(trx, 'vacancy_experience_levels', 'vacancy_id', 'experience_level_id', tenant.vacancies.map((v) => [v.id, v.experience_level_ids]), newVacancies, options);
  await replaceLinks(trx, 'vacancy_education_levels', 'vacancy_id', 'education_level_id', tenant.vacancies.map((v) => [v.id, v.education_level_ids]), newVacancies, options);
  await replaceLinks(trx, 'vacancy_tags', 'vacancy_id', 'tag_id', tenant.vacancies.map((v) => [v.id, v.tag_ids]), newVacancies, options);
}

/** Makes the link rows of the given owners exactly the listed (owner, target) pairs. */
async function replaceLinks(
  trx: TImportTransaction,
  table: string,
  ownerColumn: string,
  targetColumn: string,
  owners: readonly (readonly [number, readonly number[]])[],
  newOwners: ReadonlySet<number>,
  options: TImportOptions,
): Promise<void> {
  const pairs = owners.flatMap(([owner, targets]) => targets.map((target) => [owner, target]));
  await timed(options, table, () =>
    replaceOwnedRows(
      trx,
      table,
      [
        { name: ownerColumn, type: 'int4' },
        { name: targetColumn, type: 'int4' },
      ],
      [ownerColumn, targetColumn],
      owners.map(([owner]) => owner),
      pairs,
      newOwners,
    ),
  );
}

/** Tags in an order where every parent comes before its children (the document may list them any way). */
function parentsFirst<T extends { id: number; parent_id: number | null }>(tags: readonly T[]): T[] {
  const byId = new Map(tags.map((t) => [t.id, t]));
  const placed = new Set<number>();
  const out: T[] = [];
  const place = (tag: T): void => {
    if (placed.has(tag.id)) return;
    placed.add(tag.id);
    const parent = tag.parent_id === null ? undefined : byId.get(tag.parent_id);
    if (parent) place(parent);
    out.push(tag);
  };
  for (const tag of tags) place(tag);
  return out;
}

/**
 * A bulk load leaves the planner's statistics behind the data (autovacuum catches up only later): without fresh
 * ones it can pick a scan of the whole tenant over the (tenant, slug) index for a single vacancy. So the tables
 * that autovacuum would analyze for this import's writes (more than 50 rows + 10 % of the table, its defaults)
 * are analyzed now; VACUUM also marks the new pages all-visible, so list pages are cut by index-only scans from
 * the start. An import that changed little (a re-import) leaves the statistics to autovacuum.
 */
async function refreshStatistics(orm: MikroORM, written: ReadonlyMap<string, number>): Promise<void> {
  if (written.size === 0) return;
  const db = kyselyOf(orm.em.fork());
  const { rows: sizes } = await sql<{ table: string; rows: number }>`select c.relname as "table", greatest(c.reltuples, 0)::float8 as "rows"
    from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relname = any(${[...written.keys()]}::text[])`.execute(db);
  const stale = sizes.filter(({ table, rows }) => (written.get(table) ?? 0) > 50 + 0.1 * rows).map(({ table }) => table);
  // One table per connection, side by side: each VACUUM uses one core, and the biggest table sets the pace.
  await Promise.all(stale.map((table) => sql`vacuum (analyze) ${sql.table(table)}`.execute(kyselyOf(orm.em.fork()))));
}

/** Moves each id sequence past the largest id in its table (never backwards), so new rows get fresh ids. */
async function moveSequences(db: TDb): Promise<void> {
  for (const table of SEQUENCE_TABLES) {
    await sql`select setval(s.seq, x.v, true)
      from (select pg_get_serial_sequence(${table}, 'id') as seq) s,
      lateral (select greatest((select coalesce(max(id), 0) from ${sql.id(table)}), coalesce(pg_sequence_last_value(s.seq::regclass), 0)) as v) x
      where s.seq is not null and x.v > 0`.execute(db);
  }
}
