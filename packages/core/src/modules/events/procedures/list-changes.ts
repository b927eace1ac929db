import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { listChanges } from '../change-feed.service.ts';
import { ZListChangesInput, ZListChangesOutput, listChangesMeta } from './list-changes.schema.ts';

// No scope in the middleware: which entries a key may read depends on its scopes (the service checks them).
export const listChangesProcedure = apiKeyProcedure()
  .meta(listChangesMeta)
  .input(ZListChangesInput)
  .output(ZListChangesOutput)
  .query(({ ctx, input }) => listChanges(ctx, input));
