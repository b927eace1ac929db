import { z } from 'zod';

export const ZFindPersonInput = z.object({ email: z.string().trim().min(3).max(255) });

export const ZFindPersonOutput = z.object({
  candidates: z.array(
    z.object({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      created_at: z.string(),
      applications: z.number().int(),
      documents: z.number().int(),
      resumes: z.number().int(),
    }),
  ),
});
export type TFindPersonOutput = z.infer<typeof ZFindPersonOutput>;
