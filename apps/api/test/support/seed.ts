import { openOrm } from '@careers/core';
import { importTenantDocument } from '@careers/core/operations';

/** Loads a tenant document into the database (the same import `pnpm careers import` runs). */
export async function seed(databaseUrl: string, document: unknown): Promise<void> {
  const orm = await openOrm(databaseUrl);
  try {
    await importTenantDocument({ em: orm.em }, document);
  } finally {
    await orm.close();
  }
}

/** A minimal tenant with the given keys (each `key` ≥ 20 chars). */
export function tenantWithKeys(
  slug: string,
  keys: Array<{ id: number; key: string; scopes: string[]; revoked?: boolean }>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    slug,
    name: slug.toUpperCase(),
    default_language: 'en',
    api_enabled: true,
    career_site: { domain: `careers.${slug}.example`, url_pattern: `https://careers.${slug}.example/vacancies/{slug}` },
    domains: [`${slug}.example`],
    api_keys: keys.map((k) => ({
      id: k.id,
      name: `key ${k.id}`,
      key: k.key,
      scopes: k.scopes,
      revoked: k.revoked ?? false,
    })),
    users: [],
    locations: [],
    companies: [],
    departments: [],
    job_types: [],
    experience_levels: [],
    education_levels: [],
    tags: [],
    vacancies: [],
    team_members: [],
    articles: [],
    candidates: [],
    ...extra,
  };
}
