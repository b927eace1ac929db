import { z } from 'zod';
import { ZAdminTenant, ZAdminUser } from '../admin.schema.ts';
import { zString } from '../../../lib/validation.ts';

export const ZSignInInput = z.object({
  email: zString().trim().min(1).max(255),
  password: zString().min(1).max(1024),
});
export type TSignInInput = z.infer<typeof ZSignInInput>;

/** The session token itself travels only in the httpOnly cookie, never in the body. */
export const ZSignInOutput = z.object({ user: ZAdminUser, tenant: ZAdminTenant, expires_at: z.string() });
export type TSignInOutput = z.infer<typeof ZSignInOutput>;
