/** `@careers/core`: what the REST facade and every deployment unit (API, worker, admin server) stand on. */
export { appRouter, listProcedures, type TAppRouter } from './trpc/router.ts';
export { createCallerFactory, toAppError, type TMeta } from './trpc/init.ts';
export { replayedAnswerOf } from './trpc/procedures.ts';
export { documentedErrors, type TOperationErrors } from './trpc/operation-errors.ts';
export { createContext, type TContext, type TAdminSession } from './trpc/context.ts';
export { SerializedAnswer } from './modules/content/serialized-answer.ts';
export { createCoreServices, type TCoreServices } from './services.ts';
export {
  AppError,
  isAppError,
  RETRY_AFTER_SECONDS,
  type TAppErrorCode,
  type TErrorBody,
  type TFieldErrors,
} from './lib/errors.ts';
export { fieldErrorsFromZod } from './lib/validation.ts';
export { createLogger, describeError, lazyChild, type Logger } from './lib/logger.ts';
export { createMetrics, type TMetrics } from './lib/metrics.ts';
export { DEFAULT_METRICS_HOST, startMetricsServer, type TMetricsServer } from './lib/metrics-server.ts';
export { MAX_JSON_DEPTH, MAX_JSON_VALUES, UnparsedJsonBody } from './lib/json-body.ts';
export { API_DB_TIMEOUTS, openOrm, ormConfig, poolOf, type TOrm } from './db/orm.ts';
export { migrateUp, assertSchemaCurrent } from './db/migrate.ts';
export { startEmbeddedPostgres, freePort } from './db/embedded.ts';
export { coreEnv, parseEnv } from './env.ts';
export { announceListening, openDeploymentOrm, stopGracefullyOnSignal } from './runtime/boot.ts';
export { API_NODE_FLAGS, WORKER_NODE_FLAGS } from './runtime/node-flags.ts';
export { corsAllowed, requireActiveKey, type TKeyVerification } from './modules/api-keys/api-key.verifier.ts';
export { isPublishableScope } from './modules/api-keys/api-key.origins.ts';
export { requestIdOf, trustProxySetting } from './lib/http-request.ts';
export { clientAddressGroup } from './modules/rate-limits/client-address.ts';
