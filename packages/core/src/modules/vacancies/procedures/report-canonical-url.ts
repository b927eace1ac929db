import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import type { TTenantContext } from '../../api-keys/api-key.verifier.ts';
import { visibleVacancy } from '../vacancy-visibility.ts';
import { ZReportCanonicalUrlInput, ZReportCanonicalUrlOutput, reportCanonicalUrlMeta } from './report-canonical-url.schema.ts';
import { isStorableText } from '../../../lib/validation.ts';

/** The URL's host (with a non-default port, if any) is the career-site domain or one of the tenant's domains. */
function isTenantHost(url: string, tenant: TTenantContext): boolean {
  const host = new URL(url).host.toLowerCase();
  const allowed = [tenant.careerSiteDomain, ...tenant.domains].filter((domain): domain is string => !!domain);
  return allowed.some((domain) => domain.toLowerCase() === host);
}

export const reportCanonicalUrlProcedure = apiKeyProcedure()
  .meta(reportCanonicalUrlMeta)
  .input(ZReportCanonicalUrlInput)
  .output(ZReportCanonicalUrlOutput)
  .mutation(async ({ ctx, input }) => {
    // A validation rule (422) that needs only the tenant, so it comes before existence (404).
    if (!isTenantHost(input.url, ctx.tenant)) {
      throw AppError.validation({ url: ["The url host must be the tenant's career site domain or one of its domains."] });
    }
    // PostgreSQL text never holds NUL (it refuses it as a parameter), so such a slug names nothing.
    const updated = !isStorableText(input.slug)
      ? undefined
      : await ctx.db
          .updateTable('vacancies')
          .set({ canonical_url: input.url })
          .where('slug', '=', input.slug)
          .where(visibleVacancy('vacancies'))
          .returning('slug')
          .executeTakeFirst();
    if (!updated) throw new AppError('NOT_FOUND');
    return { message: 'Canonical URL stored.' as const, data: { publication_slug: updated.slug, url: input.url } };
  });
