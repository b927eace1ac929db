import { router } from '../../trpc/init.ts';
import { listChangesProcedure } from './procedures/list-changes.ts';

export const eventsRouter = router({
  listChanges: listChangesProcedure,
});
