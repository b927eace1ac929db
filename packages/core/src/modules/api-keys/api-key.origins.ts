import type { TScope } from '../../lib/scopes.ts';

/** Scopes a publishable key may carry: what a public career site reads, and applying. Never a candidates:* scope. */
export const PUBLISHABLE_SCOPES = [
  'vacancies:read',
  'locations:read',
  'team:read',
  'articles:read',
  'applications:write',
] as const satisfies readonly TScope[];
/** Origins one publishable key may list. */
export const MAX_ORIGINS = 50;

export function isPublishableScope(scope: string): boolean {
  return (PUBLISHABLE_SCOPES as readonly string[]).includes(scope);
}

/**
 * An allowed origin as a browser sends it in `Origin`: `http(s)://host[:port]`, lower-case, no default port, no path,
 * query, fragment or credentials (a trailing `/` is tolerated). Null when `value` is not such an origin.
 */
export function normalizeOrigin(value: string): string | null {
  const text = value.trim();
  if (!/^https?:\/\/[^/?#\s*]+\/?$/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin.toLowerCase();
}

/** Whether the request's `Origin` header is one of the key's origins (exact match; absent or `null` never is). */
export function isOriginAllowed(origins: readonly string[] | null, origin: string | undefined): boolean {
  if (!origins || !origin) return false;
  const requested = origin.trim().toLowerCase();
  return origins.includes(requested);
}
