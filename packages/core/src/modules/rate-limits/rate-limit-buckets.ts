import { createHash } from 'node:crypto';
import { clientAddressGroup } from './client-address.ts';

/** Limits per API key and operation (SPEC.md "Limits"): requests per fixed 60-second window. */
export const RATE_LIMITS = {
  'applications.create': { limit: 10, windowSeconds: 60 },
  'candidates.create': { limit: 10, windowSeconds: 60 },
  'vacancies.canonicalUrl': { limit: 60, windowSeconds: 60 },
} as const;
export type TRateLimitedOperation = keyof typeof RATE_LIMITS;

export type TWindow = { limit: number; windowSeconds: number };

/**
 * How a publishable key's writes are limited (CONTRACT "Guarding the shared service"). A career site's key is public,
 * so every request counts per client address (one visitor spends its own budget), and the key's own window counts
 * only what was stored: a request takes a place in it at the limit check and gives it back unless it stores (a 4xx,
 * a dry run, a replay), so one visitor's refused requests cannot use up the site's budget. Operations not listed
 * here count like a secret key's (RATE_LIMITS).
 */
export const PUBLISHABLE_RATE_LIMITS: Partial<Record<TRateLimitedOperation, { perAddress: TWindow; perKey: TWindow }>> =
  {
    'applications.create': { perAddress: { limit: 5, windowSeconds: 60 }, perKey: { limit: 120, windowSeconds: 60 } },
  };

export function keyBucket(apiKeyId: number, operation: TRateLimitedOperation): string {
  return `${apiKeyId}:${operation}`;
}

/** Stored hashed, like the sign-in buckets: the rate-limit table holds no client addresses. */
export function addressBucket(apiKeyId: number, operation: TRateLimitedOperation, clientAddress: string): string {
  const group = createHash('sha256').update(clientAddressGroup(clientAddress), 'utf8').digest('hex');
  return `${apiKeyId}:${operation}:address:${group}`;
}
