import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import {
  clientAddressGroup,
  countSignInAttempt,
  PasswordCheckSlots,
  SIGN_IN_WINDOW_SECONDS,
} from '../src/modules/admin/sign-in-throttle.ts';
import { signIn } from '../src/modules/admin/admin-auth.service.ts';
import {
  RATE_LIMIT_RETENTION_SECONDS,
  sweepExpiredWindows,
  sweepOnNextCount,
} from '../src/modules/rate-limits/rate-limit.service.ts';
import { RATE_LIMITS } from '../src/modules/rate-limits/rate-limit-buckets.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          slug: 'acme',
          name: 'Acme',
          users: [{ id: 1, name: 'Ada', email: 'ada@acme.example', role: 'admin', password: 'correct horse battery' }],
        },
      ],
    },
  );
});
afterAll(async () => orm?.close(true));

const hextet = fc.integer({ min: 0, max: 0xffff });
const hextets = (n: number) => fc.array(hextet, { minLength: n, maxLength: n });
/** The shortest form of an IPv6 address, as the WHATWG URL parser writes it. */
const compressed = (groups: number[]) =>
  new URL(`http://[${groups.map((g) => g.toString(16)).join(':')}]/`).hostname.slice(1, -1);
const padded = (groups: number[]) => groups.map((g) => g.toString(16).padStart(4, '0').toUpperCase()).join(':');

describe('client address groups', () => {
  it('groups IPv6 addresses by /64, however they are written', () => {
    fc.assert(
      fc.property(hextets(4), hextets(4), hextets(4), (prefix, a, b) => {
        const first = [...prefix, ...a];
        const second = [...prefix, ...b];
        const group = clientAddressGroup(compressed(first));
        expect(clientAddressGroup(padded(first))).toBe(group);
        expect(clientAddressGroup(compressed(second))).toBe(group);
        expect(group.endsWith('::/64')).toBe(true);
      }),
    );
  });

  it('tells addresses of different /64s and different IPv4 addresses apart', () => {
    fc.assert(
      fc.property(hextets(4), hextets(4), hextets(4), (prefixA, prefixB, rest) => {
        fc.pre(prefixA.join() !== prefixB.join());
        expect(clientAddressGroup(compressed([...prefixA, ...rest]))).not.toBe(
          clientAddressGroup(compressed([...prefixB, ...rest])),
        );
      }),
    );
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        expect(clientAddressGroup(a)).toBe(a);
        expect(clientAddressGroup(`::ffff:${a}`)).toBe(a);
        if (a !== b) expect(clientAddressGroup(a)).not.toBe(clientAddressGroup(b));
      }),
    );
    expect(clientAddressGroup('fe80::1%eth0')).toBe(clientAddressGroup('fe80::2'));
    expect(clientAddressGroup('::1')).toBe('0:0:0:0::/64');
  });
});

describe('password check slots', () => {
  it('runs at most `max` checks at once, queues a few for a while, and turns the rest away', async () => {
    const slots = new PasswordCheckSlots({ max: 2, maxWaiting: 2, waitMs: 10_000 });
    const releases: Array<() => void> = [];
    const check = () => new Promise<string>((resolve) => releases.push(() => resolve('checked')));
    const runs = Array.from({ length: 6 }, () => slots.run(check));
    // 2 run, 2 wait, 2 are refused at once.
    expect(await Promise.race([runs[4], runs[5]])).toBeUndefined();
    expect(await runs[5]).toBeUndefined();
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    releases.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(2);
    for (const release of releases.splice(0)) release();
    expect(await Promise.all(runs.slice(0, 4))).toEqual(['checked', 'checked', 'checked', 'checked']);
    expect(slots.peak).toBe(2);
  });

  it('gives up waiting after waitMs', async () => {
    const slots = new PasswordCheckSlots({ max: 1, maxWaiting: 5, waitMs: 50 });
    let release = () => {};
    const held = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(await slots.run(async () => 'late')).toBeUndefined();
    release();
    await held;
    expect(await slots.run(async () => 'now')).toBe('now');
  });

  it('answers a sign-in as throttled (Retry-After 1) when no check becomes free, without checking the password', async () => {
    const slots = new PasswordCheckSlots({ max: 1, maxWaiting: 0, waitMs: 0 });
    let release = () => {};
    const held = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
    const result = await signIn(
      { em: orm.em.fork() },
      { email: 'ada@acme.example', password: 'correct horse battery', clientIp: '192.0.2.9' },
      { slots },
    );
    expect(result).toEqual({ ok: false, reason: 'throttled', retryAfter: 1 });
    release();
    await held;
    const signedIn = await signIn(
      { em: orm.em.fork() },
      { email: 'ada@acme.example', password: 'correct horse battery', clientIp: '192.0.2.9' },
      { slots },
    );
    expect(signedIn.ok).toBe(true);
  });
});

describe('sweeping expired rate-limit windows', () => {
  const windows = () => kyselyOf(orm.em.fork()).selectFrom('rate_limit_windows').select(['bucket', 'hits']);

  async function addWindows(prefix: string, count: number, ageSeconds: number) {
    await orm.em
      .fork()
      .execute(
        `insert into rate_limit_windows (bucket, window_start, hits) select ? || g, statement_timestamp() - make_interval(secs => ?), 1 from generate_series(1, ?) g`,
        [prefix, ageSeconds, count],
      );
  }

  it('keeps windows longer than any limit counts', () => {
    const longest = Math.max(SIGN_IN_WINDOW_SECONDS, ...Object.values(RATE_LIMITS).map((limit) => limit.windowSeconds));
    expect(RATE_LIMIT_RETENTION_SECONDS).toBeGreaterThan(longest);
  });

  it('deletes only expired windows, a bounded batch at a time', async () => {
    await addWindows('old:', 2_500, RATE_LIMIT_RETENTION_SECONDS + 5);
    await addWindows('recent:', 3, SIGN_IN_WINDOW_SECONDS + 5);
    expect(await sweepExpiredWindows(orm.em.fork())).toBe(1_000);
    expect(await sweepExpiredWindows(orm.em.fork())).toBe(1_000);
    expect(await sweepExpiredWindows(orm.em.fork())).toBe(500);
    expect(await sweepExpiredWindows(orm.em.fork())).toBe(0);
    const left = await windows().where('bucket', 'like', 'old:%').execute();
    expect(left).toEqual([]);
    expect(await windows().where('bucket', 'like', 'recent:%').execute()).toHaveLength(3);
  });

  it('sweeps now and then while counting sign-in attempts (at most once a minute per process)', async () => {
    await addWindows('stale:', 1_200, RATE_LIMIT_RETENTION_SECONDS + 60);
    sweepOnNextCount();
    await countSignInAttempt(orm.em.fork(), 'someone@example.com', '192.0.2.77');
    expect(await windows().where('bucket', 'like', 'stale:%').execute()).toHaveLength(200);
    // Within the minute: no second sweep.
    await countSignInAttempt(orm.em.fork(), 'someone@example.com', '192.0.2.77');
    expect(await windows().where('bucket', 'like', 'stale:%').execute()).toHaveLength(200);
  });
});
