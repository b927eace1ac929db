import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { hitRateLimit, readRateLimit } from '../src/modules/rate-limits/rate-limit.service.ts';
import { PUBLISHABLE_RATE_LIMITS, RATE_LIMITS } from '../src/modules/rate-limits/rate-limit-buckets.ts';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
});
afterAll(async () => orm?.close());

const { perAddress, perKey } = PUBLISHABLE_RATE_LIMITS['applications.create'] ?? {
  perAddress: { limit: 0 },
  perKey: { limit: 0 },
};
let nextKeyId = 1;
const publishable = (clientAddress: string) => ({ kind: 'publishable' as const, clientAddress });

/** Starts the key's own window now with `hits` places taken (so its end is reachable in a short sequence). */
async function startKeyWindow(keyId: number, hits: number): Promise<void> {
  await orm.em
    .fork()
    .execute(`insert into rate_limit_windows (bucket, window_start, hits) values (?, statement_timestamp(), ?)`, [
      `${keyId}:applications.create`,
      hits,
    ]);
}

async function keyWindowHits(keyId: number): Promise<number> {
  const rows = await orm.em
    .fork()
    .execute<{ hits: number }[]>('select hits from rate_limit_windows where bucket = ?', [
      `${keyId}:applications.create`,
    ]);
  return Number(rows[0]?.hits ?? 0);
}

describe('limits of publishable keys (CONTRACT "Guarding the shared service")', () => {
  it('are 5 a minute per address and 120 stored a minute per key', () => {
    expect(perAddress.limit).toBe(5);
    expect(perKey.limit).toBe(120);
  });

  it('admit a request only within its address budget and the key budget; the key keeps a place only for requests that store', async () => {
    // Addresses as an API process sees them; the two IPv6 ones share a /64 and so one budget.
    const addresses = [
      '203.0.113.1',
      '203.0.113.2',
      '::ffff:203.0.113.3',
      '2001:db8::1',
      '2001:db8::2',
      '2001:db8:0:1::1',
    ];
    const group = (address: string) =>
      address.startsWith('2001:db8::') ? '2001:db8::/64' : address.replace('::ffff:', '');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: perKey.limit - 12, max: perKey.limit }),
        fc.array(fc.record({ address: fc.constantFrom(...addresses), stores: fc.boolean() }), {
          minLength: 1,
          maxLength: 40,
        }),
        async (startHits, sequence) => {
          const keyId = nextKeyId++;
          await startKeyWindow(keyId, startHits);
          const em = orm.em.fork();
          let keyHits = startHits;
          const addressHits = new Map<string, number>();
          for (const { address, stores } of sequence) {
            const hits = (addressHits.get(group(address)) ?? 0) + 1;
            addressHits.set(group(address), hits);
            const reserved = hits <= perAddress.limit;
            if (reserved) keyHits++;
            const exceeded = hits > perAddress.limit || keyHits > perKey.limit;
            const state = await hitRateLimit(
              { em },
              { apiKeyId: keyId, operation: 'applications.create', ...publishable(address) },
            );
            expect(state.exceeded).toBe(exceeded);
            const addressLeft = perAddress.limit - hits;
            const keyLeft = perKey.limit - keyHits;
            expect(state.remaining).toBe(exceeded ? 0 : Math.min(addressLeft, keyLeft));
            // The headers describe the window nearer to exhaustion (the address's when it is the one refusing).
            if (hits > perAddress.limit || (!exceeded && addressLeft < keyLeft))
              expect(state.limit).toBe(perAddress.limit);
            if (!exceeded && keyLeft < addressLeft) expect(state.limit).toBe(perKey.limit);
            // Only a request that took a place in the key's window can give it back.
            expect(state.giveBack !== undefined).toBe(reserved);
            if (reserved && (exceeded || !stores)) {
              await state.giveBack?.();
              await state.giveBack?.();
              keyHits--;
            }
          }
          expect(await keyWindowHits(keyId)).toBe(keyHits);
          // Reading (GET /me) shows the same budget and counts nothing.
          const last = sequence.at(-1)!.address;
          const expected = Math.max(
            0,
            Math.min(perAddress.limit - (addressHits.get(group(last)) ?? 0), perKey.limit - keyHits),
          );
          expect(
            (await readRateLimit({ em }, { apiKeyId: keyId, operation: 'applications.create', ...publishable(last) }))
              .remaining,
          ).toBe(expected);
          expect(
            (await readRateLimit({ em }, { apiKeyId: keyId, operation: 'applications.create', ...publishable(last) }))
              .remaining,
          ).toBe(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('admit exactly the key budget when many addresses apply at once, and every refused request gives its place back', async () => {
    const keyId = nextKeyId++;
    const attempts = perKey.limit + 40;
    const states = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        hitRateLimit(
          { em: orm.em.fork() },
          {
            apiKeyId: keyId,
            operation: 'applications.create',
            ...publishable(`198.51.${Math.floor(i / 250)}.${i % 250}`),
          },
        ),
      ),
    );
    const admitted = states.filter((state) => !state.exceeded);
    expect(admitted).toHaveLength(perKey.limit);
    await Promise.all(states.filter((state) => state.exceeded).map((state) => state.giveBack?.()));
    expect(await keyWindowHits(keyId)).toBe(perKey.limit);
    // Ten admitted requests that did not store give their places back: exactly ten more are admitted.
    await Promise.all(admitted.slice(0, 10).map((state) => state.giveBack?.()));
    const again = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        hitRateLimit(
          { em: orm.em.fork() },
          { apiKeyId: keyId, operation: 'applications.create', ...publishable(`192.0.2.${i}`) },
        ),
      ),
    );
    expect(again.filter((state) => !state.exceeded)).toHaveLength(10);
  });

  it('never give a place back to a window that started again after it was taken', async () => {
    const keyId = nextKeyId++;
    const taken = await hitRateLimit(
      { em: orm.em.fork() },
      { apiKeyId: keyId, operation: 'applications.create', ...publishable('203.0.113.50') },
    );
    // The window ends and a new one starts with one request.
    await orm.em
      .fork()
      .execute(`update rate_limit_windows set window_start = window_start - interval '61 seconds' where bucket = ?`, [
        `${keyId}:applications.create`,
      ]);
    await hitRateLimit(
      { em: orm.em.fork() },
      { apiKeyId: keyId, operation: 'applications.create', ...publishable('203.0.113.51') },
    );
    await taken.giveBack?.();
    expect(await keyWindowHits(keyId)).toBe(1);
  });

  it('leave secret keys as they were: every request counts against the key, none per address, nothing to give back', async () => {
    const keyId = nextKeyId++;
    const states = [];
    for (let i = 0; i <= RATE_LIMITS['applications.create'].limit; i++)
      states.push(
        await hitRateLimit(
          { em: orm.em.fork() },
          { apiKeyId: keyId, operation: 'applications.create', kind: 'secret' },
        ),
      );
    expect(states.map((state) => state.exceeded)).toEqual([
      ...Array.from({ length: RATE_LIMITS['applications.create'].limit }, () => false),
      true,
    ]);
    expect(
      states.every((state) => state.giveBack === undefined && state.limit === RATE_LIMITS['applications.create'].limit),
    ).toBe(true);
    const rows = await orm.em
      .fork()
      .execute(`select count(*)::int as n from rate_limit_windows where bucket like ?`, [`${keyId}:%:address:%`]);
    expect(rows).toEqual([{ n: 0 }]);
  });
});
