import { z } from 'zod';

/** The settings of `scripts/serve.ts` (what `pnpm start` passes it). */
export function serveEnv() {
  return z
    .object({
      CAREER_SITE_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
      CAREER_SITE_HOST: z.string().min(1).default('127.0.0.1'),
      CAREERS_API_URL: z.url(),
      CAREERS_KEY: z.string().min(20),
    })
    .parse(process.env);
}
