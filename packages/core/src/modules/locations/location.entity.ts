import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

export const LocationSchema = defineEntity({
  name: 'Location',
  tableName: 'locations',
  uniques: [{ properties: ['tenant', 'slug'] }],
  indexes: [
    {
      name: 'locations_tenant_name_idx',
      expression: 'create index "locations_tenant_name_idx" on "locations" ("tenant_id", lower("name"), "id")',
    },
    {
      name: 'locations_tenant_locality_idx',
      expression: 'create index "locations_tenant_locality_idx" on "locations" ("tenant_id", lower("locality"), "id")',
    },
    { properties: ['tenant', 'createdAt', 'id'] },
    // near + radius_km: a latitude/longitude box over the tenant's located locations.
    {
      name: 'locations_tenant_coordinates_idx',
      expression:
        'create index "locations_tenant_coordinates_idx" on "locations" ("tenant_id", "latitude", "longitude") where "latitude" is not null',
    },
  ],
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    slug: p.string().length(255),
    name: p.string().length(255),
    addressLine1: p.string().length(255).nullable().fieldName('address_line_1'),
    addressLine2: p.string().length(255).nullable().fieldName('address_line_2'),
    addressLine3: p.string().length(255).nullable().fieldName('address_line_3'),
    locality: p.string().length(255).nullable(),
    administrativeArea: p.string().length(255).nullable(),
    postalCode: p.string().length(50).nullable(),
    countryCode: p.string().length(2).nullable(),
    latitude: p.double().nullable(),
    longitude: p.double().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Location extends LocationSchema.class {}
LocationSchema.setClass(Location);
