import { router, type TMeta } from './init.ts';
import { healthRouter } from '../modules/health/health.router.ts';
import { vacanciesRouter } from '../modules/vacancies/vacancies.router.ts';
import { adminRouter } from '../modules/admin/admin.router.ts';
import { locationsRouter } from '../modules/locations/locations.router.ts';
import { teamRouter } from '../modules/team/team.router.ts';
import { articlesRouter } from '../modules/articles/articles.router.ts';
import { candidatesRouter } from '../modules/candidates/candidates.router.ts';
import { applicationsRouter } from '../modules/applications/applications.router.ts';
import { eventsRouter } from '../modules/events/events.router.ts';
import { apiKeysRouter } from '../modules/api-keys/api-keys.router.ts';

/** Every procedure of the product: served as REST (those with openapi meta) and over tRPC (admin). */
export const appRouter = router({
  health: healthRouter,
  apiKeys: apiKeysRouter,
  vacancies: vacanciesRouter,
  admin: adminRouter,
  locations: locationsRouter,
  team: teamRouter,
  articles: articlesRouter,
  candidates: candidatesRouter,
  applications: applicationsRouter,
  events: eventsRouter,
});

export type TAppRouter = typeof appRouter;

/** Every procedure's path and meta (the REST facade and the OpenAPI document are built from these). */
export function listProcedures(): Array<{ procedurePath: string; meta: TMeta | undefined }> {
  return Object.entries(appRouter._def.procedures as Record<string, unknown>).map(([procedurePath, procedure]) => ({
    procedurePath,
    meta: (procedure as { _def: { meta?: TMeta } })._def.meta,
  }));
}
