import { router } from '../../trpc/init.ts';
import { getMeProcedure } from './procedures/get-me.ts';

export const apiKeysRouter = router({
  me: getMeProcedure,
});
