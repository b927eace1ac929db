import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { describeApiKey } from '../api-key.service.ts';
import { ZGetMeInput, ZGetMeOutput, getMeMeta } from './get-me.schema.ts';

export const getMeProcedure = apiKeyProcedure()
  .meta(getMeMeta)
  .input(ZGetMeInput)
  .output(ZGetMeOutput)
  .query(async ({ ctx }) => ({
    data: await describeApiKey(ctx, { tenant: ctx.tenant, apiKey: ctx.apiKey, clientIp: ctx.clientIp }),
  }));
