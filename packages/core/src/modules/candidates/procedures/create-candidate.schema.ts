import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { RESUME_MIME_TYPES } from '../../resumes/resume-file.ts';
import { zString } from '../../../lib/validation.ts';
import { ZValidOutput, zValidateOnly } from '../../../lib/query.ts';

/** 10 MB = 10 × 1024 × 1024 decoded bytes (CONTRACT). */
export const MAX_RESUME_BYTES = 10 * 1024 * 1024;

export const createCandidateMeta = {
  openapi: {
    method: 'POST',
    path: '/candidates',
    tags: ['Candidates'],
    summary: 'Create a candidate from a resume (asynchronous)',
    description:
      'Stores the resume and queues it for processing; answers 202 with a `processing_id` at once. A worker then reads the file ' +
      '(PDF, DOC or DOCX, at most 10 MB decoded), finds the name, email and phone, and creates a candidate (status `potential`) ' +
      'associated with `user_id` — or updates the candidate of the tenant that already has that email — plus an intake when ' +
      '`create_intake` is true. Follow the outcome with GET /candidates/processing/{processing_id}. ' +
      '500 `PROCESSING_FAILED` when the resume could not be stored or queued. Accepts an `Idempotency-Key` header (extension).',
    protect: true,
  },
  scope: 'candidates:write',
  rateLimit: 'candidates.create',
  successStatus: 202,
  queryParameters: ['validate_only'],
  errors: ['PROCESSING_FAILED'],
  idempotent: true,
} satisfies TMeta;

const INVALID_BASE64 = 'The :attribute must be valid base64.';
/** The alphabet and padding of standard base64 (RFC 4648 §4). A flat class: linear even on 14 MB of text. */
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/** Strict base64: padded, no whitespace, canonical (it re-encodes to itself); at most 10 MB decoded. */
const ZResumeContent = zString()
  .min(1)
  .refine((value) => value.length % 4 === 0 && BASE64_CHARACTERS.test(value), { error: INVALID_BASE64, abort: true })
  .refine((value) => decodedLength(value) <= MAX_RESUME_BYTES, {
    error: `The :attribute must not be greater than ${MAX_RESUME_BYTES / 1024} kilobytes.`,
    abort: true,
  })
  .transform((value, ctx) => {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.toString('base64') !== value) {
      ctx.addIssue({ code: 'custom', message: INVALID_BASE64, input: value });
      return z.NEVER;
    }
    return bytes;
  })
  .describe('The file, base64 encoded (standard alphabet, padded); at most 10 MB decoded');

const ZResumeMimeType = zString()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(RESUME_MIME_TYPES, { error: 'The selected :attribute is invalid.' }))
  .describe(`One of ${RESUME_MIME_TYPES.join(', ')} (case-insensitive)`);

export const ZCreateCandidateInput = z.object({
  user_id: z.int().describe('The user of the tenant to associate the candidate with'),
  resume: z.object({
    filename: zString().min(1).max(255).describe('The file name, e.g. `jane-doe.pdf`'),
    content: ZResumeContent,
    mime_type: ZResumeMimeType,
  }),
  create_intake: z.boolean().optional().describe('Also create an intake for the candidate (default false)'),
  validate_only: zValidateOnly,
});
export type TCreateCandidateInput = z.infer<typeof ZCreateCandidateInput>;

export const ZCandidateAccepted = z.object({
  message: z.literal('Resume accepted for processing.'),
  processing_id: z.uuid().describe('Follow it with GET /candidates/processing/{processing_id}'),
});
/** 202 with the processing id, or 200 `Valid.` for `validate_only=true`. */
export const ZCreateCandidateOutput = z.union([ZCandidateAccepted, ZValidOutput]);
export type TCreateCandidateOutput = z.infer<typeof ZCreateCandidateOutput>;
