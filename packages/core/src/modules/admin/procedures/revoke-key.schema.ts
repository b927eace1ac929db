import { z } from 'zod';
import { ZAdminApiKey } from '../admin.schema.ts';
import { MAX_DB_ID } from '../../../lib/query.ts';

export const ZRevokeKeyInput = z.object({ id: z.number().int().min(1).max(MAX_DB_ID) });
export type TRevokeKeyInput = z.infer<typeof ZRevokeKeyInput>;

export const ZRevokeKeyOutput = z.object({ key: ZAdminApiKey });
export type TRevokeKeyOutput = z.infer<typeof ZRevokeKeyOutput>;
