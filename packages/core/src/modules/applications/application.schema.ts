import { isIP } from 'node:net';
import { z } from 'zod';
import { DOCUMENT_TYPES } from './application.entity.ts';
import { base64DecodedLength, decodeBase64Strict } from './base64.ts';
import { zString } from '../../lib/validation.ts';
import { ZValidOutput, zValidateOnly } from '../../lib/query.ts';
import { ZConsents, ZConsentsInput } from '../privacy/consents.ts';

/** What POST /applications takes and answers (its procedure's input and output). */

/** 10 MB of decoded file content. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ADDITIONAL_DOCUMENTS = 5;

/** Laravel's `required` also fails on null (zod's wording would be "must be a string/object"). */
const requiredOnNull = (issue: { input?: unknown }) =>
  issue.input === null ? 'The :attribute field is required.' : undefined;

// Laravel trims strings and treats an empty one as absent: '' fails `required`, and optional fields ignore it.
const zRequiredText = (max: number) => zString({ error: requiredOnNull }).trim().min(1).max(max);
const zOptionalText = (max: number) =>
  zString()
    .trim()
    .max(max)
    .transform((value) => value || null)
    .nullish();

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(value) || !URL.canParse(value)) return false;
  return new URL(value).hostname !== '';
}

const zOptionalHttpUrl = (max: number) =>
  zString()
    .trim()
    .max(max)
    .refine((value) => value === '' || isHttpUrl(value), { message: 'The :attribute must be a valid URL.' })
    .transform((value) => value || null)
    .nullish();

/** Base64 file content, decoded strictly; the size is checked before decoding. */
const zBase64File = zString({ error: requiredOnNull })
  .min(1)
  .transform((text, ctx) => {
    const size = base64DecodedLength(text);
    if (size !== undefined && size > MAX_DOCUMENT_BYTES) {
      ctx.addIssue({
        code: 'custom',
        message: `The :attribute must not be greater than ${MAX_DOCUMENT_BYTES / 1024} kilobytes.`,
      });
      return z.NEVER;
    }
    const bytes = decodeBase64Strict(text);
    if (!bytes) {
      ctx.addIssue({ code: 'custom', message: 'The :attribute must be valid base64.' });
      return z.NEVER;
    }
    return bytes;
  })
  .describe('File content, base64 (standard alphabet with padding); at most 10 MB decoded');

const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;

const ZDocument = z.object({
  filename: zRequiredText(255),
  content: zBase64File,
  mime_type: zRequiredText(255)
    .regex(MIME_TYPE, { message: 'The :attribute format is invalid.' })
    .describe('e.g. application/pdf'),
});

export const ZCreateApplicationInput = z.object({
  // Not zString: a slug with NUL or an unpaired surrogate names no vacancy (404 VACANCY_NOT_FOUND, CONTRACT), not a 422.
  vacancy: z
    .union([z.number().int(), z.string({ error: requiredOnNull }).trim().min(1).max(255)], {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? 'The :attribute field is required.'
          : 'The :attribute must be a string or an integer.',
    })
    .describe('The vacancy slug (string) or id (integer)'),
  candidate: z.object(
    {
      given_name: zRequiredText(255),
      family_name: zRequiredText(255),
      email: zRequiredText(255).pipe(z.email()),
      linkedin_url: zOptionalHttpUrl(2048),
      mobile_phone: zOptionalText(64),
      fixed_phone: zOptionalText(64),
    },
    { error: requiredOnNull },
  ),
  documents: z
    .object({
      resume: ZDocument.nullish(),
      cover_letter: ZDocument.nullish(),
      additional: z.array(ZDocument).max(MAX_ADDITIONAL_DOCUMENTS).nullish(),
    })
    .nullish(),
  privacy_policy_accepted: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false)
    .describe('Whether the candidate accepted the privacy policy (default false)'),
  consents: ZConsentsInput,
  tracking: z
    .object({
      ip_address: zString()
        .trim()
        .max(45)
        .refine((value) => value === '' || isIP(value) !== 0, { message: 'The :attribute must be a valid IP address.' })
        .transform((value) => value || null)
        .nullish(),
      user_agent: zOptionalText(1024),
      referrer: zOptionalHttpUrl(2048),
    })
    .nullish(),
  answers: z
    .record(z.string(), z.unknown(), { error: 'The :attribute must be an object.' })
    .nullish()
    .describe(
      "Extension: answers to the vacancy's questions by key: a string (text, textarea, single_select), a number, a boolean, or an array of option values (multi_select)",
    ),
  validate_only: zValidateOnly,
});
export type TCreateApplicationInput = z.output<typeof ZCreateApplicationInput>;
export type TApplicationDocumentInput = z.output<typeof ZDocument>;

const ZAnswer = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const ZApplicationCreated = z.object({
  data: z.object({
    id: z.number().int(),
    vacancy: z.object({ id: z.number().int(), slug: z.string(), title: z.string() }),
    candidate: z.object({
      id: z.number().int(),
      given_name: z.string(),
      family_name: z.string(),
      email: z.string().nullable(),
    }),
    documents: z.array(
      z.object({
        type: z.enum(DOCUMENT_TYPES),
        filename: z.string(),
        mime_type: z.string(),
        size: z.number().int().describe('Decoded size in bytes'),
      }),
    ),
    privacy_policy_accepted: z.boolean(),
    consents: ZConsents.describe(
      'Extension (privacy): the consents as stored, with when they were given and under which policy version',
    ),
    answers: z
      .record(z.string(), ZAnswer)
      .describe('Extension: the answers as validated (only the questions answered)'),
    created_at: z.string().describe('ISO-8601, UTC'),
  }),
});
export type TApplicationResponse = z.infer<typeof ZApplicationCreated>;
/** 201 with the application, or 200 `Valid.` for `validate_only=true`. */
export const ZApplicationResponse = z.union([ZApplicationCreated, ZValidOutput]);
