import { generateOpenApiDocument } from 'trpc-to-openapi';
import { appRouter, listProcedures, type TMeta } from '@careers/core';

type TJson = Record<string, any>;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    error: { type: 'string', description: 'Machine-readable code (some errors)' },
    required_scope: { type: 'string', description: 'With INSUFFICIENT_SCOPE' },
    errors: {
      type: 'object',
      description: 'With 422: field path → messages',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
};
const RETRY_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time at which the window resets', schema: { type: 'integer' } },
};

function errorResponse(description: string, headers?: TJson): TJson {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

/**
 * The OpenAPI 3.1 document of the v1 interface, generated from core's procedures and then corrected
 * to what the REST facade really does: success statuses, error bodies, array parameters with `[]`,
 * rate-limit headers and the bearer-key security scheme.
 */
export function buildOpenApiDocument(publicUrl?: string): TJson {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Careers API',
    version: '1.0.0',
    baseUrl: `${publicUrl?.replace(/\/+$/, '') ?? ''}/v1`,
    description:
      'Per-tenant API for career websites: published vacancies with facets, locations, team members, articles, applications and candidates. Every request carries `Authorization: Bearer <API key>`.',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A tenant API key' } },
  }) as unknown as TJson;

  document.components ??= {};
  document.components.schemas = { ...(document.components.schemas ?? {}), Error: ERROR_SCHEMA };
  const metas = new Map<string, TMeta>();
  for (const { meta } of listProcedures()) {
    if (meta?.openapi) metas.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }

  for (const [path, item] of Object.entries(document.paths as TJson)) {
    for (const [method, operation] of Object.entries(item as TJson)) {
      const meta = metas.get(`${method} ${path}`);
      if (!meta) continue;
      const op = operation as TJson;
      const success = String(meta.successStatus ?? 200);
      const generated = op.responses?.['200'] ?? { description: 'Success' };
      const responses: TJson = { [success]: { ...generated, description: generated.description ?? 'Success' } };
      if (method === 'get') {
        responses[success].headers = { ETag: { description: 'Weak validator of the representation', schema: { type: 'string' } } };
        responses['304'] = { description: 'Not modified (matching If-None-Match)' };
      }
      if (meta.rateLimit) responses[success].headers = { ...(responses[success].headers ?? {}), ...RATE_LIMIT_HEADERS };
      responses['401'] = errorResponse('Missing, unknown, malformed or revoked API key');
      responses['403'] = errorResponse('API access switched off for the tenant, or the key lacks the scope');
      if (method === 'post') {
        responses['400'] = errorResponse('Malformed JSON body, or a business rule failed');
        responses['413'] = errorResponse('Body larger than 40 MiB');
      }
      for (const status of meta.errorStatuses ?? []) responses[String(status)] ??= errorResponse('Error');
      responses['422'] = errorResponse('Validation failed', meta.rateLimit ? RATE_LIMIT_HEADERS : undefined);
      if (meta.rateLimit) responses['429'] = errorResponse('Too many attempts', RETRY_HEADERS);
      responses['500'] = errorResponse('Server error');
      op.responses = responses;
      op.security = [{ bearerAuth: [] }];
      if (meta.scope) op['x-required-scope'] = meta.scope;
      for (const parameter of (op.parameters ?? []) as TJson[]) {
        if (parameter.in === 'query' && parameter.schema?.type === 'array') {
          parameter.name = `${parameter.name}[]`;
          parameter.style = 'form';
          parameter.explode = true;
        }
      }
    }
  }
  return document;
}
