/**
 * Change-feed cursors: opaque to clients, `base64url("c1.<tenant id>.<position>")`. Parsing is strict (the
 * canonical encoding only), and a cursor of another tenant is not ours.
 */
const PATTERN = /^c1\.([1-9]\d{0,9})\.(0|[1-9]\d{0,15})$/;

export function encodeChangeCursor(tenantId: number, position: number): string {
  return Buffer.from(`c1.${tenantId}.${position}`).toString('base64url');
}

/** The position a cursor stands for, or null when it is not a cursor this tenant was given. */
export function decodeChangeCursor(tenantId: number, cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = PATTERN.exec(text);
  if (!match || Number(match[1]) !== tenantId) return null;
  const position = Number(match[2]);
  if (!Number.isSafeInteger(position) || encodeChangeCursor(tenantId, position) !== cursor) return null;
  return position;
}
