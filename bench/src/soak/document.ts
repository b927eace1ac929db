import { buildLargeDocument } from '@careers/core/operations';
import type { TTenantDocument } from '@careers/core/testing';

/** The three rate-limited writes of the mix, with their per-key limit per minute (CONTRACT). */
export const WRITE_LIMITS = { applications: 10, canonical: 60, candidates: 10 } as const;
export type TWrite = keyof typeof WRITE_LIMITS;

const SCOPE_OF: Record<TWrite, string> = {
  applications: 'applications:write',
  canonical: 'vacancies:write',
  candidates: 'candidates:write',
};

/**
 * Keys per write and phase. The probe and the soak use separate keys, so the probe's windows (60 s) cannot
 * push soak requests over a limit; sizes allow a capacity of roughly 1 500 req/s (the soak uses only as many
 * as its rate needs, and says so when it would need more).
 */
const POOL_SIZES: Record<TWrite, { probe: number; soak: number }> = {
  applications: { probe: 1200, soak: 2000 },
  canonical: { probe: 200, soak: 300 },
  candidates: { probe: 300, soak: 500 },
};

export type TPhase = 'probe' | 'soak';
export type TKeyPool = { size: number; key: (index: number) => string };

export function keyPool(write: TWrite, phase: TPhase): TKeyPool {
  return {
    size: POOL_SIZES[write][phase],
    key: (index) => `ck_soak_${write}_${phase}_${String(index).padStart(6, '0')}`,
  };
}

/** Ids of the soak's own rows, far from buildLargeDocument's (which start at 1 000 000). */
const KEY_ID_BASE = 9_000_000;

export const SOAK_VACANCIES = 20_000;
export const TENANT_SLUG = 'bench';
/** buildLargeDocument's user (idBase + 1): the recruiter that resumes are uploaded for. */
export const RECRUITER_ID = 1_000_001;
export const CAREER_DOMAIN = `careers.${TENANT_SLUG}.example`;

/** The large benchmark tenant (its key has every scope, for the reads) plus the rotated write keys. */
export function soakDocument(seed: number): TTenantDocument {
  const document = buildLargeDocument({ vacancies: SOAK_VACANCIES, seed });
  const tenant = document.tenants[0];
  if (!tenant) throw new Error('buildLargeDocument returned no tenant');
  let id = KEY_ID_BASE;
  const keys = [...(tenant.api_keys ?? [])];
  for (const write of Object.keys(POOL_SIZES) as TWrite[]) {
    for (const phase of ['probe', 'soak'] as const) {
      const pool = keyPool(write, phase);
      for (let index = 0; index < pool.size; index++) {
        keys.push({
          id: ++id,
          name: `soak ${write} ${phase} ${index}`,
          key: pool.key(index),
          scopes: [SCOPE_OF[write]],
          revoked: false,
        });
      }
    }
  }
  tenant.api_keys = keys as typeof tenant.api_keys;
  return document;
}
