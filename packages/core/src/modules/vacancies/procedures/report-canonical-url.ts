import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { reportCanonicalUrl } from '../canonical-url.service.ts';
import { reportCanonicalUrlMeta } from './report-canonical-url.schema.ts';
import { ZReportCanonicalUrlInput, ZReportCanonicalUrlOutput } from '../canonical-url.schema.ts';

export const reportCanonicalUrlProcedure = apiKeyProcedure()
  .meta(reportCanonicalUrlMeta)
  .input(ZReportCanonicalUrlInput)
  .output(ZReportCanonicalUrlOutput)
  .mutation(async ({ ctx, input }) => {
    const stored = await reportCanonicalUrl(ctx, input.slug, input.url);
    return { message: 'Canonical URL stored.' as const, data: { publication_slug: stored.slug, url: stored.url } };
  });
