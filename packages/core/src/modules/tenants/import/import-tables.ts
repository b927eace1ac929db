import { sanitizeTenantHtml } from '../../../lib/tenant-html.ts';
import { displayStart, hashApiKey } from '../../api-keys/api-key.crypto.ts';
import type { TColumn } from './bulk-sql.ts';
import type { TParsedArticle, TParsedTenant, TParsedVacancy } from './tenant-document.schema.ts';

/**
 * The columns an import writes, table by table, each with the value it takes from a record of the document: the one
 * place that says which document field goes to which column (bulk-sql.ts writes whatever these lists hold).
 */

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
const LINK_TABLES: ReadonlySet<string> = new Set([
  'article_tags',
  'vacancy_job_types',
  'vacancy_experience_levels',
  'vacancy_education_levels',
  'vacancy_tags',
  'candidate_users',
]);

/** Tables with an id sequence (moved past the document's ids after an import). */
export const SEQUENCE_TABLES = IMPORTED_TABLES.filter((table) => !LINK_TABLES.has(table));

/** What a record's values may depend on besides the record. */
export type TRowContext = {
  tenantId: number;
  /** HTML as stored: sanitized (career sites insert it as it is: innerHTML, JSON-LD). */
  storedHtml: (html: string | null) => string | null;
};

/** A column and where its value comes from. */
export type TField<TRecord> = TColumn & { value: (record: TRecord, context: TRowContext) => unknown };

const field = <TRecord>(
  name: string,
  type: TColumn['type'],
  value: (record: TRecord, context: TRowContext) => unknown,
  extra: Partial<TColumn> = {},
): TField<TRecord> => ({
  name,
  type,
  value,
  ...extra,
});

/** `id`, then `tenant_id`: the first columns of every table written by id. */
const owned = <TRecord extends { id: number }>(...rest: TField<TRecord>[]): TField<TRecord>[] => [
  field<TRecord>('id', 'int4', (r) => r.id),
  field<TRecord>('tenant_id', 'int4', (_, c) => c.tenantId),
  ...rest,
];
/** A `created_at` the document may leave out (the column default, or the stored value). */
const createdAt = <TRecord extends { created_at?: string | null }>(): TField<TRecord> =>
  field<TRecord>('created_at', 'timestamptz', (r) => r.created_at ?? null, { defaultWhenNull: true });

/** The rows of `records` in the order of `fields`. */
export function rowsOf<TRecord>(
  fields: readonly TField<TRecord>[],
  records: readonly TRecord[],
  context: TRowContext,
): unknown[][] {
  return records.map((record) => fields.map((f) => f.value(record, context)));
}

/**
 * A cache of sanitized HTML for one import: documents repeat their HTML (one summary or offer for many vacancies), and
 * sanitizing is the costly part of building a vacancy row.
 */
export function htmlSanitizer(): TRowContext['storedHtml'] {
  const sanitized = new Map<string, string>();
  return (html) => {
    if (html === null) return null;
    let clean = sanitized.get(html);
    if (clean === undefined) sanitized.set(html, (clean = sanitizeTenantHtml(html)));
    return clean;
  };
}

type TTenantRecord<K extends keyof TParsedTenant> = TParsedTenant[K] extends readonly (infer R)[] ? R : never;
type TCompanyLocation = TTenantRecord<'companies'>['locations'][number] & { company_id: number };
type TTaxonomy = { id: number; name: unknown };

export const API_KEY_FIELDS = owned<TTenantRecord<'api_keys'>>(
  field('name', 'text', (k) => k.name),
  field('key_hash', 'text', (k) => hashApiKey(k.key)),
  field('start', 'text', (k) => displayStart(k.key)),
  field('scopes', 'text[]', (k) => k.scopes),
  field('kind', 'text', (k) => k.kind),
  field('origins', 'text[]', (k) => k.origins ?? null),
  createdAt(),
  // A key revoked before keeps its revocation time; an un-revoked key is active again.
  field('revoked_at', 'timestamptz', (k) => (k.revoked ? new Date().toISOString() : null), {
    onUpdate: (stored, given) => `case when ${given} is null then null else coalesce(${stored}, ${given}) end`,
  }),
);

