import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { hitRateLimit, readRateLimit } from '../src/modules/rate-limits/rate-limits.ts';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
});
afterAll(async () => orm?.close());

const LIMIT = 10;
let nextKeyId = 1;

describe('per-address limits of publishable keys', () => {
  it('admit a request only within both the address and the key budget; refusals by the address spend nothing of the key', async () => {
    // Addresses as an API process sees them; the two IPv6 ones share a /64 and so one budget.
    const addresses = ['203.0.113.1', '203.0.113.2', '::ffff:203.0.113.3', '2001:db8::1', '2001:db8::2', '2001:db8:0:1::1'];
    const group = (address: string) => (address.startsWith('2001:db8::') ? '2001:db8::/64' : address);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...addresses), { minLength: 1, maxLength: 40 }), async (sequence) => {
        const keyId = nextKeyId++;
        const em = orm.em.fork();
        let keyHits = 0;
        const addressHits = new Map<string, number>();
        for (const address of sequence) {
          const hits = (addressHits.get(group(address)) ?? 0) + 1;
          addressHits.set(group(address), hits);
          if (hits <= LIMIT) keyHits++;
          const exceeded = hits > LIMIT || keyHits > LIMIT;
          const state = await hitRateLimit(em, keyId, 'applications.create', { clientAddress: address });
          expect(state.exceeded).toBe(exceeded);
          expect(state.limit).toBe(LIMIT);
          expect(state.remaining).toBe(exceeded ? 0 : Math.min(LIMIT - hits, LIMIT - keyHits));
        }
        // Reading (GET /me) shows the same tighter budget and counts nothing.
        const last = sequence.at(-1)!;
        const expected = Math.max(0, Math.min(LIMIT - (addressHits.get(group(last)) ?? 0), LIMIT - keyHits));
        expect((await readRateLimit(em, keyId, 'applications.create', { clientAddress: last })).remaining).toBe(expected);
        expect((await readRateLimit(em, keyId, 'applications.create', { clientAddress: last })).remaining).toBe(expected);
        expect((await readRateLimit(em, keyId, 'applications.create')).remaining).toBe(Math.max(0, LIMIT - keyHits));
      }),
      { numRuns: 40 },
    );
  });
});
