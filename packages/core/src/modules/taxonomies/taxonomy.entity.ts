import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/** Names stored per language, e.g. {"en":"Full-time","nl":"Voltijd"}. */
export type TTranslations = Record<string, string>;

/** A flat, translated taxonomy of a tenant (departments, job types, experience and education levels). */
function defineTaxonomy<const TName extends string, const TTable extends string>(name: TName, tableName: TTable) {
  return defineEntity({
    name,
    tableName,
    properties: {
      id: p.integer().primary(),
      tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
      name: p.json<TTranslations>(),
    },
  });
}

export const Department = defineTaxonomy('Department', 'departments');
export const JobType = defineTaxonomy('JobType', 'job_types');
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
