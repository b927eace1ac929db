import autocannon from 'autocannon';
import { EXPECTED_STATUS, type TKind, type TRequest } from './mix.ts';

export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

/** Counts of one stretch of the load (a minute, or a whole phase). */
export type TWindow = {
  responses: number;
  latencies: number[];
  /** Non-2xx other than a tolerated 429, plus socket errors and timeouts. */
  errors: number;
  rateLimited: number;
  byKind: Partial<Record<TKind, number>>;
};

export const emptyWindow = (): TWindow => ({ responses: 0, latencies: [], errors: 0, rateLimited: 0, byKind: {} });

export type TUnexpected = { kind: TKind | 'socket'; path: string; status: number; body: string };

type TConnectionContext = { request?: TRequest };

export type TLoadOptions = {
  /** Without /v1. */
  url: string;
  connections: number;
  durationSeconds: number;
  /** Requests per second over all connections; absent = as fast as the API answers. */
  overallRate?: number;
  next: () => TRequest;
  /** Called for every response as it arrives (window bookkeeping is the caller's). */
  onResult: (result: { kind: TKind | 'socket'; status: number; latencyMs: number; body: string; path: string }) => void;
};

/**
 * One autocannon run over the mix. Each connection has one request in flight, so its context remembers which
 * operation the current response belongs to.
 */
export function runLoad(options: TLoadOptions): Promise<autocannon.Result> {
  let settle: { resolve: (result: autocannon.Result) => void; reject: (error: Error) => void } | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => (settle = { resolve, reject }));
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.durationSeconds,
      timeout: 10,
      ...(options.overallRate ? { overallRate: options.overallRate } : {}),
      requests: [
        {
          setupRequest: (request, context: TConnectionContext) => {
            const next = options.next();
            context.request = next;
            return {
              ...request,
              method: next.method,
              path: next.path,
              headers: next.headers,
              ...(next.body === undefined ? {} : { body: next.body }),
            };
          },
          onResponse: (status: number, body: string, context: TConnectionContext) => {
            const request = context.request;
            // autocannon reports the latency in its 'response' event, right after this call on the same client.
            pending.set(context, { kind: request?.kind ?? 'vacancies', status, body, path: request?.path ?? '?' });
          },
        },
      ] as autocannon.Request[],
    },
    (error, result) => (error ? settle?.reject(error) : settle?.resolve(result)),
  );
  const pending = new Map<TConnectionContext, { kind: TKind; status: number; body: string; path: string }>();
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    // The client's current context (not in the typings) is the one of the request just answered.
    const context = (client as unknown as { requestIterator?: { context?: TConnectionContext } }).requestIterator
      ?.context;
    const seen = context ? pending.get(context) : undefined;
    if (context) pending.delete(context);
    options.onResult({
      kind: seen?.kind ?? 'vacancies',
      status: statusCode,
      latencyMs: responseTime,
      body: seen?.body ?? '',
      path: seen?.path ?? '?',
    });
  });
  instance.on('reqError', (error: Error) => {
    options.onResult({ kind: 'socket', status: 0, latencyMs: 0, body: error.message, path: '' });
  });
  return done;
}

/** Adds a result to a window; returns whether it is an error (unexpected status or socket error). */
export function record(
  window: TWindow,
  result: { kind: TKind | 'socket'; status: number; latencyMs: number },
): boolean {
  if (result.kind === 'socket') {
    window.errors++;
    return true;
  }
  window.responses++;
  window.latencies.push(result.latencyMs);
  window.byKind[result.kind] = (window.byKind[result.kind] ?? 0) + 1;
  if (result.status === EXPECTED_STATUS[result.kind]) return false;
  if (
    result.status === 429 &&
    (result.kind === 'applications' || result.kind === 'canonical' || result.kind === 'candidates')
  ) {
    window.rateLimited++;
    return false;
  }
  window.errors++;
  return true;
}
