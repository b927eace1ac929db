import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'ck_live_';
/** Characters of the key kept for display ("ck_live_AbCd…"). */
const DISPLAY_LENGTH = 12;

/** SHA-256 hex digest of the full key: the only form in which keys are stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayStart(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}

/** A new key: prefix + 192 random bits, base64url. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString('base64url');
}
