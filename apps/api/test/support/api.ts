import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
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

/** The real API app on a free port, over the given database. */
export async function startTestApi(databaseUrl: string, options: { publicUrl?: string } = {}): Promise<TTestApi> {
  const orm = await openOrm(databaseUrl);
  const services = createCoreServices(orm, createLogger('api-test'), { flushIntervalMs: 100 });
  const app = createApiApp(services, options);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const auth = (key?: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  return {
    baseUrl,
    services,
    get: async (path, key, headers = {}) => toResponse(await fetch(baseUrl + path, { headers: { ...auth(key), ...headers } })),
    post: async (path, body, key, headers = {}) =>
      toResponse(
        await fetch(baseUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth(key), ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      await orm.close();
    },
  };
}
