import { z } from 'zod';
import { ZAdminApiKey, ZScope } from '../admin.schema.ts';
import { SCOPES } from '../../../lib/scopes.ts';
import { zString } from '../../../lib/validation.ts';

export const ZCreateKeyInput = z.object({
  name: zString().trim().min(1).max(255),
  /** Duplicates are dropped; an empty list makes a key that can only call /health. */
  scopes: z
    .array(ZScope)
    .max(SCOPES.length * 2)
    .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope))),
  /** A publishable key (pk_live_…) for a career site in the browser: public scopes only, bound to `origins`. */
  kind: z.enum(['secret', 'publishable']).default('secret'),
  /** Allowed origins of a publishable key (checked and normalised by the service, like the CLI's). */
  origins: z.array(zString().max(300)).max(100).optional(),
});
export type TCreateKeyInput = z.input<typeof ZCreateKeyInput>;

export const ZCreateKeyOutput = z.object({
  key: ZAdminApiKey,
  /** The full key: shown once, never stored. */
  plaintext: z.string(),
});
export type TCreateKeyOutput = z.infer<typeof ZCreateKeyOutput>;
