import { initTRPC } from '@trpc/server';
import type { TContext } from './context.ts';
import { toAppError } from '../lib/to-app-error.ts';

export { toAppError };
import type { TMeta } from '../modules/operation-meta.ts';

export type { TMeta };

const t = initTRPC
  .context<TContext>()
  .meta<TMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        ...shape,
        message: appError.message,
        data: {
          ...shape.data,
          stack: undefined,
          httpStatus: appError.status,
          appCode: appError.code,
          body: appError.toBody(),
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
