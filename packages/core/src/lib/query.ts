import { z } from 'zod';

/**
 * Zod pieces for query-string parameters, shared by every list procedure. The REST facade hands over
 * strings (and arrays of strings for `name[]`); tRPC callers may pass real numbers and booleans.
 * Each piece accepts exactly what CONTRACT allows and reports Laravel-style messages otherwise.
 */

const DIGITS = /^\d{1,15}$/;

function toText(value: unknown): unknown {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : value;
}

/** A non-negative integer given as digits only. */
export const zQueryInt = z.preprocess(
  toText,
  z
    .string({ error: 'The :attribute must be an integer.' })
    .regex(DIGITS, { error: 'The :attribute must be an integer.' })
    .transform(Number),
);

export function zIntInRange(min: number, max: number) {
  return zQueryInt.pipe(
    z
      .number()
      .min(min, { error: `The :attribute must be at least ${min}.` })
      .max(max, { error: `The :attribute must not be greater than ${max}.` }),
  );
}

/** `true`, `false`, `1`, `0` (and JSON booleans from tRPC callers); anything else is 422. */
export const zQueryBool = z.preprocess(
  (value) => (typeof value === 'boolean' ? String(value) : value),
  z
    .enum(['true', 'false', '1', '0'], { error: 'The :attribute field must be true or false.' })
    .transform((v) => v === 'true' || v === '1'),
);

/** A flag that defaults to false. */
export const zFlag = zQueryBool.optional().transform((v) => v ?? false);

/** Exactly 2 letters, any case; compared lower-case. */
export const zLanguage = z
  .string({ error: 'The :attribute must be a string.' })
  .length(2, { error: 'The :attribute must be 2 characters.', abort: true })
  .regex(/^[A-Za-z]{2}$/, { error: 'The :attribute must only contain letters.' })
  .transform((v) => v.toLowerCase());

/** A 2-letter country code; compared upper-case. */
export const zCountryCode = z
  .string({ error: 'The :attribute must be a string.' })
  .length(2, { error: 'The :attribute must be 2 characters.', abort: true })
  .regex(/^[A-Za-z]{2}$/, { error: 'The :attribute must only contain letters.' })
  .transform((v) => v.toUpperCase());

/** Case-insensitive substring search: trimmed, at most 255 characters, empty = no filter. */
export const zSearch = z
  .string({ error: 'The :attribute must be a string.' })
  .max(255, { error: 'The :attribute must not be greater than 255 characters.' })
  .transform((v) => v.trim() || undefined);

/** A plain (non-array) text filter. */
export const zText = z
  .string({ error: 'The :attribute must be a string.' })
  .max(255, { error: 'The :attribute must not be greater than 255 characters.' });

/** `name[]=1&name[]=2` (or a lone `name=1`): a list of ids; errors are reported as `name.N`. */
export const zIdArray = z.preprocess(
  (value) => (Array.isArray(value) ? value : value === undefined ? undefined : [value]),
  z
    .array(zQueryInt, { error: 'The :attribute must be an array.' })
    .max(100, { error: 'The :attribute must not have more than 100 items.' }),
);

/** One id or an array of ids (`location_id=1` or `location_id[]=1&location_id[]=2`). */
export const zIdOrIds = z.union(
  [zQueryInt, z.array(zQueryInt).max(100, { error: 'The :attribute must not have more than 100 items.' })],
  {
    error: 'The :attribute must be an integer.',
  },
);

/** The ids of a one-or-many filter, and the field path each id is reported on when it refers to nothing. */
export function idsWithPaths(field: string, value: number | number[] | undefined): Array<{ id: number; path: string }> {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map((id, index) => ({ id, path: `${field}.${index}` }));
  return [{ id: value, path: field }];
}

export const zSortDirection = z.enum(['asc', 'desc'], { error: 'The selected :attribute is invalid.' });

export function zSort<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: 'The selected :attribute is invalid.' });
}

/** page ≥ 1, per_page 1..100 (default 20). */
export const zPagination = {
  page: zIntInRange(1, 1_000_000)
    .optional()
    .transform((v) => v ?? 1),
  per_page: zIntInRange(1, 100)
    .optional()
    .transform((v) => v ?? 20),
};

/** Path ids that are not integers are 404, not 422 (`/team/abc`). */
export function parsePathId(value: string): number | undefined {
  return DIGITS.test(value) ? Number(value) : undefined;
}

/** An OpenAPI override (zod-openapi meta): the parameter's schema is `schema`, whatever zod accepts besides. */
const documentedAs =
  (schema: Record<string, unknown>) =>
  ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
    Object.assign(jsonSchema, schema);
  };

/**
 * A path segment that names a row by its integer id. Any string is accepted — one that is not an integer names
 * nothing (404, never 422) — and the OpenAPI document shows it as what a client sends: an integer.
 */
export function zPathIntegerId(description: string) {
  // A number too, for callers of the procedure that are not HTTP (tRPC, tests); it is looked up as its digits.
  return z
    .union([z.string(), z.number()])
    .transform(String)
    .meta({
      description,
      override: documentedAs({ type: 'integer', minimum: 0 }),
      param: { description: `${description}. A value that is not an integer is 404.` },
    });
}

/** A path segment that names a row by its UUID; any other string names nothing (404, never 422). */
export function zPathUuid(description: string) {
  return z.string().meta({
    description,
    override: { format: 'uuid' },
    param: { description: `${description}. A value that is not a UUID is 404.` },
  });
}

/** The largest id a PostgreSQL integer column holds; larger ids name nothing and must not reach a query. */
export const MAX_DB_ID = 2_147_483_647;

export function isStorableId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_DB_ID;
}

/**
 * `validate_only` of a POST (extension): run every check a real request runs, store nothing, answer 200
 * `{"message":"Valid."}`. It arrives through the query (meta `queryParameters`), never from the body.
 */
export const zValidateOnly = zFlag.describe(
  'Extension: run every check of a real request (also the rate limit, which it counts against) and answer 200 `{"message":"Valid."}` without storing anything',
);

/** The answer of a request made with `validate_only=true`. */
export const ZValidOutput = z.object({ message: z.literal('Valid.') });
export const VALID_OUTPUT = { message: 'Valid.' } as const;
