import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppError } from '@careers/core/bench';
import { parseQueryString } from '../../../apps/api/src/rest/query.ts';
import { ReferenceAuth } from './auth.ts';
import { errorAnswer, send, type TAnswer, type TRequest } from './http.ts';
import { getVacancy, listVacancies, ReferenceViews, vacancyFacets } from './vacancies.ts';
import { listArticles, listLocations } from './content.ts';
import { createApplication } from './applications.ts';

/**
 * The yardstick of `pnpm bench`: the benchmarked endpoints written by hand on node:http and pg, without a cache,
 * from the same database, answering the same JSON (it renders with the product's pure DTO mappers, so the
 * comparison measures the stack and the data access, not two ways of spelling a field). Never used by the product.
 */
export type TReferenceServer = { server: Server; pool: pg.Pool; close: () => Promise<void> };

/** Same pool size and session settings as the API (API_DB_TIMEOUTS: no parallel workers, 3 s statements). */
export function createReferenceServer(databaseUrl: string, options: { publicUrl?: string } = {}): TReferenceServer {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    statement_timeout: 3_000,
    options: '-c max_parallel_workers_per_gather=0',
  });
  const auth = new ReferenceAuth(pool);
  const views = new ReferenceViews(pool);
  const flushTimer = setInterval(() => {
    Promise.all([auth.flush(), views.flush()]).catch((error: unknown) =>
      console.error('reference flush failed', error),
    );
  }, 1_000);

  const route = async (request: TRequest): Promise<TAnswer> => {
    const method = request.req.method;
    const path = request.url.pathname;
    if (method === 'POST' && path === '/v1/applications') return createApplication(pool, auth, request);
    if (method !== 'GET') throw new AppError('METHOD_NOT_ALLOWED');
    const header = request.req.headers.authorization;
    if (path === '/v1/vacancies')
      return listVacancies(pool, await auth.authenticate(header, 'vacancies:read'), request);
    if (path === '/v1/vacancies/facets')
      return vacancyFacets(pool, await auth.authenticate(header, 'vacancies:read'), request);
    if (path === '/v1/locations')
      return listLocations(pool, await auth.authenticate(header, 'locations:read'), request);
    if (path === '/v1/articles') return listArticles(pool, await auth.authenticate(header, 'articles:read'), request);
    const slug = /^\/v1\/vacancies\/([^/]+)$/.exec(path)?.[1];
    if (slug)
      return getVacancy(
        pool,
        await auth.authenticate(header, 'vacancies:read'),
        request,
        decodeURIComponent(slug),
        views,
      );
    throw new AppError('NOT_FOUND');
  };

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    const base = options.publicUrl
      ? options.publicUrl.replace(/\/+$/, '')
      : `http://${req.headers.host ?? 'localhost'}`;
    const url = new URL(base + (req.url ?? '/'));
    route({ req, url, query: parseQueryString(url.search.slice(1)) }).then(
      (answer) => send(req, res, answer, requestId),
      (error: unknown) => {
        if (!(error instanceof AppError) || error.status >= 500) console.error('reference request failed', error);
        // The rest of an unread body is drained so the client reads the answer.
        req.resume();
        send(req, res, errorAnswer(error), requestId);
      },
    );
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
    pool,
    close: async () => {
      clearInterval(flushTimer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([auth.flush(), views.flush()]).catch(() => undefined);
      await pool.end();
    },
  };
}
