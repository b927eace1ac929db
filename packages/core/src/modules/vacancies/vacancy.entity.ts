import type { TVacancyQuestion } from './vacancy-question.ts';
import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';
import { Location } from '../locations/location.entity.ts';
import { CompanyLocation } from '../companies/company.entity.ts';
import { Department, EducationLevel, ExperienceLevel, JobType, Tag } from '../taxonomies/taxonomy.entity.ts';

export type TImageSet = { default: string | null; small: string | null; large: string | null };

export const VACANCY_STATUSES = ['draft', 'published', 'unpublished'] as const;

/** Where the work is done (schema.org: a `remote` job is TELECOMMUTE). */
export const WORKPLACE_TYPES = ['on_site', 'hybrid', 'remote'] as const;
export type TWorkplaceType = (typeof WORKPLACE_TYPES)[number];

/**
 * A vacancy publication. Its `slug` is the publication slug; `id` is the publication id.
 * Visible through the API when published, on the `api` channel, published_at <= now and not ended.
 */
export const VacancySchema = defineEntity({
  name: 'Vacancy',
  tableName: 'vacancies',
  uniques: [{ properties: ['tenant', 'slug'] }],
  indexes: [
    // The sort orders of the list; their INCLUDE columns let a page be cut (OFFSET) by an index-only scan.
    {
      name: 'vacancies_visible_published_idx',
      expression: `create index "vacancies_visible_published_idx" on "vacancies" ("tenant_id", "published_at" desc, "id" desc) include ("ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels")`,
    },
    {
      name: 'vacancies_visible_created_idx',
      expression: `create index "vacancies_visible_created_idx" on "vacancies" ("tenant_id", "created_at" desc, "id" desc) include ("ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels")`,
    },
    {
      name: 'vacancies_visible_title_idx',
      expression: `create index "vacancies_visible_title_idx" on "vacancies" ("tenant_id", lower("title"), "id") include ("ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels")`,
    },
    // Index-only scans for totals and the facets' vacancy set: the visible rows without their long texts.
    {
      name: 'vacancies_visible_cover_idx',
      expression: `create index "vacancies_visible_cover_idx" on "vacancies" ("tenant_id", "id") include ("published_at", "ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels")`,
    },
    // The next time a vacancy's visibility changes by its end (the content cache expires its entries then).
    {
      name: 'vacancies_visible_ends_idx',
      expression: `create index "vacancies_visible_ends_idx" on "vacancies" ("tenant_id", "ends_at") where status = 'published' and 'api' = any(channels)`,
    },
    {
      name: 'vacancies_title_trgm_idx',
      expression: 'create index "vacancies_title_trgm_idx" on "vacancies" using gin (lower("title") gin_trgm_ops)',
    },
    {
      name: 'vacancies_summary_trgm_idx',
      expression: 'create index "vacancies_summary_trgm_idx" on "vacancies" using gin (lower("summary") gin_trgm_ops)',
    },
    { properties: ['location'] },
    { properties: ['department'] },
    { properties: ['companyLocation'] },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    slug: p.string().length(255),
    title: p.string().length(255),
    summary: p.text().nullable(),
    description: p.text().nullable(),
    requirements: p.text().nullable(),
    offer: p.text().nullable(),
    language: p.string().length(2),
    status: p.enum(VACANCY_STATUSES).default('draft'),
    channels: p.array().default([]),
    acceptsApplications: p.boolean().default(true),
    publishedAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    viewsCount: p.integer().default(0),
    location: () => p.manyToOne(Location).nullable().deleteRule('set null'),
    department: () => p.manyToOne(Department).nullable().deleteRule('set null'),
    companyLocation: () => p.manyToOne(CompanyLocation).nullable().deleteRule('set null'),
    jobTypes: () =>
      p.manyToMany(JobType).pivotTable('vacancy_job_types').joinColumn('vacancy_id').inverseJoinColumn('job_type_id'),
    experienceLevels: () =>
      p
        .manyToMany(ExperienceLevel)
        .pivotTable('vacancy_experience_levels')
        .joinColumn('vacancy_id')
        .inverseJoinColumn('experience_level_id'),
    educationLevels: () =>
      p
        .manyToMany(EducationLevel)
        .pivotTable('vacancy_education_levels')
        .joinColumn('vacancy_id')
        .inverseJoinColumn('education_level_id'),
    tags: () => p.manyToMany(Tag).pivotTable('vacancy_tags').joinColumn('vacancy_id').inverseJoinColumn('tag_id'),
    compensationMin: p.double().nullable(),
    compensationMax: p.double().nullable(),
    compensationCurrency: p.string().length(3).nullable(),
    compensationPeriod: p.string().length(20).nullable(),
    headerImage: p.json<TImageSet>().nullable(),
    /** The public URL the career website reported; takes precedence over the tenant's URL pattern. */
    canonicalUrl: p.string().length(2048).nullable(),
    /** The application form's questions (tenant document `questions`), in their order. */
    questions: p.json<TVacancyQuestion[]>().defaultRaw(`'[]'::jsonb`),
    workplaceType: p.text().default('on_site'),
    /** For remote vacancies: the countries (ISO 3166-1 alpha-2) it may be done from; empty: the tenant's default country. */
    remoteCountries: p.array().default([]),
  },
});
export class Vacancy extends VacancySchema.class {}
VacancySchema.setClass(Vacancy);
