import { z } from 'zod';

export const ZSetApiAccessInput = z.object({ enabled: z.boolean() });
export type TSetApiAccessInput = z.infer<typeof ZSetApiAccessInput>;

export const ZSetApiAccessOutput = z.object({ api_enabled: z.boolean() });
export type TSetApiAccessOutput = z.infer<typeof ZSetApiAccessOutput>;
