import type { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { crossTenantDb, type TDb } from '../../db/kysely.ts';
import { StatementTemplate, type TArg } from '../../db/fast-path/index.ts';
import { couldBeApiKey, hashApiKey, type TApiKeyKind } from './api-key.crypto.ts';
import { isOriginAllowed } from './api-key.origins.ts';
import { AppError } from '../../lib/errors.ts';
import { privacySettingsOf, type TPrivacySettings } from '../privacy/privacy-settings.ts';

export type TTenantContext = {
  id: number;
  slug: string;
  name: string;
  defaultLanguage: string;
  apiEnabled: boolean;
  careerSiteDomain: string | null;
  urlPattern: string | null;
  domains: string[];
  /** The tenant's privacy settings (consent required, policy version, retention). */
  privacy: TPrivacySettings;
};

export type TAuthenticatedKey = {
  id: number;
  name: string;
  kind: TApiKeyKind;
  /** First characters of the key (what administrators see). */
  start: string;
  scopes: string[];
  /** Allowed origins of a publishable key; null for a secret key. */
  origins: string[] | null;
  createdAt: Date;
};

export type TKeyVerification =
  | { ok: true; apiKey: TAuthenticatedKey; tenant: TTenantContext }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' };

/** How long a verification (hit or miss) is trusted; a revocation is honoured by every process within it. */
export const KEY_CACHE_TTL_MS = 500;
/** Bounds of the two caches: found keys (revoked ones included) and digests that match no key. */
const MAX_CACHED_KEYS = 10_000;
const MAX_CACHED_MISSES = 10_000;
const BEARER = /^bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/**
 * A verification and when it stops being trusted. The expiry is kept here rather than as lru-cache's `ttl` because
 * it runs on the verifier's own clock (`now`, which tests turn) and a verification in flight stamps the time it began.
 */
type TCacheEntry = { result: TKeyVerification; expiresAt: number };

/** Reads the verification of one digest from the database. */
export type TKeyLookup = (digest: string) => Promise<TKeyVerification>;

export type TKeyVerifierOptions = {
  /** Replaces the database read (tests of the cache policy). */
  lookup?: TKeyLookup;
  /** Milliseconds clock (tests). */
  now?: () => number;
  maxCachedKeys?: number;
  maxCachedMisses?: number;
};

/** A key (with its tenant) by the SHA-256 of the full key; built once (StatementTemplate): every cache miss runs it. */
const keyByHash = StatementTemplate.unscoped((db, arg: TArg<{ digest: string }>) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('tenants as t', 't.id', 'k.tenant_id')
    .select([
      'k.id as key_id',
      'k.name as key_name',
      'k.scopes',
      'k.kind',
      'k.start',
      'k.origins',
      'k.created_at',
      'k.revoked_at',
      't.id as tenant_id',
      't.slug',
      't.name as tenant_name',
      't.default_language',
      't.api_enabled',
      't.career_site_domain',
      't.url_pattern',
      't.domains',
      't.privacy',
    ])
    .where(
      'k.key_hash',
      '=',
      arg((args) => args.digest),
    ),
);

/**
 * Verifies API keys by their SHA-256 digest, with a short in-process cache, and records last use in memory
 * (flushed in batches, never a write per request). A token that cannot be a key never reaches the database;
 * digests that match no key are cached apart from found keys, so a spray of random tokens cannot push valid
 * keys out; concurrent verifications of one digest share one query.
 */
export class ApiKeyVerifier {
  readonly #orm: MikroORM;
  #kysely: TDb | undefined;
  readonly #lookup: TKeyLookup;
  readonly #now: () => number;
  /** Bounded by count, least recently used out first (lru-cache). */
  readonly #found: LRUCache<string, TCacheEntry>;
  readonly #unknown: LRUCache<string, TCacheEntry>;
  readonly #pending = new Map<string, Promise<TKeyVerification>>();
  /** Bumped by evictAll: a query begun before it must not fill the cache after it. */
  #generation = 0;
  readonly #lastUsed = new Map<number, Date>();
  /** Verifications answered from the cache, and those that read (or waited for) the database. */
  cacheHits = 0;
  cacheMisses = 0;
  /** Database queries made. */
  lookups = 0;

  constructor(orm: MikroORM, options: TKeyVerifierOptions = {}) {
    this.#orm = orm;
    this.#lookup = options.lookup ?? ((digest) => this.#load(digest));
    this.#now = options.now ?? Date.now;
    this.#found = new LRUCache({ max: options.maxCachedKeys ?? MAX_CACHED_KEYS });
    this.#unknown = new LRUCache({ max: options.maxCachedMisses ?? MAX_CACHED_MISSES });
  }

  async verify(authorization: string | undefined): Promise<TKeyVerification> {
    if (!authorization) return { ok: false, reason: 'missing' };
    const match = BEARER.exec(authorization);
    if (!match?.[1] || !couldBeApiKey(match[1])) return { ok: false, reason: 'malformed' };
    const digest = hashApiKey(match[1]);
    const now = this.#now();
    const cached = this.#found.get(digest) ?? this.#unknown.get(digest);
    let result: TKeyVerification;
    if (cached && cached.expiresAt > now) {
      this.cacheHits++;
      result = cached.result;
    } else {
      this.cacheMisses++;
      result = await this.#lookupOnce(digest);
    }
    if (result.ok) this.#lastUsed.set(result.apiKey.id, new Date(now));
    return result;
  }

  /** Drops cached verifications (this process), e.g. right after a revocation. */
  evictAll(): void {
    this.#generation++;
    this.#found.clear();
    this.#unknown.clear();
    this.#pending.clear();
  }

  /** Cached verifications: found keys and unknown digests. */
  get cacheSize(): { keys: number; misses: number } {
    return { keys: this.#found.size, misses: this.#unknown.size };
  }

  #lookupOnce(digest: string): Promise<TKeyVerification> {
    const pending = this.#pending.get(digest);
    if (pending) return pending;
    const generation = this.#generation;
    // Trusted from when the query began, so no answer is older than the TTL.
    const startedAt = this.#now();
    this.lookups++;
    const query = this.#lookup(digest)
      .then((result) => {
        if (generation === this.#generation) {
          const entry = { result, expiresAt: startedAt + KEY_CACHE_TTL_MS };
          if (result.ok || result.reason === 'revoked') {
            this.#unknown.delete(digest);
            this.#found.set(digest, entry);
          } else {
            this.#found.delete(digest);
            this.#unknown.set(digest, entry);
          }
        }
        return result;
      })
      .finally(() => {
        if (this.#pending.get(digest) === query) this.#pending.delete(digest);
      });
    this.#pending.set(digest, query);
    return query;
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
        from unnest(${ids}::int[], ${times}::timestamptz[]) as v(id, t) where api_keys.id = v.id`.execute(this.#db());
    } catch (error) {
      // Keep them for the next flush (unless a newer use was recorded meanwhile): an outage loses no last use.
      for (const [id, at] of entries) {
        const newer = this.#lastUsed.get(id);
        if (!newer || newer < at) this.#lastUsed.set(id, at);
      }
      throw error;
    }
  }

  /**
   * The pool's Kysely, outside any transaction: made once (a fork per lookup cost more CPU than the rest of a
   * key-cache miss in Node).
   */
  #db(): TDb {
    this.#kysely ??= crossTenantDb(this.#orm.em.fork());
    return this.#kysely;
  }

  async #load(digest: string): Promise<TKeyVerification> {
    const [row] = await keyByHash.execute(this.#db(), { digest });
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      apiKey: {
        id: row.key_id,
        name: row.key_name,
        kind: row.kind === 'publishable' ? 'publishable' : 'secret',
        start: row.start,
        scopes: row.scopes,
        origins: row.origins ?? null,
        createdAt: new Date(row.created_at),
      },
      tenant: {
        id: row.tenant_id,
        slug: row.slug,
        name: row.tenant_name,
        defaultLanguage: row.default_language,
        apiEnabled: row.api_enabled,
        careerSiteDomain: row.career_site_domain,
        urlPattern: row.url_pattern,
        domains: row.domains,
        privacy: privacySettingsOf(row.privacy),
      },
    };
  }
}

export type TActiveKey = Extract<TKeyVerification, { ok: true }>;

/** Whether the browser may read the answers to this key from this origin (a publishable key and an allowed origin). */
export function corsAllowed(verification: TKeyVerification, origin: string | undefined): boolean {
  return (
    verification.ok &&
    verification.apiKey.kind === 'publishable' &&
    isOriginAllowed(verification.apiKey.origins, origin)
  );
}

/**
 * The first checks of every API-key request, in CONTRACT's order: a valid key (401), a tenant with API access (403),
 * then for a publishable key an allowed `Origin` (403 ORIGIN_NOT_ALLOWED; a publishable key is public, so a request
 * without an allowed origin is refused). Shared by the REST facade (which runs them before reading a body) and the
 * procedures.
 */
export function requireActiveKey(verification: TKeyVerification, origin: string | undefined): TActiveKey {
  if (!verification.ok) throw new AppError('UNAUTHENTICATED');
  if (!verification.tenant.apiEnabled) throw new AppError('API_ACCESS_DISABLED');
  if (verification.apiKey.kind === 'publishable' && !isOriginAllowed(verification.apiKey.origins, origin))
    throw new AppError('ORIGIN_NOT_ALLOWED');
  return verification;
}
