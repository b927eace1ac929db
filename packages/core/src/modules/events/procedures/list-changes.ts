import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { listChanges } from '../events.service.ts';
import { ZListChangesInput, ZListChangesOutput, listChangesMeta } from './list-changes.schema.ts';

// Which entries a key may read depends on its scopes: the meta's `scope` + `otherScopes` let the middleware check
// that it holds one of them, before input validation; types[] asking for an unreadable type is checked by the service.
export const listChangesProcedure = apiKeyProcedure()
  .meta(listChangesMeta)
  .input(ZListChangesInput)
  .output(ZListChangesOutput)
  .query(({ ctx, input }) => listChanges(ctx, input));
