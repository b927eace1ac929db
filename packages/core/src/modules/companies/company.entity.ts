import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/** A client company of an agency tenant. */
export const CompanySchema = defineEntity({
  name: 'Company',
  tableName: 'companies',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    name: p.string().length(255),
  },
});
export class Company extends CompanySchema.class {}
CompanySchema.setClass(Company);

/** A work site of a client company, where an agency's vacancy is located. */
export const CompanyLocationSchema = defineEntity({
  name: 'CompanyLocation',
  tableName: 'company_locations',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').index(),
    company: () => p.manyToOne(Company).deleteRule('cascade').index(),
    name: p.string().length(255),
    city: p.string().length(255).nullable(),
    countryCode: p.string().length(2).nullable(),
  },
});
export class CompanyLocation extends CompanyLocationSchema.class {}
CompanyLocationSchema.setClass(CompanyLocation);
