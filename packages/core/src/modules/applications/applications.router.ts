import { router } from '../../trpc/init.ts';
import { createApplicationProcedure } from './procedures/create-application.ts';

export const applicationsRouter = router({
  create: createApplicationProcedure,
});
