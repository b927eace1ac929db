import { z } from 'zod';

export const ZListAuditLogInput = z.object({
  before: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const ZListAuditLogOutput = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      actor: z.string(),
      action: z.string(),
      subject: z.string().nullable(),
      details: z.record(z.string(), z.unknown()),
      created_at: z.string(),
    }),
  ),
  next_before: z.number().int().nullable(),
});
