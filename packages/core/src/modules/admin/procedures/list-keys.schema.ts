import { z } from 'zod';
import { ZAdminApiKey } from '../admin.schema.ts';

export const ZListKeysInput = z.void();
export const ZListKeysOutput = z.object({ data: z.array(ZAdminApiKey) });
export type TListKeysOutput = z.infer<typeof ZListKeysOutput>;
