import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { requestHash } from '../src/modules/idempotency/request-hash.ts';

/** The canonical form, written the obvious (recursive) way: sorted keys, absent values left out. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, reversed(item)]),
    );
  return value;
}

describe('requestHash', () => {
  it('property: is the SHA-256 of the canonical JSON, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(requestHash(value)).toBe(sha256(canonical(value)));
        expect(requestHash(reversed(value))).toBe(requestHash(value));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws: 100 000 levels of nesting, values that contain themselves, values JSON cannot hold', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(requestHash(deep)).toMatch(/^[0-9a-f]{64}$/);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    cyclic.list = [cyclic];
    expect(requestHash(cyclic)).toBe(sha256('{"a":1,"list":[null],"self":null}'));
    const shared = { x: 1 };
    expect(requestHash({ a: shared, b: shared })).toBe(sha256('{"a":{"x":1},"b":{"x":1}}'));
    expect(() => requestHash({ big: 10n, fn: () => 1, sym: Symbol('s') })).not.toThrow();
  });
});
