import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { ZGetHealthInput, ZGetHealthOutput, getHealthMeta } from './get-health.schema.ts';

export const getHealthProcedure = apiKeyProcedure()
  .meta(getHealthMeta)
  .input(ZGetHealthInput)
  .output(ZGetHealthOutput)
  .query(({ ctx }) => ({ status: 'authenticated' as const, tenant: ctx.tenant.slug }));