/** Users with their password hash (worked out beforehand: a stored hash that still matches is kept). */
export const USER_FIELDS = owned<TTenantRecord<'users'> & { password_hash: string | null }>(
  field('name', 'text', (u) => u.name),
  field('email', 'text', (u) => u.email),
  field('role', 'text', (u) => u.role),
  field('password_hash', 'text', (u) => u.password_hash),
  createdAt(),
);

export const LOCATION_FIELDS = owned<TTenantRecord<'locations'>>(
  field('slug', 'text', (l) => l.slug),
  field('name', 'text', (l) => l.name),
  field('address_line_1', 'text', (l) => l.address_line_1),
  field('address_line_2', 'text', (l) => l.address_line_2),
  field('address_line_3', 'text', (l) => l.address_line_3),
  field('locality', 'text', (l) => l.locality),
  field('administrative_area', 'text', (l) => l.administrative_area),
  field('postal_code', 'text', (l) => l.postal_code),
  field('country_code', 'text', (l) => l.country_code),
  field('latitude', 'float8', (l) => l.latitude),
  field('longitude', 'float8', (l) => l.longitude),
  createdAt(),
);

export const COMPANY_FIELDS = owned<TTenantRecord<'companies'>>(field('name', 'text', (c) => c.name));

export const COMPANY_LOCATION_FIELDS = owned<TCompanyLocation>(
  field('company_id', 'int4', (l) => l.company_id),
  field('name', 'text', (l) => l.name),
  field('city', 'text', (l) => l.city),
  field('country_code', 'text', (l) => l.country_code),
);

/** Departments, experience and education levels: a translated name. */
export const TAXONOMY_FIELDS = owned<TTaxonomy>(field('name', 'jsonb', (x) => x.name));

export const JOB_TYPE_FIELDS = owned<TTenantRecord<'job_types'>>(
  field('name', 'jsonb', (x) => x.name),
  field('employment_type', 'text', (x) => x.employment_type),
);

export const TAG_FIELDS = owned<TTenantRecord<'tags'>>(
  field('name', 'jsonb', (t) => t.name),
  field('parent_id', 'int4', (t) => t.parent_id),
);

/** Team members with the id of their role (upserted beforehand by name). */
export const TEAM_MEMBER_FIELDS = owned<TTenantRecord<'team_members'> & { role_id: number | null }>(
  field('given_name', 'text', (m) => m.given_name),
  field('family_name', 'text', (m) => m.family_name),
  field('email', 'text', (m) => m.email),
  field('job_title', 'text', (m) => m.job_title),
  field('phone', 'text', (m) => m.phone),
  field('role_id', 'int4', (m) => m.role_id),
  field('avatar', 'jsonb', (m) => m.avatar),
  field('employed', 'bool', (m) => m.employed),
);

export const ARTICLE_FIELDS = owned<TParsedArticle>(
  field('slug', 'text', (a) => a.slug),
  field('type', 'text', (a) => a.type),
  field('status', 'text', (a) => a.status),
  field('is_featured', 'bool', (a) => a.is_featured),
  field('views_count', 'int4', (a) => a.views_count),
  field('published_at', 'timestamptz', (a) => a.published_at),
  field('expires_at', 'timestamptz', (a) => a.expires_at),
  createdAt(),
  field('featured_image', 'jsonb', (a) => a.featured_image),
);

type TArticleTranslation = { article_id: number; language: string; content: TParsedArticle['translations'][string] };

/** Translations are matched by (article, language); the first columns are the key's. */
export const ARTICLE_TRANSLATION_FIELDS: TField<TArticleTranslation>[] = [
  field('tenant_id', 'int4', (_, c) => c.tenantId),
  field('article_id', 'int4', (t) => t.article_id),
  field('language', 'text', (t) => t.language),
  field('title', 'text', (t) => t.content.title),
  field('excerpt', 'text', (t) => t.content.excerpt),
  field('body_html', 'text', (t) => t.content.body_html),
  field('seo_title', 'text', (t) => t.content.seo?.title ?? null),
  field('seo_description', 'text', (t) => t.content.seo?.description ?? null),
];

