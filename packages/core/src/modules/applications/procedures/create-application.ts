import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { VALID_OUTPUT } from '../../../lib/query.ts';
import { answerErrorsOf, submitApplication, validateApplication } from '../application.service.ts';
import { createApplicationMeta } from './create-application.schema.ts';
import { ZApplicationResponse, ZCreateApplicationInput } from '../application.schema.ts';

export const createApplicationProcedure = apiKeyProcedure()
  .meta(createApplicationMeta)
  // One 422 lists every invalid field: when the body fails validation, the answers are checked against the
  // questions of the vacancy it names (if that one is visible) and their errors join the body's.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => answerErrorsOf(ctx, await getRawInput())),
  )
  .input(ZCreateApplicationInput)
  .output(ZApplicationResponse)
  .mutation(async ({ ctx, input }) => {
    if (input.validate_only) {
      await validateApplication(ctx, input);
      ctx.response.status = 200;
      return VALID_OUTPUT;
    }
    return submitApplication(ctx, input);
  });
