import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TResponse } from './api.ts';

/**
 * Tenant documents and request bodies for the write API tests (POST /applications, canonical URL,
 * rate limits, idempotency). Every call makes fresh slugs and keys, so tests do not lean on one fixture.
 */

export const randomKey = (): string => `ck_test_${randomBytes(16).toString('hex')}`;
export const suffix = (): string => randomBytes(4).toString('hex');

export type TKeySpec = { id: number; key: string; scopes: string[]; revoked?: boolean };

export function keys(firstId: number, count: number, scopes: string[]): TKeySpec[] {
  return Array.from({ length: count }, (_, index) => ({ id: firstId + index, key: randomKey(), scopes }));
}

export function vacancy(id: number, slug: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    slug,
    title: `Vacancy ${slug}`,
    summary: '<p>Summary</p>',
    description: null,
    requirements: null,
    offer: null,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    accepts_applications: true,
    published_at: '2024-01-01T09:00:00Z',
    ends_at: null,
    ...overrides,
  };
}

export function tenant(slug: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    slug,
    name: `Tenant ${slug}`,
    default_language: 'en',
    career_site: { domain: `careers.${slug}.example`, url_pattern: `https://careers.${slug}.example/jobs/{slug}` },
    domains: [`${slug}.example`, `jobs.${slug}.example`],
    ...fields,
  };
}

export function base64Of(size: number): { bytes: Buffer; content: string } {
  const bytes = randomBytes(size);
  return { bytes, content: bytes.toString('base64') };
}

export function applicationBody(vacancyRef: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const id = suffix();
  return {
    vacancy: vacancyRef,
    candidate: { given_name: 'Ada', family_name: `Lovelace ${id}`, email: `ada.${id}@example.org` },
    ...overrides,
  };
}

/** One SQL statement against the test database (for setup and checks the API does not expose). */
export async function query<T extends pg.QueryResultRow = Record<string, any>>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export function rateHeaders(response: TResponse): Record<string, string | null> {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    retryAfter: response.headers.get('retry-after'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

/** Hands out API keys in turn, so many requests stay under the per-key limit. */
export function keyRing(specs: TKeySpec[]): () => string {
  let next = 0;
  return () => {
    const spec = specs[next++ % specs.length];
    if (!spec) throw new Error('empty key ring');
    return spec.key;
  };
}
