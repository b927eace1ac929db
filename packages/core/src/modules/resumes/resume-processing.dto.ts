import { z } from 'zod';
import { PROCESSING_STATUSES } from './resume-processing.entity.ts';
import { iso } from '../../lib/dates.ts';

export const ZResumeProcessing = z.object({
  processing_id: z.uuid(),
  status: z.enum(PROCESSING_STATUSES).describe('queued → processing → completed | failed'),
  candidate_id: z.number().int().nullable().describe('The candidate created or updated (when completed)'),
  intake_id: z.number().int().nullable().describe('The intake created (when completed with create_intake)'),
  error: z.string().nullable().describe('Why processing failed, in words (when failed)'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TResumeProcessingDto = z.infer<typeof ZResumeProcessing>;

export type TResumeProcessingRow = {
  id: string;
  status: string;
  candidate_id: number | null;
  intake_id: number | null;
  error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export function toResumeProcessingDto(row: TResumeProcessingRow): TResumeProcessingDto {
  return {
    processing_id: row.id,
    status: row.status as TResumeProcessingDto['status'],
    candidate_id: row.candidate_id,
    intake_id: row.intake_id,
    error: row.error,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
