import { generateOpenApiDocument } from 'trpc-to-openapi';
import {
  appRouter,
  listProcedures,
  type TMeta,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  isPublishableScope,
} from '@careers/core';
import { BODY_LIMIT_BYTES } from './rest/request-body.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from './rest/facade.ts';
import { componentSchemas, ref, type TJson } from './openapi/error-schemas.ts';
import { CORS_RESPONSE_HEADERS, jsonResponse } from './openapi/headers.ts';
import { fixParameters, moveQueryParameters } from './openapi/parameters.ts';
import { apiResponses } from './openapi/responses.ts';
import { operationsPaths } from './openapi/operations-paths.ts';
import { DOCUMENT_DESCRIPTION, EXTENSION_NOTE, TAGS } from './openapi/document-text.ts';

/*
 * A renderer: everything an operation is (scope, rate limit, idempotency, errors, extension) is read from its
 * procedure's meta and zod schemas; the files under openapi/ hold the document's wording and shared pieces.
 */

function operationDescription(op: TJson, meta: TMeta): string {
  const parts = [String(op.description ?? '').trim()];
  if (meta.extension) parts.push(EXTENSION_NOTE);
  parts.push(meta.scope ? `Required scope: \`${meta.scope}\`.` : 'Required scope: none (any valid API key).');
  return parts.filter(Boolean).join('\n\n');
}

/**
 * The OpenAPI 3.1 document of the v1 interface, generated from core's procedures and then corrected
 * to what the REST facade really does: statuses, exact error bodies, headers, parameter types.
 */
export function buildOpenApiDocument(publicUrl?: string): TJson {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Careers API',
    version: '1.0.0',
    baseUrl: `${publicUrl?.replace(/\/+$/, '') ?? ''}/v1`,
    description: DOCUMENT_DESCRIPTION,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A secret tenant API key (`ck_live_…`): for servers only, never in a browser (its answers carry no CORS headers).',
      },
      publishableKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A publishable key (`pk_live_…` or `pk_test_…`) for a career site in the browser: bound to allowed origins (403 `ORIGIN_NOT_ALLOWED` ' +
          'from any other, or without `Origin`), with only the public scopes and applications:write.',
      },
    },
  }) as unknown as TJson;

  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs?: unknown[] } }>;
  const operations = new Map<string, { meta: TMeta; input: TJson | undefined }>();
  for (const { procedurePath, meta } of listProcedures()) {
    if (!meta?.openapi) continue;
    const input = procedures[procedurePath]?._def.inputs?.[0] as TJson | undefined;
    operations.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, { meta, input });
  }

  for (const [path, item] of Object.entries(document.paths as TJson)) {
    for (const [method, operation] of Object.entries(item as TJson)) {
      const key = `${method} ${path}`;
      const found = operations.get(key);
      if (!found) continue;
      const { meta, input } = found;
      const op = operation as TJson;
      moveQueryParameters(op, meta);
      fixParameters(op, input, meta);
      const validatesInput =
        method === 'post' || (op.parameters as TJson[]).some((parameter) => parameter.in === 'query');
      op.responses = apiResponses(method, op, meta, validatesInput);
      // Every answer after authentication (not a 401: an unknown key allows no origin) to a publishable key's origin.
      for (const [status, response] of Object.entries(op.responses as TJson)) {
        if (status !== '401')
          (response as TJson).headers = { ...(response as TJson).headers, ...CORS_RESPONSE_HEADERS };
      }
      op.description = operationDescription(op, meta);
      // A publishable key can call what needs no scope or a public one; never the candidates:* operations.
      op.security =
        !meta.scope || isPublishableScope(meta.scope)
          ? [{ bearerAuth: [] }, { publishableKey: [] }]
          : [{ bearerAuth: [] }];
      if (meta.scope) op['x-required-scope'] = meta.scope;
      if (meta.extension) op['x-extension'] = true;
    }
  }
  Object.assign(document.paths, operationsPaths());
  document.tags = TAGS;
  // The audience of the server (OWASP API9, inventory): the public interface of career sites and integrations.
  document.servers = (document.servers as TJson[]).map((server) => ({ ...server, 'x-internal': false }));
  document['x-cors'] = {
    preflight: {
      status: 204,
      allowOrigin: "the request's Origin (never *)",
      allowHeaders: CORS_ALLOWED_HEADERS,
      maxAge: CORS_MAX_AGE_SECONDS,
      vary: 'Origin',
    },
    actualResponses: {
      keyKinds: ['publishable'],
      allowOrigin: "the key's allowed origin that sent the request",
      vary: 'Origin',
      exposeHeaders: CORS_EXPOSED_HEADERS,
    },
    secretKeys: 'never',
  };
  document['x-body-limits'] = {
    maxBytes: BODY_LIMIT_BYTES,
    maxDepth: MAX_JSON_DEPTH,
    maxValues: MAX_JSON_VALUES,
    contentEncoding: ['identity'],
  };
  document.components = {
    ...document.components,
    schemas: componentSchemas(),
    responses: {
      NotFound: jsonResponse('No operation has this path (also without an API key)', ref('NotFoundError')),
      MethodNotAllowed: jsonResponse('The path exists, the method does not', ref('MethodNotAllowedError'), {
        Allow: { description: 'The methods of the path', required: true, schema: { type: 'string' } },
      }),
      RequestHeaderFieldsTooLarge: {
        description:
          "The request line and headers exceed the HTTP server's 16 KiB limit; answered by the HTTP layer, without a body",
      },
    },
  };
  return document;
}
