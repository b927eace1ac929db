import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { couldBeApiKey, generateApiKey, hashApiKey } from '../src/modules/api-keys/api-key.crypto.ts';
import { ApiKeyVerifier, KEY_CACHE_TTL_MS, type TKeyVerification } from '../src/modules/api-keys/api-key.verifier.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { createApiKey } from '../src/modules/api-keys/api-key.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';

const IMPORTED_KEY = 'imported-key.with~odd_chars!42';
let orm: MikroORM;
let tenantId: number;

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  const summary = await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          slug: 'acme',
          name: 'Acme',
          api_keys: [{ id: 1, name: 'Imported', key: IMPORTED_KEY, scopes: ['vacancies:read'] }],
        },
      ],
    },
  );
  tenantId = summary.tenants[0]?.id ?? 0;
});
afterAll(async () => orm?.close(true));

const bearer = (token: string) => `Bearer ${token}`;
/** A token of a key's shape that is no key. */
const sprayToken = () => `ck_live_${randomBytes(24).toString('base64url')}`;

describe('key shape', () => {
  it('accepts every generated key and the imported ones', () => {
    for (let i = 0; i < 1000; i++) expect(couldBeApiKey(generateApiKey())).toBe(true);
    expect(couldBeApiKey(IMPORTED_KEY)).toBe(true);
  });

  it('is the import rule: a key a Bearer header cannot carry is refused at import', async () => {
    await expect(
      importTenantDocument(
        { em: orm.em },
        {
          tenants: [
            { slug: 'spaced', name: 'S', api_keys: [{ id: 9, name: 'K', key: 'a key with spaces in it', scopes: [] }] },
          ],
        },
      ),
    ).rejects.toThrow(/api_keys\[0\]\.key: must be visible ASCII/);
  });
});

describe('api key verifier', () => {
  it('answers strings that cannot be keys without a query', async () => {
    const verifier = new ApiKeyVerifier(orm);
    const cannotBeKey = fc.oneof(
      fc.string({ maxLength: 19 }),
      fc.string({ minLength: 256, maxLength: 600 }),
      fc
        .tuple(
          fc.string({ minLength: 10 }),
          fc.constantFrom(' ', '\u00e9', '\u0000', '\u{1F600}'),
          fc.string({ minLength: 10 }),
        )
        .map((parts) => parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(cannotBeKey, async (token) => {
        fc.pre(!couldBeApiKey(token));
        const result = await verifier.verify(bearer(token));
        expect(result).toEqual({ ok: false, reason: 'malformed' });
      }),
      { numRuns: 300 },
    );
    expect(verifier.lookups).toBe(0);
    expect(await verifier.verify(bearer(IMPORTED_KEY))).toMatchObject({ ok: true, tenant: { id: tenantId } });
    expect(verifier.lookups).toBe(1);
  });

  it('keeps answering a valid key from its cache through a spray of 100 000 random well-formed tokens', async () => {
    const valid = hashApiKey(IMPORTED_KEY);
    const real = new ApiKeyVerifier(orm);
    const found = await real.verify(bearer(IMPORTED_KEY));
    let validQueries = 0;
    let now = 0;
    const verifier = new ApiKeyVerifier(orm, {
      now: () => now,
      // The database answer for the valid key; every other digest is unknown (as it would be).
      lookup: async (digest): Promise<TKeyVerification> => {
        if (digest !== valid) return { ok: false, reason: 'unknown' };
        validQueries++;
        return found;
      },
    });
    expect(await verifier.verify(bearer(IMPORTED_KEY))).toEqual(found);
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 1000; i++) expect((await verifier.verify(bearer(sprayToken()))).ok).toBe(false);
      now += 4; // 100 000 misses in 400 ms of clock: still within the TTL of the first answer
      const hitsBefore = verifier.cacheHits;
      expect(await verifier.verify(bearer(IMPORTED_KEY))).toEqual(found);
      expect(verifier.cacheHits).toBe(hitsBefore + 1);
    }
    expect(validQueries).toBe(1);
    expect(verifier.lookups).toBe(100_001);
    expect(verifier.cacheSize).toEqual({ keys: 1, misses: 10_000 });
  });

  it('never lets misses evict a found key, whatever the sequence (small caches)', async () => {
    const keys = ['valid-key-number-one-000', 'valid-key-number-two-000'];
    const digests = new Set(keys.map(hashApiKey));
    const found = await new ApiKeyVerifier(orm).verify(bearer(IMPORTED_KEY));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.stringMatching(/^[\x21-\x7e]{20,40}$/), { maxLength: 200 }), async (tokens) => {
        fc.pre(tokens.every((token) => !keys.includes(token)));
        const verifier = new ApiKeyVerifier(orm, {
          now: () => 0,
          maxCachedMisses: 5,
          lookup: async (digest) => (digests.has(digest) ? found : { ok: false, reason: 'unknown' }),
        });
        for (const key of keys) await verifier.verify(bearer(key));
        for (const token of tokens) await verifier.verify(bearer(token));
        const lookups = verifier.lookups;
        for (const key of keys) expect((await verifier.verify(bearer(key))).ok).toBe(true);
        expect(verifier.lookups).toBe(lookups);
      }),
      { numRuns: 100 },
    );
  });

  it('makes one query for 50 concurrent verifications of a new key', async () => {
    const { plaintext } = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
      name: 'Fresh',
      scopes: ['vacancies:read'],
    });
    const verifier = new ApiKeyVerifier(orm);
    const results = await Promise.all(Array.from({ length: 50 }, () => verifier.verify(bearer(plaintext))));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(verifier.lookups).toBe(1);
    const unknown = sprayToken();
    const misses = await Promise.all(Array.from({ length: 50 }, () => verifier.verify(bearer(unknown))));
    expect(misses.every((result) => !result.ok && result.reason === 'unknown')).toBe(true);
    expect(verifier.lookups).toBe(2);
  });

  it('honours a revocation made by another process within the TTL', async () => {
    const { apiKey, plaintext } = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
      name: 'Soon revoked',
      scopes: [],
    });
    const verifier = new ApiKeyVerifier(orm);
    expect((await verifier.verify(bearer(plaintext))).ok).toBe(true);
    await kyselyOf(orm.em.fork())
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', apiKey.id)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_TTL_MS + 50));
    expect(await verifier.verify(bearer(plaintext))).toEqual({ ok: false, reason: 'revoked' });
  });

  it('does not cache an answer whose query began before evictAll', async () => {
    let release: (result: TKeyVerification) => void = () => {};
    const found = await new ApiKeyVerifier(orm).verify(bearer(IMPORTED_KEY));
    let answer: TKeyVerification = found;
    const verifier = new ApiKeyVerifier(orm, {
      lookup: () => (answer === found ? new Promise((resolve) => (release = resolve)) : Promise.resolve(answer)),
    });
    const before = verifier.verify(bearer(IMPORTED_KEY));
    verifier.evictAll(); // e.g. the key was revoked in this process meanwhile
    answer = { ok: false, reason: 'revoked' };
    release(found);
    expect((await before).ok).toBe(true);
    expect(await verifier.verify(bearer(IMPORTED_KEY))).toEqual({ ok: false, reason: 'revoked' });
  });
});
