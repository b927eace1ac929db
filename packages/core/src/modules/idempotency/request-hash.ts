import { createHash, type Hash } from 'node:crypto';

/**
 * SHA-256 of a JSON value in a canonical form (object keys sorted), fed to the hash piece by piece so a
 * 40 MB body is never serialised into one more string. Two bodies that differ only in key order or
 * whitespace are the same request.
 */
export function requestHash(value: unknown): string {
  const hash = createHash('sha256');
  feed(hash, value);
  return hash.digest('hex');
}

function feed(hash: Hash, value: unknown): void {
  if (value === null || typeof value !== 'object') {
    // undefined (absent) and functions never come out of JSON; treat them as null.
    hash.update(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    hash.update('[');
    value.forEach((item, index) => {
      if (index > 0) hash.update(',');
      feed(hash, item);
    });
    hash.update(']');
    return;
  }
  const record = value as Record<string, unknown>;
  hash.update('{');
  let first = true;
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    if (!first) hash.update(',');
    first = false;
    hash.update(JSON.stringify(key));
    hash.update(':');
    feed(hash, record[key]);
  }
  hash.update('}');
}
