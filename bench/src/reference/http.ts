import type { IncomingMessage, ServerResponse } from 'node:http';
import { hash } from 'node:crypto';
import { AppError } from '@careers/core/bench';

/** What a handler answers: a status, a JSON body, and headers of its own (rate limits). */
export type TAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/** The request as a reference handler sees it: its parsed query, the URL as the client wrote it, the request itself. */
export type TRequest = { req: IncomingMessage; url: URL; query: Record<string, string | string[]> };

export function fail(code: ConstructorParameters<typeof AppError>[0]): never {
  throw new AppError(code);
}

export function invalid(field: string, message: string): never {
  throw AppError.validation({ [field]: [message] });
}

/** A query parameter that must be digits within a range (else 422 on it); `fallback` when absent. */
export function intParam(query: TRequest['query'], name: string, fallback: number, max: number): number {
  const value = query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) invalid(name, `The ${name} must be an integer.`);
  const number = Number(value);
  if (number < 1 || number > max) invalid(name, `The ${name} must be between 1 and ${max}.`);
  return number;
}

/** A `name[]` (or one-or-many) parameter of ids; empty when absent. */
export function idsParam(query: TRequest['query'], name: string): number[] {
  const value = query[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 100) invalid(name, `The ${name} must not have more than 100 items.`);
  return list.map((item, index) =>
    /^\d{1,9}$/.test(item) ? Number(item) : invalid(`${name}.${index}`, `The ${name}.${index} must be an integer.`),
  );
}

/** One of a few words (sort, sort_direction); `fallback` when absent. */
export function enumParam<T extends string>(
  query: TRequest['query'],
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) invalid(name, `The selected ${name} is invalid.`);
  return value as T;
}

export function languageParam(query: TRequest['query']): string | undefined {
  const value = query.language;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) invalid('language', 'The language must be 2 letters.');
  return value.toLowerCase();
}

export function flagParam(query: TRequest['query'], name: string): boolean {
  const value = query[name];
  if (value === undefined) return false;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return invalid(name, `The ${name} field must be true or false.`);
}

/** Writes an answer as the product does: JSON, a request id, and for a GET a weak ETag without the view counters. */
export function send(req: IncomingMessage, res: ServerResponse, answer: TAnswer, requestId: string): void {
  const json = JSON.stringify(answer.body);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    ...answer.headers,
  };
  if (req.method === 'GET' && answer.status === 200) {
    const etag = `W/"${hash('sha1', json.replace(/"views_count":-?\d+/g, ''), 'base64url')}"`;
    headers.etag = etag;
    headers['cache-control'] = 'private, max-age=0, must-revalidate';
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
  }
  res.writeHead(answer.status, headers).end(json);
}

/** The documented body of any error (an unexpected one is a 500 without detail). */
export function errorAnswer(error: unknown): TAnswer {
  const appError = error instanceof AppError ? error : new AppError('INTERNAL', { cause: error });
  return { status: appError.status, body: appError.toBody(), headers: appError.headers() };
}
