import { z } from 'zod';
import { MAX_DB_ID } from '../../../lib/query.ts';
import { ZCandidateExport } from '../candidate-export.dto.ts';

export const ZExportPersonInput = z.object({ candidate_id: z.number().int().min(1).max(MAX_DB_ID) });
export const ZExportPersonOutput = z.object({ data: ZCandidateExport });
