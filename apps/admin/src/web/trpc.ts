import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import type { TAppRouter } from '@careers/core';

const sameOriginFetch = (url: URL | RequestInfo, init?: RequestInit) =>
  fetch(url, { ...init, credentials: 'same-origin' });

/**
 * Reads whose input is a person's data (an email address): sent as POST with the input in the body, so that it never
 * appears in a URL (proxy access logs, traces).
 */
const INPUT_IN_BODY = new Set(['admin.privacy.find']);

/** Typed client of core's procedures; the session travels in the httpOnly cookie (same origin). */
export const trpc = createTRPCClient<TAppRouter>({
  links: [
    splitLink({
      condition: (op) => INPUT_IN_BODY.has(op.path),
      true: httpLink({ url: '/trpc', fetch: sameOriginFetch, methodOverride: 'POST' }),
      false: httpBatchLink({ url: '/trpc', fetch: sameOriginFetch }),
    }),
  ],
});

type TErrorData = { httpStatus?: number; body?: { message?: string; errors?: Record<string, string[]> } };

function dataOf(error: unknown): TErrorData | undefined {
  return error instanceof TRPCClientError ? (error.data as TErrorData | undefined) : undefined;
}

/** The HTTP status the server gave (401, 403, 422, 429…), if the error came from it. */
export function errorStatus(error: unknown): number | undefined {
  return dataOf(error)?.httpStatus;
}

/** Messages per field of a 422. */
export function fieldErrors(error: unknown): Record<string, string[]> {
  return dataOf(error)?.body?.errors ?? {};
}

/** One sentence for the user; field errors first, as they are the most specific. */
export function errorMessage(error: unknown): string {
  const data = dataOf(error);
  const first = Object.values(data?.body?.errors ?? {})[0]?.[0];
  if (first) return first;
  if (data?.body?.message) return data.body.message;
  if (error instanceof TypeError) return 'The server cannot be reached. Check your connection and try again.';
  return 'Something went wrong. Please try again.';
}
