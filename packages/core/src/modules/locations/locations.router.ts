import { router } from '../../trpc/init.ts';
import { getLocationProcedure } from './procedures/get-location.ts';
import { listLocationsProcedure } from './procedures/list-locations.ts';

export const locationsRouter = router({
  list: listLocationsProcedure,
  get: getLocationProcedure,
});
