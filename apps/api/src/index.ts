export { createApiApp } from './app.ts';
export { buildOpenApiDocument } from './openapi.ts';
