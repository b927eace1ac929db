import { z } from 'zod';
import { MAX_DB_ID } from '../../../lib/query.ts';

export const ZErasePersonInput = z.object({ candidate_id: z.number().int().min(1).max(MAX_DB_ID) });
export const ZErasePersonOutput = z.object({
  erased_candidates: z.number().int(),
  erased_applications: z.number().int(),
});
