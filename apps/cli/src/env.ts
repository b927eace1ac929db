import { z } from 'zod';
import { parseEnv } from '@careers/core/env';

const ZPort = z.coerce.number().int().min(0).max(65535);

const ZCliEnv = z.object({
  /** The database of migrate, import, keys and webhooks (checked by the command that needs it). */
  DATABASE_URL: z.string().optional(),
  /** Where `pnpm careers` was started: relative file arguments resolve from there. */
  INIT_CWD: z.string().optional(),
  /** 1: unexpected errors print their stack. */
  CAREERS_DEBUG: z.string().optional(),
});

const ZStarterEnv = z.object({
  PORT: ZPort.default(3000),
  ADMIN_PORT: ZPort.default(3001),
  CAREER_SITE_PORT: ZPort.default(3002),
  /** Address every server binds to (127.0.0.1 when unset: only this machine). */
  HOST: z.string().min(1).optional(),
  /** Address of the metrics ports (127.0.0.1 when unset, whatever HOST says). */
  METRICS_HOST: z.string().min(1).optional(),
  /** Data directory of the embedded PostgreSQL (default .data/postgres in the repository). */
  EMBEDDED_PG_DATA_DIR: z.string().min(1).optional(),
});

/** The environment of the `careers` CLI. */
export const cliEnv = (): z.infer<typeof ZCliEnv> => parseEnv(ZCliEnv);

/** The ports and addresses `pnpm start` gives the API, the admin and the example career site. */
export const starterEnv = (): z.infer<typeof ZStarterEnv> => parseEnv(ZStarterEnv);
