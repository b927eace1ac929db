import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { VALID_OUTPUT } from '../../../lib/query.ts';
import { answerErrorsOf, submitApplication, validateApplication, type TApplicant } from '../application.service.ts';
import type { TTenantContext } from '../../api-keys/api-key.verifier.ts';
import { createApplicationMeta } from './create-application.schema.ts';
import { ZApplicationResponse, ZCreateApplicationInput } from '../application.schema.ts';

/** Who applies: the key's tenant (with its privacy settings) and the key. */
const applicantOf = (ctx: { tenant: TTenantContext; apiKey: { id: number } }): TApplicant => ({
  tenantId: ctx.tenant.id,
  apiKeyId: ctx.apiKey.id,
  privacy: ctx.tenant.privacy,
});

export const createApplicationProcedure = apiKeyProcedure()
  .meta(createApplicationMeta)
  // One 422 lists every invalid field: when the body fails validation, the answers are checked against the
  // questions of the vacancy it names (if that one is visible) and their errors join the body's.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => answerErrorsOf(ctx.em, applicantOf(ctx), await getRawInput())),
  )
  .input(ZCreateApplicationInput)
  .output(ZApplicationResponse)
  .mutation(async ({ ctx, input }) => {
    const key = applicantOf(ctx);
    if (input.validate_only) {
      await validateApplication(ctx.em, key, input);
      ctx.response.status = 200;
      return VALID_OUTPUT;
    }
    return submitApplication(ctx.em, key, input, ctx.idempotency);
  });
