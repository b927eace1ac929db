import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/** Names stored per language, e.g. {"en":"Full-time","nl":"Voltijd"}. */
export type TTranslations = Record<string, string>;

/**
 * The kinds of employment of schema.org's JobPosting `employmentType`, as Google for Jobs reads them; a job type
 * may name one so that a vacancy's structured data can say it.
 */
export const EMPLOYMENT_TYPES = [
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
  'VOLUNTEER',
  'PER_DIEM',
  'OTHER',
] as const;
export type TEmploymentType = (typeof EMPLOYMENT_TYPES)[number];

const taxonomyProperties = () => ({
  id: p.integer().primary(),
  tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
  name: p.json<TTranslations>(),
});

/** A flat, translated taxonomy of a tenant (departments, job types, experience and education levels). */
function defineTaxonomy<const TName extends string, const TTable extends string>(name: TName, tableName: TTable) {
  return defineEntity({ name, tableName, properties: taxonomyProperties() });
}

export const Department = defineTaxonomy('Department', 'departments');
export const JobType = defineEntity({
  name: 'JobType',
  tableName: 'job_types',
  properties: { ...taxonomyProperties(), employmentType: p.enum(EMPLOYMENT_TYPES).nullable() },
});
export const ExperienceLevel = defineTaxonomy('ExperienceLevel', 'experience_levels');
export const EducationLevel = defineTaxonomy('EducationLevel', 'education_levels');

/** Hierarchical tag: a main tag includes its descendant tags in filters and facet counts. */
export const TagSchema = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    name: p.json<TTranslations>(),
    parent: () => p.manyToOne(Tag).nullable().deleteRule('set null').index(),
  },
});
export class Tag extends TagSchema.class {}
TagSchema.setClass(Tag);
