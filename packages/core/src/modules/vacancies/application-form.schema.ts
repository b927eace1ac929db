import { z } from 'zod';
import { zLanguage } from '../../lib/query.ts';
import { QUESTION_TYPES } from './vacancy-question.ts';

/** What GET /vacancies/{slug}/application-form takes and answers (its procedure's input and output). */

export const ZGetApplicationFormInput = z.object({
  slug: z.string().describe('The publication slug'),
  language: zLanguage.optional().describe('Language of the labels (2 letters)'),
});
export type TGetApplicationFormInput = z.infer<typeof ZGetApplicationFormInput>;

export const FORM_FIELD_TYPES = [...QUESTION_TYPES, 'email', 'phone', 'url', 'file'] as const;

export const ZFormField = z.object({
  key: z
    .string()
    .describe('The body path of a standard field (`candidate.email`), or the key of a question in `answers`'),
  label: z.string(),
  type: z
    .enum(FORM_FIELD_TYPES)
    .describe('`email`, `phone`, `url` and `file` (a document object) are standard fields only'),
  required: z.boolean(),
  options: z
    .array(z.object({ value: z.string(), label: z.string() }))
    .optional()
    .describe('The choices of a select question'),
  max_length: z.number().int().optional().describe('Most characters of a text value'),
});
export type TFormField = z.infer<typeof ZFormField>;

export const ZApplicationForm = z.object({
  data: z.object({
    vacancy: z.object({ id: z.number().int(), slug: z.string() }),
    fields: z.array(ZFormField),
  }),
});
export type TApplicationForm = z.infer<typeof ZApplicationForm>;
