import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createCoreServices, createLogger, openOrm, type TCoreServices } from '@careers/core';
import { createApiApp } from '../../src/app.ts';

export type TTestApi = {
  baseUrl: string;
  services: TCoreServices;
  /** fetch relative to /v1 with an optional API key. */
  get: (path: string, key?: string, headers?: Record<string, string>) => Promise<TResponse>;
  post: (path: string, body: unknown, key?: string, headers?: Record<string, string>) => Promise<TResponse>;
  close: () => Promise<void>;
};

export type TResponse = { status: number; headers: Headers; body: any; text: string };

type TJson = Record<string, any>;

/** A response the OpenAPI document does not describe. */
export class UndocumentedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndocumentedResponseError';
  }
}

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

type TOperationMatch = { template: string; item: TJson };

/**
 * Checks responses against the served OpenAPI document: the status is documented for the operation the
 * request path matches, the body matches that response's schema and media type, and every header the
 * response documents as required is present (each header present is valid against its schema). A path no
 * operation has must answer the document's `NotFound` response, a known path with another method its
 * `MethodNotAllowed` response.
 */
export class DocumentValidator {
  readonly document: TJson;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly basePath: string;
  private readonly templates: Array<{
    template: string;
    base: string;
    segments: string[];
    item: TJson;
    weight: string;
  }>;

