import { z } from 'zod';
import type { TFieldErrors } from '../../lib/errors.ts';
import { fieldErrorsFromZod, zString } from '../../lib/validation.ts';
import type { TVacancyQuestion } from '../vacancies/vacancy-question.ts';

/** A validated answer: text, a number, a boolean, or the chosen option values of a multi_select. */
export type TAnswer = string | number | boolean | string[];
export type TAnswers = Record<string, TAnswer>;

const MAX_TEXT = 10_000;
const INVALID_OPTION = 'The selected :attribute is invalid.';

/** The rule for one question's value (present and not null; absence is handled by the caller). */
function answerSchema(question: TVacancyQuestion): z.ZodType<TAnswer> {
  const offered = new Set((question.options ?? []).map((option) => option.value));
  switch (question.type) {
    case 'text':
    case 'textarea': {
      const max = question.max_length ?? MAX_TEXT;
      return zString({ error: 'The :attribute must be a string.' })
        .trim()
        .max(max, { error: `The :attribute must not be greater than ${max} characters.` });
    }
    case 'number':
      return z.number({ error: 'The :attribute must be a number.' }).finite();
    case 'boolean':
      return z.boolean({ error: 'The :attribute field must be true or false.' });
    case 'single_select':
      return zString({ error: 'The :attribute must be a string.' }).refine((value) => offered.has(value), {
        error: INVALID_OPTION,
      });
    case 'multi_select':
      return z
        .array(
          zString({ error: 'The :attribute must be a string.' }).refine((value) => offered.has(value), {
            error: INVALID_OPTION,
          }),
          {
            error: 'The :attribute must be an array.',
          },
        )
        .max(offered.size, { error: `The :attribute must not have more than ${offered.size} items.` })
        .refine((values) => new Set(values).size === values.length, {
          error: 'The :attribute field has a duplicate value.',
        });
  }
}

/** Whether an answer counts as not given (Laravel: null, an empty string and an empty array fail `required`). */
function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Checks `answers` against a vacancy's questions: every required question answered, every answer of the
 * question's type (an offered option for selects, at most `max_length` characters for text), no unknown key.
 * Errors are keyed `answers.<key>` (and `answers.<key>.N` for one value of a multi_select).
 */
export function checkAnswers(
  questions: readonly TVacancyQuestion[],
  answers: Readonly<Record<string, unknown>> | null | undefined,
): { answers: TAnswers; errors: TFieldErrors } {
  const given = answers ?? {};
  const known = new Map(questions.map((question) => [question.key, question]));
  const issues: z.core.$ZodIssue[] = [];
  const valid: TAnswers = {};
  for (const question of questions) {
    const value = given[question.key];
    if (isBlank(value)) {
      if (question.required)
        issues.push({
          code: 'custom',
          path: ['answers', question.key],
          message: 'The :attribute field is required.',
          input: value,
        });
      continue;
    }
    const parsed = answerSchema(question).safeParse(value);
    if (parsed.success) valid[question.key] = parsed.data;
    else
      issues.push(
        ...parsed.error.issues.map((issue) => ({ ...issue, path: ['answers', question.key, ...issue.path] })),
      );
  }
  for (const key of Object.keys(given)) {
    if (!known.has(key))
      issues.push({
        code: 'custom',
        path: ['answers', key],
        message: 'The :attribute field is not a question of this vacancy.',
        input: given[key],
      });
  }
  return { answers: valid, errors: fieldErrorsFromZod({ issues }) };
}
