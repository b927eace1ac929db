import type { Pool } from 'pg';
import { AppError, hashApiKey, type TScope } from '@careers/core/bench';

/** The key and tenant of a request, as one query reads them. */
export type TCaller = {
  keyId: number;
  tenantId: number;
  tenantName: string;
  defaultLanguage: string;
  urlPattern: string | null;
  duplicateApplications: 'allow' | 'reject';
};

const BEARER = /^bearer[ \t]+([\x21-\x7e]{20,255})[ \t]*$/i;

/**
 * Authenticates by the SHA-256 digest of the bearer key — one query per request, no cache — then checks the tenant's
 * API access and the scope (a secret key; the benchmarks use no publishable key). Last use is recorded in memory and
 * written once a second, as the product does.
 */
export class ReferenceAuth {
  readonly #pool: Pool;
  readonly #lastUsed = new Map<number, Date>();

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async authenticate(authorization: string | undefined, scope: TScope): Promise<TCaller> {
    const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    if (!token) throw new AppError('UNAUTHENTICATED');
    const { rows } = await this.#pool.query(
      `select k.id, k.scopes, k.revoked_at, t.id as tenant_id, t.name, t.default_language, t.url_pattern, t.api_enabled, t.duplicate_applications
       from api_keys k join tenants t on t.id = k.tenant_id where k.key_hash = $1`,
      [hashApiKey(token)],
    );
    const row = rows[0];
    if (!row || row.revoked_at) throw new AppError('UNAUTHENTICATED');
    if (!row.api_enabled) throw new AppError('API_ACCESS_DISABLED');
    if (!row.scopes.includes('*') && !row.scopes.includes(scope)) throw AppError.insufficientScope(scope);
    this.#lastUsed.set(row.id, new Date());
    return {
      keyId: row.id,
      tenantId: row.tenant_id,
      tenantName: row.name,
      defaultLanguage: row.default_language,
      urlPattern: row.url_pattern,
      duplicateApplications: row.duplicate_applications,
    };
  }

  async flush(): Promise<void> {
    if (this.#lastUsed.size === 0) return;
    const used = [...this.#lastUsed];
    this.#lastUsed.clear();
    await this.#pool.query(
      `update api_keys k set last_used_at = u.at from unnest($1::int[], $2::timestamptz[]) as u(id, at) where k.id = u.id`,
      [used.map(([id]) => id), used.map(([, at]) => at.toISOString())],
    );
  }
}
