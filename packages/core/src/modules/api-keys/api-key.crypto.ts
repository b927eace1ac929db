import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';

export const API_KEY_PREFIX = 'ck_live_';
/** Publishable keys (career sites in the browser): `pk_live_`, or `pk_test_` for a test site. */
export const PUBLISHABLE_KEY_PREFIXES = { live: 'pk_live_', test: 'pk_test_' } as const;
export const API_KEY_KINDS = ['secret', 'publishable'] as const;
export type TApiKeyKind = (typeof API_KEY_KINDS)[number];
/** Characters of the key kept for display ("ck_live_AbCd…"). */
const DISPLAY_LENGTH = 12;

/** SHA-256 hex digest of the full key: the only form in which keys are stored. */
export function hashApiKey(key: string): string {
  // One-shot: every request hashes its key, and a Hash object per call costs more than the digest.
  return hash('sha256', key, 'hex');
}

export function displayStart(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}

/** A new key: prefix + 192 random bits, base64url. A publishable key is `pk_live_…` (or `pk_test_…`). */
export function generateApiKey(
  kind: TApiKeyKind = 'secret',
  mode: keyof typeof PUBLISHABLE_KEY_PREFIXES = 'live',
): string {
  const prefix = kind === 'publishable' ? PUBLISHABLE_KEY_PREFIXES[mode] : API_KEY_PREFIX;
  return prefix + randomBytes(24).toString('base64url');
}

/**
 * Every string that can be a key: generated ones (`ck_live_` + 32 base64url characters) and those a tenant document
 * imports (20 to 255 visible ASCII characters, the only ones a Bearer header carries). The import schema and the
 * verifier share it, so a token of another shape is refused without reading the database.
 */
export const ZApiKeyPlaintext = z
  .string()
  .min(20, 'must be at least 20 characters')
  .max(255, 'must be at most 255 characters')
  .regex(/^[\x21-\x7e]*$/, 'must be visible ASCII characters (no spaces)');

export function couldBeApiKey(token: string): boolean {
  return ZApiKeyPlaintext.safeParse(token).success;
}
