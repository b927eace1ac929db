import { z } from 'zod';
import { SCOPES } from '../../lib/scopes.ts';

/** Response shapes the dashboard's procedures share. */
export const ZAdminUser = z.object({ id: z.number().int(), name: z.string(), email: z.string(), role: z.string() });
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const ZAdminTenant = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  default_language: z.string(),
  api_enabled: z.boolean(),
});
export type TAdminTenant = z.infer<typeof ZAdminTenant>;

export const ZAdminApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the key, to recognise it; the rest is never stored. */
  start: z.string(),
  /** `secret` (server to server) or `publishable` (a career site in the browser). */
  kind: z.enum(['secret', 'publishable']),
  scopes: z.array(z.string()),
  /** Allowed origins of a publishable key; null for a secret key. */
  origins: z.array(z.string()).nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type TAdminApiKey = z.infer<typeof ZAdminApiKey>;

/** A scope of SPEC.md (the legacy `*` is never handed out by the dashboard). */
export const ZScope = z.enum(SCOPES, { error: 'The selected :attribute is invalid.' });
