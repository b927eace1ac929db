import type { TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { storeCanonicalUrl } from './canonical-url.repository.ts';

/** The URL's host (with a non-default port, if any) is the career-site domain or one of the tenant's domains. */
function isTenantHost(url: string, tenant: TTenantContext): boolean {
  const host = new URL(url).host.toLowerCase();
  const allowed = [tenant.careerSiteDomain, ...tenant.domains].filter((domain): domain is string => !!domain);
  return allowed.some((domain) => domain.toLowerCase() === host);
}

/** Records where the career site shows a vacancy: a URL on one of the tenant's hosts (422), of a visible vacancy (404). */
export async function reportCanonicalUrl(ctx: { db: TDb; tenant: TTenantContext }, slug: string, url: string): Promise<{ slug: string }> {
  // A validation rule (422) that needs only the tenant, so it comes before existence (404).
  if (!isTenantHost(url, ctx.tenant)) {
    throw AppError.validation({ url: ["The url host must be the tenant's career site domain or one of its domains."] });
  }
  const updated = await storeCanonicalUrl(ctx.db, slug, url);
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}
