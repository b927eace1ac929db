import { sql } from 'kysely';
import type { TDb } from '../../../db/kysely.ts';
import { hashPassword, verifyPassword } from '../../users/password.ts';
import { upsertRows, type TColumn } from './bulk-sql.ts';
import { TenantDocumentError, writeCollection } from './import-errors.ts';
import { formatPath, type TParsedTenant } from './tenant-document.schema.ts';

/** Matches the tenant by slug (and by id, when the document gives one); returns its id. */
export async function upsertTenant(db: TDb, tenant: TParsedTenant, index: number): Promise<number> {
  const path = formatPath(['tenants', index, 'id']);
  const bySlug = await db.selectFrom('tenants').select('id').where('slug', '=', tenant.slug).executeTakeFirst();
  if (tenant.id !== undefined) {
    if (bySlug && bySlug.id !== tenant.id)
      throw new TenantDocumentError(path, `tenant "${tenant.slug}" already exists with id ${bySlug.id}`);
    const byId = await db.selectFrom('tenants').select('slug').where('id', '=', tenant.id).executeTakeFirst();
    if (byId && byId.slug !== tenant.slug)
      throw new TenantDocumentError(path, `id ${tenant.id} belongs to tenant "${byId.slug}"`);
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
  const [result] = await writeCollection({}, formatPath(['tenants', index]), () =>
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
export async function findStoredIds(
  db: TDb,
  tenant: TParsedTenant,
  tenantId: number,
  index: number,
): Promise<Map<string, Set<number>>> {
  const simple = (key: Exclude<keyof TParsedTenant, 'companies'>, table: string): TOwnedCollection => {
    const records = tenant[key] as unknown as { id: number }[];
    return { table, ids: records.map((r) => r.id), path: (i) => [key, i, 'id'] };
  };
  const companyLocations = tenant.companies.flatMap((c, i) =>
    c.locations.map((l, j) => ({ id: l.id, path: ['companies', i, 'locations', j, 'id'] })),
  );
  const collections: TOwnedCollection[] = [
    simple('api_keys', 'api_keys'),
    simple('users', 'users'),
    simple('locations', 'locations'),
    { table: 'companies', ids: tenant.companies.map((c) => c.id), path: (i) => ['companies', i, 'id'] },
    {
      table: 'company_locations',
      ids: companyLocations.map((x) => x.id),
      path: (i) => companyLocations[i]?.path ?? [],
    },
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
    const { rows } = await sql<{
      id: number;
      tenant_id: number;
    }>`select id, tenant_id from ${sql.id(table)} where id = any(${ids}::int4[])`.execute(db);
    let taken: number | undefined;
    for (const row of rows) {
      if (row.tenant_id === tenantId) own.add(row.id);
      else if (taken === undefined || row.id < taken) taken = row.id;
    }
    if (taken !== undefined) {
      throw new TenantDocumentError(
        formatPath(['tenants', index, ...path(ids.indexOf(taken))]),
        `id ${taken} belongs to another tenant`,
      );
    }
  }
  return stored;
}

/**
 * argon2id hashes of the users' passwords. A stored hash that still matches is kept, so importing the same
 * document again leaves the users table unchanged.
 */
export async function passwordHashesFor(
  db: TDb,
  tenant: TParsedTenant,
  tenantId: number,
): Promise<Map<number, string>> {
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
      hashes.set(
        user.id,
        current && (await verifyPassword(current, password)) ? current : await hashPassword(password),
      );
    }),
  );
  return hashes;
}

/** One team_roles row per (tenant, role name); returns role name → id. */
export async function upsertRoles(db: TDb, tenant: TParsedTenant, tenantId: number): Promise<Map<string, number>> {
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
