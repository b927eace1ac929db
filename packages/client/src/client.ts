import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './generated/api.d.ts';
import { CareersApiError } from './errors.ts';

type TMedia = `${string}/${string}`;
type TPathsWith<M extends 'get' | 'post'> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];
type TRequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** The options argument is optional exactly when the operation has no required parameter or body. */
type TInitArgs<Init> = TRequiredKeys<Init> extends never ? [init?: Init] : [init: Init];
type TOperation<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M & keyof paths[P]] &
  Record<string | number, any>;

/** The success body of an operation, as the document types it. */
export type TData<P extends keyof paths, M extends 'get' | 'post', Init = {}> = NonNullable<
  FetchResponse<TOperation<P, M>, Init, TMedia>['data']
>;
/** The union of the error bodies an operation documents. */
export type TErrorOf<P extends keyof paths, M extends 'get' | 'post'> = NonNullable<
  FetchResponse<TOperation<P, M>, {}, TMedia>['error']
>;

export type TCareersClientOptions = {
  /** The API base URL, with /v1 (e.g. https://api.example.com/v1). */
  baseUrl: string;
  /** A secret (`ck_…`) or publishable (`pk_…`) key. */
  apiKey: string;
  /** Another fetch (tests, instrumentation); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
};

export type TCareersClient = {
  /** GET an operation; resolves to its success body, rejects with a CareersApiError for any error answer. */
  get<P extends TPathsWith<'get'>, Init extends MaybeOptionalInit<paths[P], 'get'>>(
    path: P,
    ...init: TInitArgs<Init>
  ): Promise<TData<P, 'get', Init>>;
  /** POST an operation; resolves to its success body, rejects with a CareersApiError for any error answer. */
  post<P extends TPathsWith<'post'>, Init extends MaybeOptionalInit<paths[P], 'post'>>(
    path: P,
    ...init: TInitArgs<Init>
  ): Promise<TData<P, 'post', Init>>;
  /** The underlying openapi-fetch client ({ data, error, response } per call), typed from the same document. */
  raw: Client<paths>;
};

/** A client for the Careers API that runs in browsers and in Node (only fetch, no Node modules). */
export function createCareersClient(options: TCareersClientOptions): TCareersClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  async function settle<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw new CareersApiError(response, error);
    return data as T;
  }
  return {
    raw,
    // openapi-fetch's own signatures are generic over the same path and init; the casts only forward them.
    get: (path, ...init) => settle((raw.GET as (p: string, i?: unknown) => Promise<never>)(path, init[0])),
    post: (path, ...init) => settle((raw.POST as (p: string, i?: unknown) => Promise<never>)(path, init[0])),
  };
}

/** Standard base64 of bytes (for `documents.*.content`), without Node's Buffer. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk)
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  return btoa(binary);
}
