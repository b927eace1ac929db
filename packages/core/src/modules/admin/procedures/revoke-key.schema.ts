import { z } from 'zod';
import { ZAdminApiKey } from '../admin.schema.ts';

export const ZRevokeKeyInput = z.object({ id: z.number().int().min(1).max(2_147_483_647) });
export type TRevokeKeyInput = z.infer<typeof ZRevokeKeyInput>;

export const ZRevokeKeyOutput = z.object({ key: ZAdminApiKey });
export type TRevokeKeyOutput = z.infer<typeof ZRevokeKeyOutput>;
