import { describe, expect, it } from 'vitest';
import { AppError, documentedErrors, listProcedures, type TAppErrorCode, type TMeta } from '@careers/core';
import { SCOPES } from '@careers/core/contract';
import { APP_ERROR_STATUS } from '@careers/core/testing';
import { buildOpenApiDocument } from '../src/openapi.ts';

type TJson = Record<string, any>;

/**
 * The meta is the one declaration of a REST operation: the middlewares and the OpenAPI document read it. These
 * checks keep every operation declaring what it needs, and the document from saying anything the meta does not.
 */
const document = buildOpenApiDocument();
const operations = listProcedures()
  .filter(
    (procedure): procedure is { procedurePath: string; meta: TMeta & Required<Pick<TMeta, 'openapi'>> } =>
      !!procedure.meta?.openapi,
  )
  .map(({ procedurePath, meta }) => ({
    procedurePath,
    meta,
    op: document.paths[meta.openapi.path][meta.openapi.method.toLowerCase()] as TJson,
  }));

/** A `$ref` resolved against the document's components. */
function resolve(schema: TJson): TJson {
  const name = typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
  return name ? (document.components.schemas[name] as TJson) : schema;
}

/** The fixed messages an error answer's body schema allows. */
function documentedMessages(response: TJson): string[] {
  const schema = response.content['application/json'].schema as TJson;
  return ((schema.oneOf as TJson[] | undefined) ?? [schema]).map(
    (branch) => resolve(branch).properties.message.const as string,
  );
}

/** The public message of a code (a missing scope names the scope). */
const messagesOf = (code: TAppErrorCode, meta: TMeta): string[] =>
  code === 'INSUFFICIENT_SCOPE'
    ? [meta.scope!, ...(meta.otherScopes ?? [])].map((scope) => AppError.insufficientScope(scope).message)
    : [new AppError(code).message];

describe('procedure meta', () => {
  it('finds the REST operations', () => {
    expect(operations.length).toBeGreaterThan(15);
    for (const { op } of operations) expect(op).toBeDefined();
  });

  it.each(operations.map((operation) => [operation.procedurePath, operation] as const))(
    '%s declares its scope and errors',
    (_path, { meta }) => {
      // Every operation says which scope its key needs, or (null) that any valid key will do.
      expect(meta).toHaveProperty('scope');
      if (meta.scope !== null) expect(SCOPES).toContain(meta.scope);
      // An operation that addresses one resource by its path answers 404 for one that does not exist.
      if (meta.openapi.path.includes('{'))
        expect((meta.errors ?? []).some((code) => APP_ERROR_STATUS[code] === 404)).toBe(true);
      for (const code of meta.errors ?? []) expect(APP_ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    },
  );

  it.each(operations.map((operation) => [operation.procedurePath, operation] as const))(
    '%s: the document lists exactly the errors of its meta',
    (_path, { meta, op }) => {
      const validatesInput =
        meta.openapi.method === 'POST' || (op.parameters as TJson[]).some((parameter) => parameter.in === 'query');
      const errors = documentedErrors(meta, { validatesInput });
      const documentedStatuses = Object.keys(op.responses)
        .map(Number)
        .filter((status) => status >= 400);
      expect(documentedStatuses.sort()).toEqual([...errors.keys()].sort());
      for (const [status, codes] of errors) {
        expect(documentedMessages(op.responses[String(status)]).sort()).toEqual(
          codes.flatMap((code) => messagesOf(code, meta)).sort(),
        );
      }
      // The operation's own errors are among them.
      for (const code of meta.errors ?? []) expect(errors.get(APP_ERROR_STATUS[code])).toContain(code);
    },
  );

  it.each(operations.map((operation) => [operation.procedurePath, operation] as const))(
    '%s: idempotency, scope and extension as the meta says',
    (_path, { meta, op }) => {
      const takesIdempotencyKey = (op.parameters as TJson[]).some(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      );
      expect(takesIdempotencyKey).toBe(Boolean(meta.idempotent));
      expect(op['x-required-scope']).toBe(meta.scope ?? undefined);
      expect(op['x-extension']).toBe(meta.extension === true ? true : undefined);
      expect(op.responses['429'] !== undefined).toBe(meta.rateLimit !== undefined || meta.expensiveRead !== undefined);
    },
  );
});
