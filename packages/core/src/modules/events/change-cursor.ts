import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Change-feed cursors: opaque and authenticated. A cursor is `base64url(version ‖ iv ‖ AES-256-GCM(position) ‖ tag)`
 * under a key only the service holds (see events.service.ts), with the tenant's id as associated data: it tells a
 * reader nothing (positions are a counter shared by every tenant, so they would tell how busy the others are), and a
 * cursor that was forged, altered or given to another tenant fails authentication.
 */
const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const POSITION_BYTES = 8;
const CURSOR_BYTES = 1 + IV_BYTES + POSITION_BYTES + TAG_BYTES;
/** base64url of CURSOR_BYTES bytes, unpadded. */
const CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((CURSOR_BYTES * 4) / 3)}}$`);

const associatedData = (tenantId: number) => Buffer.from(`careers change feed, tenant ${tenantId}`, 'utf8');

export function encodeChangeCursor(key: Buffer, tenantId: number, position: number): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(tenantId));
  const plain = Buffer.alloc(POSITION_BYTES);
  plain.writeBigUInt64BE(BigInt(position));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The position a cursor stands for, or null when it is not a cursor this tenant was given. */
export function decodeChangeCursor(key: Buffer, tenantId: number, cursor: string): number | null {
  if (!CURSOR_TEXT.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  // The canonical encoding only (no other spelling of the same bytes).
  if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== cursor || bytes[0] !== VERSION) return null;
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const sealed = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + POSITION_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES + POSITION_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(tenantId));
    decipher.setAuthTag(tag);
    const position = Buffer.concat([decipher.update(sealed), decipher.final()]).readBigUInt64BE();
    return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
  } catch {
    return null;
  }
}
