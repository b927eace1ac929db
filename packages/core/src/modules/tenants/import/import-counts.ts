import type { TParsedTenant } from './tenant-document.schema.ts';

/** What an import reports per tenant, in the order it reports them. */
const COUNTED = [
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
  'vacancies',
  'team_roles',
  'team_members',
  'articles',
  'article_translations',
  'candidates',
] as const;

export type TImportCounts = Record<(typeof COUNTED)[number], number>;

export type TImportSummary = {
  tenants: { id: number; slug: string; counts: TImportCounts }[];
  /** Sums over all tenants. */
  totals: TImportCounts;
  /** Wall-clock time of validation plus the transaction, in milliseconds. */
  duration_ms: number;
};

/** What one tenant of the document holds (`teamRoles`: the distinct roles of its team members). */
export function countsOf(tenant: TParsedTenant, teamRoles: number): TImportCounts {
  return {
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
    team_roles: teamRoles,
    team_members: tenant.team_members.length,
    articles: tenant.articles.length,
    article_translations: tenant.articles.reduce((n, a) => n + Object.keys(a.translations).length, 0),
    candidates: tenant.candidates.length,
  };
}

/** The counts of all tenants added up. */
export function totalCounts(tenants: readonly { counts: TImportCounts }[]): TImportCounts {
  const totals = Object.fromEntries(COUNTED.map((key) => [key, 0])) as TImportCounts;
  for (const { counts } of tenants) for (const key of COUNTED) totals[key] += counts[key];
  return totals;
}
