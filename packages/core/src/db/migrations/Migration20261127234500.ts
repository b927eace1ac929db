import { Migration } from '@mikro-orm/migrations';

/** `near` + `radius_km`: the tenant's locations are narrowed by a latitude/longitude box before haversine decides. */
export class Migration20261127234500 extends Migration {
  override name = 'Migration20261127234500';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "locations_tenant_coordinates_idx" on "locations" ("tenant_id", "latitude", "longitude") where "latitude" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "locations_tenant_coordinates_idx";`);
  }
}
