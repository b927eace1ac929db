import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { isKnownScope } from '../../lib/scopes.ts';
import { API_KEY_KINDS, displayStart, generateApiKey, hashApiKey, type TApiKeyKind } from './api-key.crypto.ts';
import { readRateLimit } from '../rate-limits/rate-limit.service.ts';
import type { TRateLimitedOperation } from '../rate-limits/rate-limit-buckets.ts';
import type { TAuthenticatedKey } from './api-key.verifier.ts';
import type { TApiKeyDescription } from './api-key.description.ts';
import { isPublishableScope, MAX_ORIGINS, normalizeOrigin, PUBLISHABLE_SCOPES } from './api-key.origins.ts';
import { iso } from '../../lib/dates.ts';
import { isStorableId } from '../../lib/query.ts';
import type { TServiceContext, TServiceContextWithEm } from '../service-context.ts';
import {
  insertApiKey,
  revokeApiKeyRow,
  selectApiKey,
  selectApiKeys,
  tenantExists,
  type TApiKeyRow,
} from './api-key.repository.ts';

/** An API key as administrators see it: never the key itself, only its first characters. */
export type TApiKeyDto = {
  id: number;
  name: string;
  start: string;
  kind: TApiKeyKind;
  scopes: string[];
  /** Allowed origins of a publishable key; null for a secret key. */
  origins: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

function toDto(row: TApiKeyRow): TApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    kind: row.kind === 'publishable' ? 'publishable' : 'secret',
    scopes: [...row.scopes],
    origins: row.origins === null ? null : [...row.origins],
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

export type TCreateApiKeyInput = {
  name: string;
  scopes: readonly string[];
  /** `secret` unless told; a publishable key needs `origins` and only PUBLISHABLE_SCOPES. */
  kind?: TApiKeyKind;
  origins?: readonly string[] | null;
};

/**
 * Creates a key for a tenant. The plaintext is returned once and stored only as its SHA-256 digest.
 * `name` must not be empty; `scopes` must be known scopes (an empty list is allowed: such a key can call
 * only /health; `*` is the legacy full-access scope). A publishable key (a career site in the browser, where anyone
 * can read it) may only have the public scopes and must list its allowed origins; they are stored normalised.
 * The dashboard and the CLI both create keys here, so both refuse the same things.
 */
export async function createApiKey(
  ctx: TServiceContext,
  input: TCreateApiKeyInput,
): Promise<{ apiKey: TApiKeyDto; plaintext: string }> {
  const errors: TFieldErrors = {};
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) errors.name = ['The name field is required.'];
  else if (name.length > 255) errors.name = ['The name must not be greater than 255 characters.'];
  if (!Array.isArray(input.scopes)) errors.scopes = ['The scopes must be an array.'];
  else {
    input.scopes.forEach((scope, i) => {
      if (typeof scope !== 'string' || !isKnownScope(scope))
        errors[`scopes.${i}`] = [`The selected scopes.${i} is invalid.`];
    });
  }
  const kind = input.kind ?? 'secret';
  if (!(API_KEY_KINDS as readonly string[]).includes(kind)) errors.kind = ['The selected kind is invalid.'];
  let origins: string[] | null = null;
  if (kind === 'publishable') {
    if (Array.isArray(input.scopes)) {
      input.scopes.forEach((scope, i) => {
        if (typeof scope === 'string' && isKnownScope(scope) && !isPublishableScope(scope)) {
          errors[`scopes.${i}`] = [`A publishable key may only have the scopes ${PUBLISHABLE_SCOPES.join(', ')}.`];
        }
      });
    }
    const given = input.origins ?? [];
    if (!Array.isArray(given) || given.length === 0)
      errors.origins = ['A publishable key needs at least one allowed origin.'];
    else if (given.length > MAX_ORIGINS) errors.origins = [`A key may have at most ${MAX_ORIGINS} origins.`];
    else {
      origins = [];
      given.forEach((value, i) => {
        const origin = typeof value === 'string' ? normalizeOrigin(value) : null;
        if (origin === null)
          errors[`origins.${i}`] = [
            `The origins.${i} must be an origin such as https://careers.example.com (scheme, host, optional port; no path).`,
          ];
        else if (!origins?.includes(origin)) origins?.push(origin);
      });
    }
  } else if (input.origins && input.origins.length > 0) {
    errors.origins = ['Only a publishable key has allowed origins.'];
  }
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);

  const { db } = ctx;
  if (!(await tenantExists(db))) throw new AppError('NOT_FOUND');
  const plaintext = generateApiKey(kind);
  const row = await insertApiKey(db, {
    name,
    keyHash: hashApiKey(plaintext),
    start: displayStart(plaintext),
    kind,
    scopes: [...new Set(input.scopes)],
    origins,
  });
  return { apiKey: toDto(row), plaintext };
}

/** The tenant's keys, newest first (revoked ones included, with their revocation time). */
export async function listApiKeys(ctx: TServiceContext): Promise<TApiKeyDto[]> {
  return (await selectApiKeys(ctx.db)).map(toDto);
}

/**
 * Revokes a key of the context's tenant (idempotent: a revoked key keeps its first revocation time); a key of another
 * tenant is NOT_FOUND, like a key that does not exist. The operator's CLI, which names keys by id alone, asks
 * `ownerTenant` first and calls with that tenant's context.
 */
export async function revokeApiKey(ctx: TServiceContext, input: { id: number }): Promise<TApiKeyDto> {
  const { id } = input;
  const { db } = ctx;
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const row = (await revokeApiKeyRow(db, id)) ?? (await selectApiKey(db, id));
  if (!row) throw new AppError('NOT_FOUND');
  return toDto(row);
}

/** The rate limits GET /me reports, by their name there. */
const REPORTED_LIMITS: Record<keyof TApiKeyDescription['rate_limits'], TRateLimitedOperation> = {
  applications: 'applications.create',
  candidates: 'candidates.create',
  canonical_url: 'vacancies.canonicalUrl',
};

/**
 * The key making a request as GET /me shows it, with the budget left in each rate limit, read without using any (for
 * a publishable key, the window nearer to exhaustion of its client address's and the key's own, which counts stored
 * applications only).
 */
export async function describeApiKey(
  ctx: TServiceContextWithEm,
  input: { tenant: { slug: string }; apiKey: TAuthenticatedKey; clientIp: string | undefined },
): Promise<TApiKeyDescription> {
  const { apiKey } = input;
  const clientAddress = apiKey.kind === 'publishable' ? input.clientIp : undefined;
  const entries: Array<[string, { limit: number; remaining: number; reset: number }]> = [];
  for (const [name, operation] of Object.entries(REPORTED_LIMITS)) {
    const state = await readRateLimit(ctx, { apiKeyId: apiKey.id, operation, kind: apiKey.kind, clientAddress });
    entries.push([name, { limit: state.limit, remaining: state.remaining, reset: state.resetAt }]);
  }
  return {
    tenant: input.tenant.slug,
    key: {
      id: apiKey.id,
      name: apiKey.name,
      kind: apiKey.kind,
      prefix: apiKey.start.slice(0, 12),
      scopes: [...apiKey.scopes],
      origins: apiKey.origins === null ? null : [...apiKey.origins],
      created_at: apiKey.createdAt.toISOString(),
    },
    rate_limits: Object.fromEntries(entries) as TApiKeyDescription['rate_limits'],
  };
}
