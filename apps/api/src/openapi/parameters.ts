import type { ZodType } from 'zod';
import type { TMeta } from '@careers/core';
import type { TJson } from './error-schemas.ts';

/** Query parameters of POST operations (meta `queryParameters`); the generator would put them in the body. */
const POST_QUERY_PARAMETERS: Record<string, TJson> = {
  validate_only: {
    in: 'query',
    name: 'validate_only',
    required: false,
    description:
      '(extension) `true` or `1`: run every check of a real request (authentication, scope, rate limit — it counts against it —, validation, ' +
      'existence, business rules) and answer 200 `{"message":"Valid."}` without storing anything and without an idempotency record. ' +
      '(`true`, `false`, `1` or `0`)',
    schema: { type: 'string', enum: ['true', 'false', '1', '0'], default: 'false' },
    'x-extension': true,
  },
};

/** Moves the operation's query parameters out of the generated request body into `parameters`. */
export function moveQueryParameters(op: TJson, meta: TMeta): void {
  const names = meta.queryParameters ?? [];
  if (names.length === 0) return;
  const schema = op.requestBody?.content?.['application/json']?.schema;
  for (const name of names) {
    if (schema?.properties) delete schema.properties[name];
    if (Array.isArray(schema?.required)) schema.required = schema.required.filter((field: string) => field !== name);
    const parameter = POST_QUERY_PARAMETERS[name];
    if (!parameter) throw new Error(`no OpenAPI description of query parameter ${name}`);
    op.parameters = [...((op.parameters as TJson[]) ?? []), parameter];
  }
}

const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    '(extension) 1–255 printable ASCII characters. A retry with the same key and the same body within 24 hours replays the first response ' +
    '(marked `Idempotent-Replayed: true`) without a second effect; the same key with a different body is 422 on `idempotency_key`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]{1,255}$' },
  'x-extension': true,
};

/** Descriptions of shared parameters whose schemas carry none. */
const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  page: 'Page number, from 1; a page past the end is an empty page',
  per_page: 'Items per page, 1 to 100',
  sort_direction: '`asc` or `desc`',
};

/** Digits-only integers of the query (`zQueryInt`) as the generator shows them. */
const isDigitsString = (schema: TJson): boolean => schema.type === 'string' && schema.pattern === '^\\d{1,15}$';
const MAX_DIGITS_INTEGER = 999_999_999_999_999;

/** The largest digit string a parameter's validator accepts (it accepts a contiguous range). */
function acceptedRange(field: ZodType | undefined): { minimum: number; maximum: number } {
  const accepts = (n: number) => field?.safeParse(String(n)).success ?? true;
  const minimum = accepts(0) ? 0 : 1;
  let low = minimum;
  let high = MAX_DIGITS_INTEGER;
  if (accepts(high)) return { minimum, maximum: high };
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (accepts(middle)) low = middle;
    else high = middle;
  }
  return { minimum, maximum: low };
}

/** Rewrites the generator's string encodings of query values into the types a client sends. */
function queryValueSchema(schema: TJson, field: ZodType | undefined): TJson {
  const { type } = schema;
  const stringOrNumber = Array.isArray(type) && type.length === 2 && type.includes('string') && type.includes('number');
  if (isDigitsString(schema) || stringOrNumber)
    return {
      ...(schema.description ? { description: schema.description } : {}),
      type: 'integer',
      ...acceptedRange(field),
    };
  if (schema.type === 'string' && Array.isArray(schema.enum) && [...schema.enum].sort().join() === '0,1,false,true') {
    const { enum: _enum, ...rest } = schema;
    return { ...rest, type: 'boolean' };
  }
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: schema.anyOf.map((branch: TJson) => queryValueSchema(branch, undefined)) };
  if (schema.type === 'array' && schema.items) return { ...schema, items: queryValueSchema(schema.items, undefined) };
  return schema;
}

function defaultOf(field: ZodType | undefined): unknown {
  const parsed = field?.safeParse(undefined);
  return parsed?.success ? parsed.data : undefined;
}

export function fixParameters(op: TJson, input: TJson | undefined, meta: TMeta): void {
  const readsBody = meta.openapi?.method === 'POST';
  const shape = (input?.shape ?? {}) as Record<string, ZodType>;
  const parameters: TJson[] = [];
  for (const parameter of (op.parameters ?? []) as TJson[]) {
    if (parameter.in === 'header' && parameter.name === 'Idempotency-Key') continue;
    if (parameter.in === 'query' && readsBody) {
      parameters.push(parameter);
      continue;
    }
    const field = shape[parameter.name];
    parameter.description ??=
      parameter.schema?.description ?? field?.description ?? PARAMETER_DESCRIPTIONS[parameter.name];
    if (parameter.in === 'path') {
      parameter.required = true;
      // Any segment is looked up: one that names nothing (also an over-long slug) is 404, never 422. Ids say their
      // type themselves (zPathIntegerId, zPathUuid).
      delete parameter.schema?.maxLength;
    }
    if (parameter.in === 'query') {
      parameter.schema = queryValueSchema(parameter.schema ?? {}, field);
      if (parameter.schema.type === 'boolean')
        parameter.description = `${parameter.description ?? ''} (\`true\`, \`false\`, \`1\` or \`0\`)`.trim();
      const fallback = defaultOf(field);
      if (fallback !== undefined && parameter.schema.default === undefined) parameter.schema.default = fallback;
      const arrayOnly = parameter.schema.type === 'array';
      const oneOrMany =
        Array.isArray(parameter.schema.anyOf) &&
        parameter.schema.anyOf.some((branch: TJson) => branch.type === 'array');
      if (arrayOnly) parameter.name = `${parameter.name}[]`;
      if (arrayOnly || oneOrMany) {
        parameter.style = 'form';
        parameter.explode = true;
      }
      if (oneOrMany && !String(parameter.description ?? '').includes('[]')) {
        parameter.description = `${parameter.description ?? 'One id or several'}; repeat the parameter (or use \`${parameter.name}[]\`) for several values.`;
      }
    }
    parameters.push(parameter);
  }
  if (meta.idempotent) parameters.unshift(IDEMPOTENCY_KEY_PARAMETER);
  op.parameters = parameters;
}
