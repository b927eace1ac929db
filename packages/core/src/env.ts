import { z } from 'zod';

const ZEnv = z.object({
  DATABASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Connections per process in the database pool. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Port of the embedded PostgreSQL that `pnpm start` runs when DATABASE_URL is unset. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
});
export type TEnv = z.infer<typeof ZEnv>;

let cached: TEnv | undefined;

/** The environment of the core package, validated once. */
export function coreEnv(): TEnv {
  if (!cached) {
    const parsed = ZEnv.safeParse(process.env);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(`Invalid environment: ${first?.path.join('.')}: ${first?.message}`);
    }
    cached = parsed.data;
  }
  return cached;
}
