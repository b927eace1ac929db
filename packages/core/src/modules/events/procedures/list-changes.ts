import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { listChanges, readableChangeTypes } from '../change-feed.service.ts';
import { ZListChangesInput, ZListChangesOutput, listChangesMeta } from './list-changes.schema.ts';

// Which entries a key may read depends on its scopes: at least one of them is checked here, before input
// validation (CONTRACT's order); types[] asking for an unreadable type is checked by the service.
export const listChangesProcedure = apiKeyProcedure()
  .use(({ ctx, next }) => {
    readableChangeTypes(ctx.apiKey.scopes);
    return next();
  })
  .meta(listChangesMeta)
  .input(ZListChangesInput)
  .output(ZListChangesOutput)
  .query(({ ctx, input }) => listChanges(ctx, input));
