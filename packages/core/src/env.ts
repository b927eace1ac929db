import { z } from 'zod';

/**
 * The key that encrypts webhook secrets when WEBHOOK_SECRET_KEY is unset: used only under NODE_ENV=test and with
 * the embedded development database of `pnpm start` (127.0.0.1 on EMBEDDED_PG_PORT). Never in production.
 */
export const DEV_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 'careers-dev-webhook-secret-key!!').toString('base64');

const ZFlag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

const ZEnv = z.object({
  DATABASE_URL: z.string().url().optional(),
  /**
   * A streaming replica for the cached public reads (optional): content-cache misses are computed there when it
   * has replayed the tenant's current content version, else on DATABASE_URL (see db/read-replica.ts).
   */
  DATABASE_READ_URL: z.string().url().optional(),
  /**
   * The database URLs go through a transaction-pooling PgBouncer, which refuses the startup parameters that
   * carry session settings (statement_timeout, options): none are sent; give the role those settings instead
   * (`ALTER ROLE … SET`, see docs/operations.md).
   */
  DB_TRANSACTION_POOLING: ZFlag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Connections per process in the database pool. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Port of the embedded PostgreSQL that `pnpm start` runs when DATABASE_URL is unset. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  NODE_ENV: z.string().optional(),
  /** 32 random bytes, base64: encrypts webhook endpoint secrets at rest (AES-256-GCM). */
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine(
      (value) => Buffer.from(value, 'base64').length === 32,
      'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
    )
    .optional(),
  /** Development and tests only: lets webhooks go to http:// URLs and loopback addresses. */
  WEBHOOK_ALLOW_INSECURE_LOCAL: ZFlag.default(false),
});
export type TEnv = z.infer<typeof ZEnv>;

/** Reads a package's environment with its zod schema; a bad value stops the start with a clear line. */
export function parseEnv<T extends z.ZodType>(schema: T, source: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`Invalid environment: ${first?.path.join('.')}: ${first?.message}`);
  }
  return parsed.data;
}

let cached: TEnv | undefined;

/** The environment of the core package, validated once. */
export function coreEnv(): TEnv {
  cached ??= parseEnv(ZEnv);
  return cached;
}

/** The key that encrypts webhook secrets, or undefined when none is configured (webhooks are then unavailable). */
export function webhookSecretKey(): Buffer | undefined {
  const env = coreEnv();
  const key =
    env.WEBHOOK_SECRET_KEY ??
    (env.NODE_ENV === 'test' || isEmbeddedDevDatabase(env) ? DEV_WEBHOOK_SECRET_KEY : undefined);
  return key === undefined ? undefined : Buffer.from(key, 'base64');
}

/** Is DATABASE_URL the embedded development database that `pnpm start` runs? */
function isEmbeddedDevDatabase(env: TEnv): boolean {
  if (!env.DATABASE_URL) return false;
  const url = new URL(env.DATABASE_URL);
  return ['127.0.0.1', 'localhost'].includes(url.hostname) && Number(url.port) === env.EMBEDDED_PG_PORT;
}