export const ARTICLE_TRANSLATION_KEY = ['article_id', 'language'];

/** The translations of articles, one record per (article, language). */
export function articleTranslations(articles: readonly TParsedArticle[]): TArticleTranslation[] {
  return articles.flatMap((a) =>
    Object.entries(a.translations).map(([language, content]) => ({ article_id: a.id, language, content })),
  );
}

export const VACANCY_FIELDS = owned<TParsedVacancy>(
  field('slug', 'text', (v) => v.slug),
  field('title', 'text', (v) => v.title),
  field('summary', 'text', (v, c) => c.storedHtml(v.summary)),
  field('description', 'text', (v, c) => c.storedHtml(v.description)),
  field('requirements', 'text', (v, c) => c.storedHtml(v.requirements)),
  field('offer', 'text', (v, c) => c.storedHtml(v.offer)),
  field('language', 'text', (v) => v.language),
  field('status', 'text', (v) => v.status),
  field('channels', 'text[]', (v) => v.channels),
  field('accepts_applications', 'bool', (v) => v.accepts_applications),
  field('published_at', 'timestamptz', (v) => v.published_at),
  field('ends_at', 'timestamptz', (v) => v.ends_at),
  createdAt(),
  field('views_count', 'int4', (v) => v.views_count),
  field('location_id', 'int4', (v) => v.location_id),
  field('department_id', 'int4', (v) => v.department_id),
  field('company_location_id', 'int4', (v) => v.company_location_id),
  field('compensation_min', 'float8', (v) => v.compensation?.min ?? null),
  field('compensation_max', 'float8', (v) => v.compensation?.max ?? null),
  field('compensation_currency', 'text', (v) => v.compensation?.currency ?? null),
  field('compensation_period', 'text', (v) => v.compensation?.period ?? null),
  field('header_image', 'jsonb', (v) => v.header_image),
  field('canonical_url', 'text', (v) => v.canonical_url),
  field('questions', 'jsonb', (v) => v.questions),
  field('workplace_type', 'text', (v) => v.workplace_type),
  field('remote_countries', 'text[]', (v) => v.remote_countries),
);

export const CANDIDATE_FIELDS = owned<TTenantRecord<'candidates'>>(
  field('slug', 'text', (c) => c.slug),
  field('first_name', 'text', (c) => c.first_name),
  field('last_name', 'text', (c) => c.last_name),
  field('email', 'text', (c) => c.email),
  field('phone', 'text', (c) => c.phone),
  field('linkedin_url', 'text', (c) => c.linkedin_url),
  field('status', 'text', (c) => c.status),
  createdAt(),
  field('updated_at', 'timestamptz', (c) => c.updated_at ?? c.created_at ?? null, { defaultWhenNull: true }),
);

/** A link table: the owner's column, the linked record's column, and the owner's list of linked ids. */
export type TLinkTable<TOwner> = {
  table: string;
  owner: string;
  target: string;
  targets: (owner: TOwner) => readonly number[];
};

export const VACANCY_LINKS: TLinkTable<TParsedVacancy>[] = [
  { table: 'vacancy_job_types', owner: 'vacancy_id', target: 'job_type_id', targets: (v) => v.job_type_ids },
  {
    table: 'vacancy_experience_levels',
    owner: 'vacancy_id',
    target: 'experience_level_id',
    targets: (v) => v.experience_level_ids,
  },
  {
    table: 'vacancy_education_levels',
    owner: 'vacancy_id',
    target: 'education_level_id',
    targets: (v) => v.education_level_ids,
  },
  { table: 'vacancy_tags', owner: 'vacancy_id', target: 'tag_id', targets: (v) => v.tag_ids },
];

export const ARTICLE_TAGS: TLinkTable<TParsedArticle> = {
  table: 'article_tags',
  owner: 'article_id',
  target: 'tag_id',
  targets: (a) => a.tag_ids,
};

export const CANDIDATE_USERS: TLinkTable<TTenantRecord<'candidates'>> = {
  table: 'candidate_users',
  owner: 'candidate_id',
  target: 'user_id',
  targets: (c) => (c.user_id === null ? [] : [c.user_id]),
};
