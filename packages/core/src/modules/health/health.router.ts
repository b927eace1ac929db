import { router } from '../../trpc/init.ts';
import { getHealthProcedure } from './procedures/get-health.ts';

export const healthRouter = router({
  get: getHealthProcedure,
});