  constructor(document: TJson) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
    addFormats(this.ajv);
    // ajv-formats' `uri` regex backtracks for seconds on long links (ReDoS); an absolute ASCII URL the WHATWG parser accepts is the same promise.
    this.ajv.addFormat(
      'uri',
      (value: string) => /^[a-z][a-z0-9+.-]*:[\x21-\x7e]*$/i.test(value) && URL.canParse(value),
    );
    this.ajv.addSchema(document, 'openapi.json');
    // The app mounts the interface at /v1; a PUBLIC_URL prefix in `servers` is a proxy's, not the app's.
    this.basePath = '/v1';
    this.templates = Object.entries(document.paths as TJson)
      .map(([template, item]) => {
        const segments = template.split('/').slice(1);
        // A path item with its own server lives at the root of the host.
        const base = (item as TJson).servers ? '' : this.basePath;
        return {
          template,
          base,
          segments,
          item: item as TJson,
          weight: segments.map((s) => (s.startsWith('{') ? '1' : '0')).join(''),
        };
      })
      // Literal segments win over parameters (/vacancies/facets before /vacancies/{slug}), as in the facade.
      .sort((a, b) => a.weight.localeCompare(b.weight));
  }

  /** Throws UndocumentedResponseError when the document does not describe this answer. */
  check(method: string, url: string, response: TResponse): void {
    const { pathname } = new URL(url);
    const where = `${method.toUpperCase()} ${pathname}`;
    if (response.status === 431) {
      // The HTTP layer's answer to an oversized request line or headers, before any route.
      const pointer = '#/components/responses/RequestHeaderFieldsTooLarge';
      return this.checkResponse(where, this.resolve({ $ref: pointer }), pointer, response, 431);
    }
    const match = this.match(pathname);
    if (!match)
      return this.checkResponse(
        where,
        this.resolve({ $ref: '#/components/responses/NotFound' }),
        '#/components/responses/NotFound',
        response,
        404,
      );
    const operation = match.item[method.toLowerCase()] as TJson | undefined;
    if (!operation) {
      const pointer = '#/components/responses/MethodNotAllowed';
      return this.checkResponse(where, this.resolve({ $ref: pointer }), pointer, response, 405);
    }
    const responses = operation.responses as TJson;
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => responses[candidate] !== undefined);
    if (!key) {
      throw new UndocumentedResponseError(
        `${where} answered ${status}, which ${method.toLowerCase()} ${match.template} does not document ` +
          `(documented: ${Object.keys(responses).join(', ')}). Body: ${response.text.slice(0, 500)}`,
      );
    }
    const pointer = `#/paths/${escapePointer(match.template)}/${method.toLowerCase()}/responses/${escapePointer(key)}`;
    this.checkResponse(
      `${where} (${method.toLowerCase()} ${match.template})`,
      this.resolve(responses[key] as TJson),
      pointer,
      response,
    );
  }

  private match(pathname: string): TOperationMatch | undefined {
    for (const candidate of this.templates) {
      if (!pathname.startsWith(`${candidate.base}/`)) continue;
      // Express routes ignore a trailing slash and the case of literal segments.
      const segments = (pathname.slice(candidate.base.length).replace(/\/+$/, '') || '/').split('/').slice(1);
      if (candidate.segments.length !== segments.length) continue;
      const fits = candidate.segments.every((part, index) => {
        const actual = segments[index] ?? '';
        // A parameter that is not valid percent-encoding matches no route (Express cannot decode it).
        return part.startsWith('{') ? actual !== '' && decodable(actual) : part.toLowerCase() === actual.toLowerCase();
      });
      if (fits) return { template: candidate.template, item: candidate.item };
    }
    return undefined;
  }

  private resolve(node: TJson): TJson {
    let current = node;
    for (let depth = 0; current.$ref && depth < 10; depth++) {
      current = String(current.$ref)
        .replace(/^#\//, '')
        .split('/')
        .reduce<TJson>((parent, part) => parent?.[unescapePointer(part)], this.document);
    }
    return current;
  }

  private validatorAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private checkResponse(
    where: string,
    documented: TJson,
    pointer: string,
    response: TResponse,
    expectedStatus?: number,
  ): void {
    const fail = (problem: string): never => {
      throw new UndocumentedResponseError(
        `${where} → ${response.status}: ${problem}. Body: ${response.text.slice(0, 500)}`,
      );
    };
    if (expectedStatus !== undefined && response.status !== expectedStatus) {
      fail(`no operation describes this request; the document only allows ${expectedStatus} here`);
    }
    for (const [name, header] of Object.entries((documented.headers ?? {}) as TJson)) {
      const spec = this.resolve(header as TJson);
      const value = response.headers.get(name);
      if (value === null) {
        if (spec.required) fail(`the required header ${name} is missing`);
        continue;
      }
      const headerPointer = `${pointer}/headers/${escapePointer(name)}/schema`;
      if (!spec.schema) continue;
      const typed =
        spec.schema.type === 'integer' || spec.schema.type === 'number'
          ? /^-?\d+(\.\d+)?$/.test(value)
            ? Number(value)
            : value
          : value;
      const validate = this.validatorAt(headerPointer);
      if (!validate(typed)) fail(`header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }
    const content = documented.content as TJson | undefined;
    if (!content) {
      if (response.text !== '') fail('the document describes no body, but there is one');
      return;
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const mediaType = Object.keys(content).find((type) => type.toLowerCase() === contentType);
    if (!mediaType)
      fail(`content type ${JSON.stringify(contentType)} is not one of ${Object.keys(content).join(', ')}`);
    const mediaPointer = `${pointer}/content/${escapePointer(mediaType as string)}/schema`;
    if (!(content[mediaType as string] as TJson).schema) return;
    let body: unknown = response.text;
    if (/json/.test(contentType)) {
      try {
        body = JSON.parse(response.text);
      } catch {
        fail('the body is not JSON');
      }
    }
    const validate = this.validatorAt(mediaPointer);
    if (!validate(body))
      fail(`the body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`);
  }
}

function decodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function escapePointer(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(part: string): string {
  return decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
}

const validators = new Map<string, Promise<DocumentValidator>>();

/** The validator of the document that the API at `origin` serves at /v1/openapi.json (fetched once per origin). */
export function documentValidatorFor(url: string): Promise<DocumentValidator> {
  const { origin } = new URL(url);
  let validator = validators.get(origin);
  if (!validator) {
    validator = (async () => {
      const documentUrl = `${origin}/v1/openapi.json`;
      const response = await toResponse(await fetch(documentUrl));
      if (response.status !== 200) throw new Error(`${documentUrl} answered ${response.status}`);
      const created = new DocumentValidator(response.body as TJson);
      created.check('GET', documentUrl, response);
      return created;
    })();
    validator.catch(() => validators.delete(origin));
    validators.set(origin, validator);
  }
  return validator;
}

async function toResponse(response: Response): Promise<TResponse> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** fetch, then check the answer against the OpenAPI document of the API it went to. */
export async function fetchChecked(url: string, init: RequestInit = {}): Promise<TResponse> {
  const validator = await documentValidatorFor(url);
  const raw = await fetch(url, init);
  const response = await toResponse(raw);
  validator.check(init.method ?? 'GET', raw.url || url, response);
  return response;
}

/**
 * fetchChecked from a client address of this machine (`127.0.0.2`, `127.0.0.3`, …: every 127/8 address is loopback), so
 * a process sees requests of several clients without trusting a proxy header. Plain node:http (fetch cannot pick the
 * source address); a string body only.
 */
export async function fetchCheckedFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<TResponse> {
  const validator = await documentValidatorFor(url);
  const raw = await new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one);
          }
          const status = res.statusCode ?? 0;
          resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
  const response = await toResponse(raw);
  validator.check(init.method ?? 'GET', url, response);
  return response;
}

/** Like fetch (and returning a Response), but the answer is checked against the served OpenAPI document. */
export async function validatedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetchChecked(url, init);
  const body = NULL_BODY_STATUSES.has(response.status) ? null : response.text;
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The real API app on a free port, over the given database. Every answer is checked against its OpenAPI document. */
export async function startTestApi(
  databaseUrl: string,
  options: {
    publicUrl?: string;
    bodyStallTimeoutMs?: number;
    core?: Omit<NonNullable<Parameters<typeof createCoreServices>[2]>, 'flushIntervalMs'>;
  } = {},
): Promise<TTestApi> {
  const orm = await openOrm(databaseUrl);
  const services = createCoreServices(orm, createLogger('api-test'), { flushIntervalMs: 100, ...options.core });
  const app = createApiApp(services, options);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const auth = (key?: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  return {
    baseUrl,
    services,
    get: (path, key, headers = {}) => fetchChecked(baseUrl + path, { headers: { ...auth(key), ...headers } }),
    post: (path, body, key, headers = {}) =>
      fetchChecked(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(key), ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      validators.delete(new URL(baseUrl).origin);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      await orm.close();
    },
  };
}
