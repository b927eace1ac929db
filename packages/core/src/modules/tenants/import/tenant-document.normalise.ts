import type { TParsedShape, TParsedTenant, TParsedTenantDocument, TTranslations } from './tenant-document.shape.ts';

/* One spelling for every value of a tenant document, once its structure and references are known to be right. */

const lowerKeys = <T>(map: Record<string, T>): Record<string, T> => {
  const keys = Object.keys(map);
  if (keys.every((k) => k === k.toLowerCase())) return map;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
};
/** Without repeats, first occurrence kept (fast for the short lists of a document). */
const unique = <T>(values: readonly T[]): T[] => {
  if (values.length < 2) return values as T[];
  for (let i = 1; i < values.length; i++) {
    if (values.indexOf(values[i] as T) < i) return [...new Set(values)];
  }
  return values as T[];
};
/** `2026-01-31T09:00:00.000Z` stays as it is; any other offset or precision becomes that form. */
const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (value: string): string => (CANONICAL_UTC.test(value) ? value : new Date(value).toISOString());
const isoOrNull = (value: string | null): string | null => (value === null ? null : iso(value));
const isoOrUndefined = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : iso(value);
const upperOrNull = (value: string | null): string | null => (value === null ? null : value.toUpperCase());

/** Lower-cases language codes and host names, upper-cases country and currency codes, turns timestamps into
 * UTC ISO strings, removes repeated ids and scopes, and gives plain department names the default language. */
export function normalise(doc: TParsedShape): TParsedTenantDocument {
  return {
    tenants: doc.tenants.map((tenant): TParsedTenant => {
      const language = tenant.default_language.toLowerCase();
      const names = (map: TTranslations): TTranslations => lowerKeys(map);
      return {
        ...tenant,
        default_language: language,
        created_at: isoOrUndefined(tenant.created_at),
        career_site: {
          domain: tenant.career_site?.domain?.toLowerCase() ?? null,
          url_pattern: tenant.career_site?.url_pattern ?? null,
        },
        domains: unique(tenant.domains.map((d) => d.toLowerCase())),
        api_keys: tenant.api_keys.map((key) => ({
          ...key,
          scopes: unique(key.scopes),
          created_at: isoOrUndefined(key.created_at),
        })),
        users: tenant.users.map((user) => ({ ...user, created_at: isoOrUndefined(user.created_at) })),
        locations: tenant.locations.map((l) => ({
          ...l,
          country_code: upperOrNull(l.country_code),
          created_at: isoOrUndefined(l.created_at),
        })),
        companies: tenant.companies.map((c) => ({
          ...c,
          locations: c.locations.map((l) => ({ ...l, country_code: upperOrNull(l.country_code) })),
        })),
        departments: tenant.departments.map((d) => ({
          id: d.id,
          name: typeof d.name === 'string' ? { [language]: d.name } : names(d.name),
        })),
        job_types: tenant.job_types.map((x) => ({ ...x, name: names(x.name) })),
        experience_levels: tenant.experience_levels.map((x) => ({ ...x, name: names(x.name) })),
        education_levels: tenant.education_levels.map((x) => ({ ...x, name: names(x.name) })),
        tags: tenant.tags.map((x) => ({ ...x, name: names(x.name) })),
        vacancies: tenant.vacancies.map((v) => ({
          ...v,
          language: v.language.toLowerCase(),
          channels: unique(v.channels),
          published_at: isoOrNull(v.published_at),
          ends_at: isoOrNull(v.ends_at),
          created_at: isoOrUndefined(v.created_at),
          job_type_ids: unique(v.job_type_ids),
          experience_level_ids: unique(v.experience_level_ids),
          education_level_ids: unique(v.education_level_ids),
          tag_ids: unique(v.tag_ids),
          compensation: v.compensation && { ...v.compensation, currency: v.compensation.currency.toUpperCase() },
          remote_countries: unique(v.remote_countries.map((code) => code.toUpperCase())),
          questions: v.questions.map((q) => ({
            ...q,
            label: names(q.label),
            ...(q.options ? { options: q.options.map((o) => ({ ...o, label: names(o.label) })) } : {}),
          })),
        })),
        team_members: tenant.team_members.map((m) => ({
          ...m,
          role: m.role && { name: m.role.name, label: names(m.role.label) },
        })),
        articles: tenant.articles.map((a) => ({
          ...a,
          published_at: isoOrNull(a.published_at),
          expires_at: isoOrNull(a.expires_at),
          created_at: isoOrUndefined(a.created_at),
          tag_ids: unique(a.tag_ids),
          translations: lowerKeys(a.translations),
        })),
        candidates: tenant.candidates.map((c) => ({
          ...c,
          created_at: isoOrUndefined(c.created_at),
          updated_at: isoOrUndefined(c.updated_at),
        })),
      };
    }),
  };
}
