import { buildLargeDocument } from '@careers/core/operations';
import { LARGE_API_KEY, type TTenantDocument } from '@careers/core/testing';
import { SCOPES } from '@careers/core/contract';

/**
 * Two tenants: the attacker's (enough vacancies that deep pages and searches cost real work, a pool of keys so
 * the per-key write limits do not hide an answer, and one known candidate for the echo check) and a bystander's,
 * whose key measures whether the attacks reach it.
 */

export const ATTACKER_VACANCIES = 10_000;
const ATTACKER_ID_BASE = 1_000_000;
const BYSTANDER_ID_BASE = 5_000_000;
/** Keys of the attacker: every request of an attack that writes uses its own (10 writes a minute per key). */
const ATTACKER_KEYS = 200;

export const attackerKey = (index: number) => `ck_abuse_attacker_${String(index % ATTACKER_KEYS).padStart(6, '0')}`;
export const BYSTANDER_KEY = `${LARGE_API_KEY}_abuse-bystander`;
/** buildLargeDocument's user (idBase + 1), the recruiter resumes are uploaded for. */
export const ATTACKER_USER_ID = ATTACKER_ID_BASE + 1;
/** The attacker tenant's career site key: public by design, so anyone may use it from its origin. */
export const SITE_KEY = 'pk_test_abuse_site_0000000000000000';
export const SITE_ORIGIN = 'https://careers.abuse-attacker.example';
export const KNOWN_CANDIDATE = { first_name: 'Stored', last_name: 'Person', email: 'known.person@abuse.example' };

export function abuseDocument(): TTenantDocument {
  const attacker = buildLargeDocument({
    vacancies: ATTACKER_VACANCIES,
    slug: 'abuse-attacker',
    idBase: ATTACKER_ID_BASE,
    seed: 11,
  }).tenants[0];
  const bystander = buildLargeDocument({
    vacancies: 300,
    slug: 'abuse-bystander',
    idBase: BYSTANDER_ID_BASE,
    seed: 12,
    locations: 20,
  }).tenants[0];
  if (!attacker || !bystander) throw new Error('buildLargeDocument returned no tenant');
  attacker.api_keys = Array.from({ length: ATTACKER_KEYS }, (_, index) => ({
    id: ATTACKER_ID_BASE + 900_000 + index,
    name: `attacker ${index}`,
    key: attackerKey(index),
    scopes: [...SCOPES],
    revoked: false,
  }));
  attacker.api_keys.push({
    id: ATTACKER_ID_BASE + 899_999,
    name: 'career site',
    key: SITE_KEY,
    scopes: ['vacancies:read', 'applications:write'],
    kind: 'publishable',
    origins: [SITE_ORIGIN],
    revoked: false,
  });
  attacker.candidates = [
    {
      id: ATTACKER_ID_BASE + 1,
      slug: 'stored-person',
      user_id: ATTACKER_USER_ID,
      ...KNOWN_CANDIDATE,
      phone: null,
      status: 'potential',
    },
  ];
  return { tenants: [attacker, bystander] };
}
