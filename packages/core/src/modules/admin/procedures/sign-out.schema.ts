import { z } from 'zod';

export const ZSignOutInput = z.void();
export const ZSignOutOutput = z.object({ signed_out: z.literal(true) });
export type TSignOutOutput = z.infer<typeof ZSignOutOutput>;
