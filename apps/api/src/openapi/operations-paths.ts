import { jsonResponse, REQUEST_ID_HEADER } from './headers.ts';
import { ref, type TJson } from './error-schemas.ts';
import { EXTENSION_NOTE } from './document-text.ts';

/** The operations of the facade's neighbours (no API key): documentation, liveness, readiness (metrics have their own port). */
export function operationsPaths(): TJson {
  const status = (value: string) => ({
    type: 'object',
    required: ['status'],
    additionalProperties: false,
    properties: { status: { type: 'string', const: value } },
  });
  const base = (operationId: string, summary: string, description: string): TJson => ({
    operationId,
    summary,
    description: `${description}\n\n${EXTENSION_NOTE}\n\nRequired scope: none (no API key).`,
    tags: ['Operations'],
    security: [],
    'x-extension': true,
  });
  const serverError = jsonResponse('Unexpected error', ref('ServerError'));
  return {
    '/openapi.json': {
      get: {
        ...base('operations-openapi', 'This OpenAPI document', 'The OpenAPI 3.1 document of this interface.'),
        responses: {
          '200': jsonResponse('The document', {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' } },
          }),
          '500': serverError,
        },
      },
    },
    '/docs': {
      get: {
        ...base(
          'operations-docs',
          'Browsable reference',
          'An HTML reference of this document (Swagger UI). `/docs` redirects to `/docs/`.',
        ),
        responses: {
          '200': {
            description: 'The HTML page',
            headers: { 'X-Request-Id': REQUEST_ID_HEADER },
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '301': {
            description: 'Redirect to `/docs/`',
            headers: { 'X-Request-Id': REQUEST_ID_HEADER, Location: { required: true, schema: { type: 'string' } } },
          },
          '500': serverError,
        },
      },
    },
    '/livez': {
      get: {
        ...base(
          'operations-livez',
          'Liveness',
          'Answers while the process runs, whether or not the database is reachable.',
        ),
        responses: { '200': jsonResponse('The process is alive', status('ok')), '500': serverError },
      },
    },
    '/readyz': {
      get: {
        ...base(
          'operations-readyz',
          'Readiness',
          'Answers 200 when the database is reachable, else 503 (take the process out of the load balancer).',
        ),
        responses: {
          '200': jsonResponse('Ready to serve', status('ok')),
          '500': serverError,
          '503': jsonResponse('The database is unreachable', ref('ServiceUnavailableError')),
        },
      },
    },
  };
}
