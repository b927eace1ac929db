import { TRPCError } from '@trpc/server';
import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { toAppError } from '../../../trpc/init.ts';
import { VALID_OUTPUT } from '../../../lib/query.ts';
import { answerErrorsOf, submitApplication, validateApplication } from '../application.service.ts';
import { toApplicationResponse } from '../application.dto.ts';
import { ZApplicationResponse, ZCreateApplicationInput, createApplicationMeta } from './create-application.schema.ts';

export const createApplicationProcedure = apiKeyProcedure({ idempotent: true })
  .meta(createApplicationMeta)
  // One 422 lists every invalid field: when the body fails validation, the answers are checked against the
  // questions of the vacancy it names (if that one is visible) and their errors join the body's.
  .use(async ({ ctx, getRawInput, next }) => {
    const result = await next();
    if (result.ok || !(result.error instanceof TRPCError) || result.error.code !== 'BAD_REQUEST') return result;
    const invalid = toAppError(result.error);
    if (invalid.code !== 'VALIDATION_FAILED') return result;
    const answerErrors = await answerErrorsOf(ctx.em, ctx.tenant.id, await getRawInput());
    if (Object.keys(answerErrors).length === 0) return result;
    throw AppError.validation({ ...invalid.fieldErrors, ...answerErrors });
  })
  .input(ZCreateApplicationInput)
  .output(ZApplicationResponse)
  .mutation(async ({ ctx, input }) => {
    const key = { tenantId: ctx.tenant.id, apiKeyId: ctx.apiKey.id };
    if (input.validate_only) {
      await validateApplication(ctx.em, key, input);
      ctx.response.status = 200;
      return VALID_OUTPUT;
    }
    return toApplicationResponse(await submitApplication(ctx.em, key, input));
  });
