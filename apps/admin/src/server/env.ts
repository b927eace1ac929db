import { z } from 'zod';
import { parseEnv } from '@careers/core';

const ZAdminEnv = z.object({
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  HOST: z.string().default('0.0.0.0'),
  /** Express "trust proxy" setting, for X-Forwarded-* (and so Secure cookies) behind an https proxy. */
  TRUST_PROXY: z.string().optional(),
  /** How long SIGTERM waits for in-flight requests before closing. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});
export type TAdminEnv = z.infer<typeof ZAdminEnv>;

export function adminEnv(source: NodeJS.ProcessEnv = process.env): TAdminEnv {
  return parseEnv(ZAdminEnv, source);
}
