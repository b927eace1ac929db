import type { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kyselyOf } from '../../db/kysely.ts';
import { hashApiKey } from './api-key.crypto.ts';
import { AppError } from '../../lib/errors.ts';

export type TTenantContext = {
  id: number;
  slug: string;
  name: string;
  defaultLanguage: string;
  apiEnabled: boolean;
  careerSiteDomain: string | null;
  urlPattern: string | null;
  domains: string[];
};

export type TAuthenticatedKey = { id: number; name: string; scopes: string[] };

export type TKeyVerification =
  | { ok: true; apiKey: TAuthenticatedKey; tenant: TTenantContext }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

/** How long a verification (hit or miss) is trusted; a revocation is honoured by every process within it. */
export const KEY_CACHE_TTL_MS = 500;
const MAX_CACHE_ENTRIES = 10_000;
const BEARER = /^bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

type TCacheEntry = { result: TKeyVerification; expiresAt: number };

/**
 * Verifies API keys by their SHA-256 digest, with a short in-process cache of hits and misses, and
 * records last use in memory (flushed in batches, never a write per request).
 */
export class ApiKeyVerifier {
  readonly #orm: MikroORM;
  readonly #cache = new Map<string, TCacheEntry>();
  readonly #lastUsed = new Map<number, Date>();
  cacheHits = 0;
  cacheMisses = 0;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async verify(authorization: string | undefined): Promise<TKeyVerification> {
    if (!authorization) return { ok: false, reason: 'missing' };
    const match = BEARER.exec(authorization);
    if (!match?.[1]) return { ok: false, reason: 'malformed' };
    const digest = hashApiKey(match[1]);
    const now = Date.now();
    const cached = this.#cache.get(digest);
    let result: TKeyVerification;
    if (cached && cached.expiresAt > now) {
      this.cacheHits++;
      result = cached.result;
    } else {
      this.cacheMisses++;
      result = await this.#load(digest);
      if (this.#cache.size >= MAX_CACHE_ENTRIES) this.#cache.clear();
      this.#cache.set(digest, { result, expiresAt: now + KEY_CACHE_TTL_MS });
    }
    if (result.ok) this.#lastUsed.set(result.apiKey.id, new Date(now));
    return result;
  }

  /** Drops cached verifications (this process), e.g. right after a revocation. */
  evictAll(): void {
    this.#cache.clear();
  }

  /** Writes the recorded last-use times in one statement. */
  async flushLastUsed(): Promise<void> {
    if (this.#lastUsed.size === 0) return;
    const entries = [...this.#lastUsed.entries()];
    this.#lastUsed.clear();
    const ids = entries.map(([id]) => id);
    const times = entries.map(([, at]) => at.toISOString());
    try {
      await sql`update api_keys set last_used_at = greatest(coalesce(api_keys.last_used_at, v.t), v.t)
        from unnest(${ids}::int[], ${times}::timestamptz[]) as v(id, t) where api_keys.id = v.id`.execute(kyselyOf(this.#orm.em.fork()));
    } catch (error) {
      // Keep them for the next flush (unless a newer use was recorded meanwhile): an outage loses no last use.
      for (const [id, at] of entries) {
        const newer = this.#lastUsed.get(id);
        if (!newer || newer < at) this.#lastUsed.set(id, at);
      }
      throw error;
    }
  }

  async #load(digest: string): Promise<TKeyVerification> {
    const db = kyselyOf(this.#orm.em.fork());
    const row = await db
      .selectFrom('api_keys as k')
      .innerJoin('tenants as t', 't.id', 'k.tenant_id')
      .select([
        'k.id as key_id',
        'k.name as key_name',
        'k.scopes',
        'k.revoked_at',
        't.id as tenant_id',
        't.slug',
        't.name as tenant_name',
        't.default_language',
        't.api_enabled',
        't.career_site_domain',
        't.url_pattern',
        't.domains',
      ])
      .where('k.key_hash', '=', digest)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      apiKey: { id: row.key_id, name: row.key_name, scopes: row.scopes },
      tenant: {
        id: row.tenant_id,
        slug: row.slug,
        name: row.tenant_name,
        defaultLanguage: row.default_language,
        apiEnabled: row.api_enabled,
        careerSiteDomain: row.career_site_domain,
        urlPattern: row.url_pattern,
        domains: row.domains,
      },
    };
  }
}

type TActiveKey = Extract<TKeyVerification, { ok: true }>;

/**
 * The first two checks of every API-key request, in CONTRACT's order: a valid key (401), then a tenant with
 * API access (403). Shared by the REST facade (which runs them before reading a body) and the procedures.
 */
export function requireActiveKey(verification: TKeyVerification): TActiveKey {
  if (!verification.ok) throw new AppError('UNAUTHENTICATED');
  if (!verification.tenant.apiEnabled) throw new AppError('API_ACCESS_DISABLED');
  return verification;
}
