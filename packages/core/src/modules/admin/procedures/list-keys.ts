import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { listApiKeys } from '../../api-keys/api-key.service.ts';
import { ZListKeysInput, ZListKeysOutput } from './list-keys.schema.ts';

export const listKeysProcedure = adminProcedure
  .input(ZListKeysInput)
  .output(ZListKeysOutput)
  .query(async ({ ctx }) => ({ data: await listApiKeys(ctx) }));
