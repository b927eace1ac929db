import type { TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { storeCanonicalUrl } from './canonical-url.repository.ts';
import { MAX_CANONICAL_URL_LENGTH } from './canonical-url.schema.ts';

/** The parsed URL's host (with a non-default port, if any) is the career-site domain or one of the tenant's domains. */
function isTenantHost(url: URL, tenant: TTenantContext): boolean {
  const host = url.host.toLowerCase();
  const allowed = [tenant.careerSiteDomain, ...tenant.domains].filter((domain): domain is string => !!domain);
  return allowed.some((domain) => domain.toLowerCase() === host);
}

/**
 * Records where the career site shows a vacancy: a URL on one of the tenant's hosts (422), of a visible vacancy (404).
 * The URL is judged and stored as a browser parses it (`new URL(v).href`): whatever the text looks like (a `\@`, quotes,
 * angle brackets), what is served is the normalized URL on the host that was checked.
 */
export async function reportCanonicalUrl(
  ctx: { db: TDb; tenant: TTenantContext },
  slug: string,
  url: string,
): Promise<{ slug: string; url: string }> {
  // Validation rules (422) that need only the tenant, so they come before existence (404).
  const parsed = new URL(url);
  if (!isTenantHost(parsed, ctx.tenant)) {
    throw AppError.validation({ url: ["The url host must be the tenant's career site domain or one of its domains."] });
  }
  const normalized = parsed.href;
  if (normalized.length > MAX_CANONICAL_URL_LENGTH)
    throw AppError.validation({ url: [`The url must not be greater than ${MAX_CANONICAL_URL_LENGTH} characters.`] });
  const updated = await storeCanonicalUrl(ctx.db, slug, normalized);
  if (!updated) throw new AppError('NOT_FOUND');
  return { slug: updated.slug, url: normalized };
}
