import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { submitApplication } from '../application.service.ts';
import { toApplicationResponse } from '../application.dto.ts';
import { ZApplicationResponse, ZCreateApplicationInput, createApplicationMeta } from './create-application.schema.ts';

export const createApplicationProcedure = apiKeyProcedure({ idempotent: true })
  .meta(createApplicationMeta)
  .input(ZCreateApplicationInput)
  .output(ZApplicationResponse)
  .mutation(async ({ ctx, input }) =>
    toApplicationResponse(await submitApplication(ctx.em, { tenantId: ctx.tenant.id, apiKeyId: ctx.apiKey.id }, input)),
  );
