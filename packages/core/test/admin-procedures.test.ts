import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { appRouter } from '../src/trpc/router.ts';
import { createCallerFactory, toAppError } from '../src/trpc/init.ts';
import { createContext, type TAdminSession, type TContext } from '../src/trpc/context.ts';
import { createCoreServices, type TCoreServices } from '../src/services.ts';
import type { AppError } from '../src/lib/errors.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { createAdminContext } from '../src/trpc/admin-context.ts';
import { createAdminSession, resolveAdminSession } from '../src/modules/admin/admin-session.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { sessionTokenFromCookies } from '../src/modules/admin/admin-session.cookie.ts';
import {
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
  SIGN_IN_FREE_FAILURES,
  SIGN_IN_MAX_DELAY_SECONDS,
  SIGN_IN_WINDOW_SECONDS,
} from '../src/modules/admin/sign-in-throttle.ts';
import { PASSWORD_CHECKS } from '../src/modules/admin/admin-auth.service.ts';

let orm: MikroORM;
let services: TCoreServices;
const createCaller = createCallerFactory(appRouter);
const ADMIN_URL = new URL('http://admin.test/trpc');

/** Ids are global across tenants and imports, so every record the tests make gets a fresh one. */
let nextId = 1000;
const id = () => nextId++;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const DAY = 24 * 60 * 60 * 1000;

const ACME = {
  slug: 'acme',
  adminEmail: 'ada@acme.example',
  adminPassword: 'correct horse battery',
  hrEmail: 'hank@acme.example',
  hrPassword: 'hank-password-1',
};
const GLOBEX = { slug: 'globex', adminEmail: 'gus@globex.example', adminPassword: 'globex-admin-pw' };
/** The same address is a plain user at acme and the administrator of globex (emails are unique per tenant only). */
const SHARED = { email: 'sam@shared.example', acmePassword: 'sam-at-acme-pw', globexPassword: 'sam-at-globex-pw' };
const ACME_KEY = 'ck_test_acme_website_key_0001';
const GLOBEX_KEY = 'ck_test_globex_website_key_0001';

const ids = {
  acmeAdmin: 1,
  acmeHr: 2,
  acmeSam: 3,
  globexAdmin: 11,
  globexSam: 12,
  acmeKey: 21,
  globexKey: 22,
};

function baseTenant(slug: string) {
  return { slug, name: slug.toUpperCase(), default_language: 'en', api_enabled: true };
}

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  services = createCoreServices(orm, pino({ level: 'silent' }), { flushIntervalMs: 60_000 });
  await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          ...baseTenant(ACME.slug),
          api_keys: [{ id: ids.acmeKey, name: 'Website', key: ACME_KEY, scopes: ['vacancies:read'] }],
          users: [
            {
              id: ids.acmeAdmin,
              name: 'Ada Admin',
              email: ACME.adminEmail,
              role: 'admin',
              password: ACME.adminPassword,
            },
            { id: ids.acmeHr, name: 'Hank HR', email: ACME.hrEmail, role: 'hr_manager', password: ACME.hrPassword },
            {
              id: ids.acmeSam,
              name: 'Sam at Acme',
              email: SHARED.email,
              role: 'recruiter',
              password: SHARED.acmePassword,
            },
          ],
        },
        {
          ...baseTenant(GLOBEX.slug),
          api_keys: [{ id: ids.globexKey, name: 'Globex site', key: GLOBEX_KEY, scopes: ['team:read'] }],
          users: [
            {
              id: ids.globexAdmin,
              name: 'Gus Admin',
              email: GLOBEX.adminEmail,
              role: 'admin',
              password: GLOBEX.adminPassword,
            },
            {
              id: ids.globexSam,
              name: 'Sam at Globex',
              email: SHARED.email,
              role: 'admin',
              password: SHARED.globexPassword,
            },
          ],
        },
      ],
    },
  );
});
afterAll(async () => {
  await services?.close();
  await orm?.close();
});

async function tenantIdOf(slug: string): Promise<number> {
  const row = await kyselyOf(orm.em.fork())
    .selectFrom('tenants')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function sessionFor(userId: number): Promise<TAdminSession> {
  const user = await kyselyOf(orm.em.fork())
    .selectFrom('users')
    .select(['id', 'tenant_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const { token } = await createAdminSession(serviceContext(orm.em.fork(), user.tenant_id), { userId: user.id });
  const session = await resolveAdminSession({ em: orm.em.fork() }, { token });
  if (!session) throw new Error('session did not resolve');
  return session;
}

function callerWith(session: TAdminSession | undefined, clientIp = '198.51.100.7') {
  const ctx: TContext & { clientIp: string } = { ...createContext(services, { url: ADMIN_URL, session }), clientIp };
  return { caller: createCaller(ctx), ctx };
}

/** The AppError a call fails with (as the transports map it), or a test failure when it succeeds. */
async function failureOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    return toAppError(error);
  }
  throw new Error('expected the call to fail');
}

async function keyRow(keyId: number) {
  return kyselyOf(orm.em.fork())
    .selectFrom('api_keys')
    .select(['id', 'tenant_id', 'revoked_at', 'name'])
    .where('id', '=', keyId)
    .executeTakeFirst();
}

async function apiEnabled(slug: string): Promise<boolean> {
  const row = await kyselyOf(orm.em.fork())
    .selectFrom('tenants')
    .select('api_enabled')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.api_enabled;
}

/** Every dashboard procedure that needs an administrator, with valid input. */
function protectedCalls(caller: ReturnType<typeof createCaller>): Array<[string, () => Promise<unknown>]> {
  return [
    ['me', () => caller.admin.me()],
    ['overview', () => caller.admin.overview()],
    ['keys.list', () => caller.admin.keys.list()],
    ['keys.create', () => caller.admin.keys.create({ name: 'Sneaky', scopes: ['candidates:read'] })],
    ['keys.revoke', () => caller.admin.keys.revoke({ id: ids.acmeKey })],
    ['tenant.setApiAccess', () => caller.admin.tenant.setApiAccess({ enabled: false })],
  ];
}

describe('authorisation of the dashboard procedures', () => {
  it('refuses every protected procedure without a session (401) and changes nothing', async () => {
    const keysBefore = await kyselyOf(orm.em.fork()).selectFrom('api_keys').select('id').execute();
    const { caller } = callerWith(undefined);
    for (const [name, call] of protectedCalls(caller)) {
      const error = await failureOf(call());
      expect({ name, status: error.status, body: error.toBody() }).toEqual({
        name,
        status: 401,
        body: { message: 'Unauthenticated.' },
      });
    }
    expect(await kyselyOf(orm.em.fork()).selectFrom('api_keys').select('id').execute()).toEqual(keysBefore);
    expect((await keyRow(ids.acmeKey))?.revoked_at).toBeNull();
    expect(await apiEnabled(ACME.slug)).toBe(true);
  });

  it('refuses every protected procedure to a signed-in user who is not an administrator (403)', async () => {
    const session = await sessionFor(ids.acmeHr);
    expect(session.role).toBe('hr_manager');
    const { caller } = callerWith(session);
    for (const [name, call] of protectedCalls(caller)) {
      const error = await failureOf(call());
      expect({ name, status: error.status, body: error.toBody() }).toEqual({
        name,
        status: 403,
        body: { message: 'This action is unauthorized.' },
      });
    }
    expect((await keyRow(ids.acmeKey))?.revoked_at).toBeNull();
    expect(await apiEnabled(ACME.slug)).toBe(true);
    const names = (await kyselyOf(orm.em.fork()).selectFrom('api_keys').select('name').execute()).map(
      (row) => row.name,
    );
    expect(names).not.toContain('Sneaky');
  });

  it('lets another tenant’s administrator neither see nor change this tenant', async () => {
    const acmeId = await tenantIdOf(ACME.slug);
    const globexId = await tenantIdOf(GLOBEX.slug);
    const { caller } = callerWith(await sessionFor(ids.globexAdmin));

    const me = await caller.admin.me();
    expect(me.tenant).toMatchObject({ id: globexId, slug: GLOBEX.slug, api_enabled: true });
    expect(me.user).toEqual({ id: ids.globexAdmin, name: 'Gus Admin', email: GLOBEX.adminEmail, role: 'admin' });

    const listed = await caller.admin.keys.list();
    expect(listed.data.map((key) => key.id)).toEqual([ids.globexKey]);

    const revoke = await failureOf(caller.admin.keys.revoke({ id: ids.acmeKey }));
    expect(revoke.status).toBe(404);
    expect(revoke.toBody()).toEqual({ message: 'Resource not found.' });
    expect(await keyRow(ids.acmeKey)).toMatchObject({ tenant_id: acmeId, revoked_at: null });

    const created = await caller.admin.keys.create({ name: 'Globex integration', scopes: ['team:read'] });
    expect((await keyRow(created.key.id))?.tenant_id).toBe(globexId);

    await caller.admin.tenant.setApiAccess({ enabled: false });
    expect(await apiEnabled(GLOBEX.slug)).toBe(false);
    expect(await apiEnabled(ACME.slug)).toBe(true);
    await caller.admin.tenant.setApiAccess({ enabled: true });
    await caller.admin.keys.revoke({ id: created.key.id });
  });

  it('takes the role from the user at every request: a demoted administrator loses access at once', async () => {
    const acmeId = await tenantIdOf(ACME.slug);
    const userId = id();
    await kyselyOf(orm.em.fork())
      .insertInto('users')
      .values({
        id: userId,
        tenant_id: acmeId,
        name: 'Temp Admin',
        email: `temp${userId}@acme.example`,
        role: 'admin',
      } as never)
      .execute();
    const { token } = await createAdminSession(serviceContext(orm.em.fork(), acmeId), { userId });
    const before = await createAdminContext(services, {
      url: ADMIN_URL,
      cookie: `careers_admin_session=${token}`,
      clientIp: '192.0.2.1',
    });
    expect((await createCaller(before).admin.me()).user.id).toBe(userId);

    await kyselyOf(orm.em.fork()).updateTable('users').set({ role: 'recruiter' }).where('id', '=', userId).execute();
    const after = await createAdminContext(services, {
      url: ADMIN_URL,
      cookie: `careers_admin_session=${token}`,
      clientIp: '192.0.2.1',
    });
    expect((await failureOf(createCaller(after).admin.me())).status).toBe(403);
  });

  it('does not accept expired, revoked, unknown or malformed session tokens', async () => {
    const acmeId = await tenantIdOf(ACME.slug);
    const expired = await createAdminSession(serviceContext(orm.em.fork(), acmeId), { userId: ids.acmeAdmin });
    const live = await resolveAdminSession({ em: orm.em.fork() }, { token: expired.token });
    expect(live?.userId).toBe(ids.acmeAdmin);
    await kyselyOf(orm.em.fork())
      .updateTable('admin_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', Number(live?.sessionId))
      .execute();
    for (const token of [expired.token, 'A'.repeat(43), 'not a token', '', `${expired.token}x`]) {
      expect(await resolveAdminSession({ em: orm.em.fork() }, { token })).toBeUndefined();
    }
    const ctx = await createAdminContext(services, {
      url: ADMIN_URL,
      cookie: `careers_admin_session=${'B'.repeat(43)}`,
      clientIp: '192.0.2.2',
    });
    expect((await failureOf(createCaller(ctx).admin.keys.list())).status).toBe(401);
  });
});

describe('sign-in and sign-out', () => {
  it('signs an administrator in with a cookie session (token only in the cookie), and out again', async () => {
    const ip = '203.0.113.10';
    const { caller, ctx } = callerWith(undefined, ip);
    // The email is matched without regard to case or surrounding spaces.
    const result = await caller.admin.signIn({
      email: `  ${ACME.adminEmail.toUpperCase()} `,
      password: ACME.adminPassword,
    });
    expect(result.user).toEqual({ id: ids.acmeAdmin, name: 'Ada Admin', email: ACME.adminEmail, role: 'admin' });
    expect(result.tenant).toMatchObject({ slug: ACME.slug, api_enabled: true, default_language: 'en' });
    expect(Date.parse(result.expires_at) - Date.now()).toBeGreaterThan(60 * 60 * 1000);

    const cookie = ctx.response.headers['Set-Cookie'] ?? '';
    expect(cookie).toMatch(
      /^careers_admin_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    const token = sessionTokenFromCookies(cookie.split(';')[0], false);
    expect(JSON.stringify(result)).not.toContain(token);
    const stored = await kyselyOf(orm.em.fork()).selectFrom('admin_sessions').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const signedIn = await createAdminContext(services, {
      url: ADMIN_URL,
      cookie: `other=1; ${cookie.split(';')[0]}`,
      clientIp: ip,
    });
    expect((await createCaller(signedIn).admin.me()).tenant.slug).toBe(ACME.slug);

    await createCaller(signedIn).admin.signOut();
    expect(signedIn.response.headers['Set-Cookie']).toBe(
      'careers_admin_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
    );
    const afterSignOut = await createAdminContext(services, {
      url: ADMIN_URL,
      cookie: cookie.split(';')[0],
      clientIp: ip,
    });
    expect(afterSignOut.session).toBeUndefined();
    expect((await failureOf(createCaller(afterSignOut).admin.me())).status).toBe(401);
  });

  it('marks the cookie Secure (with the __Host- prefix) when the dashboard is reached over https', async () => {
    const ctx = {
      ...createContext(services, { url: new URL('https://admin.example/trpc/admin.signIn') }),
      clientIp: '203.0.113.11',
    };
    await createCaller(ctx).admin.signIn({ email: GLOBEX.adminEmail, password: GLOBEX.adminPassword });
    const cookie = ctx.response.headers['Set-Cookie'] ?? '';
    expect(cookie).toMatch(
      /^__Host-careers_admin_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=\d+$/,
    );
    const secureUrl = new URL('https://admin.example/trpc');
    const again = await createAdminContext(services, {
      url: secureUrl,
      cookie: cookie.split(';')[0],
      clientIp: '203.0.113.11',
    });
    expect(again.session?.userId).toBe(ids.globexAdmin);
  });

  it('accepts only the __Host- cookie over https, and only the plain one over http', async () => {
    const acmeId = await tenantIdOf(ACME.slug);
    const { token } = await createAdminSession(serviceContext(orm.em.fork(), acmeId), { userId: ids.acmeAdmin });
    const secureUrl = new URL('https://admin.example/trpc');
    const contextOf = (url: URL, cookie: string) =>
      createAdminContext(services, { url, cookie, clientIp: '203.0.113.15' });
    // A plain cookie can be planted by a sibling subdomain or an http answer: over https it is not a session.
    expect((await contextOf(secureUrl, `careers_admin_session=${token}`)).session).toBeUndefined();
    expect(
      (await contextOf(secureUrl, `careers_admin_session=${'C'.repeat(43)}; __Host-careers_admin_session=${token}`))
        .session?.userId,
    ).toBe(ids.acmeAdmin);
    expect((await contextOf(ADMIN_URL, `__Host-careers_admin_session=${token}`)).session).toBeUndefined();
    expect((await contextOf(ADMIN_URL, `careers_admin_session=${token}`)).session?.userId).toBe(ids.acmeAdmin);
    expect(sessionTokenFromCookies(`__Host-careers_admin_session=${token}`, true)).toBe(token);
    expect(sessionTokenFromCookies(`careers_admin_session=${token}`, true)).toBeUndefined();
  });

  it('answers a wrong password and an unknown email alike (422 on email), without a session', async () => {
    const sessionsBefore = await kyselyOf(orm.em.fork()).selectFrom('admin_sessions').select('id').execute();
    for (const [email, password] of [
      [ACME.adminEmail, 'wrong password'],
      ['nobody@acme.example', ACME.adminPassword],
    ] as const) {
      const { caller, ctx } = callerWith(undefined, '203.0.113.12');
      const error = await failureOf(caller.admin.signIn({ email, password }));
      expect(error.status).toBe(422);
      expect(error.toBody()).toEqual({
        message: 'The given data was invalid.',
        errors: { email: ['These credentials do not match our records.'] },
      });
      expect(ctx.response.headers['Set-Cookie']).toBeUndefined();
    }
    const unstorable = await failureOf(
      callerWith(undefined, '203.0.113.12').caller.admin.signIn({ email: 'a\u0000@acme.example', password: 'x\ud800' }),
    );
    expect(unstorable.status).toBe(422);
    expect(Object.keys(unstorable.fieldErrors ?? {}).sort()).toEqual(['email', 'password']);
    const missing = await failureOf(callerWith(undefined).caller.admin.signIn({ email: '', password: '' }));
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.fieldErrors ?? {}).sort()).toEqual(['email', 'password']);
    expect(await kyselyOf(orm.em.fork()).selectFrom('admin_sessions').select('id').execute()).toEqual(sessionsBefore);
  });

  it('answers a user who is not an administrator, even with the right password, like a wrong password (422)', async () => {
    const { caller, ctx } = callerWith(undefined, '203.0.113.13');
    const right = await failureOf(caller.admin.signIn({ email: ACME.hrEmail, password: ACME.hrPassword }));
    const wrong = await failureOf(
      callerWith(undefined, '203.0.113.13').caller.admin.signIn({ email: ACME.hrEmail, password: 'not the password' }),
    );
    expect(right.status).toBe(422);
    expect(right.toBody()).toEqual({
      message: 'The given data was invalid.',
      errors: { email: ['These credentials do not match our records.'] },
    });
    expect(right.toBody()).toEqual(wrong.toBody());
    expect(ctx.response.headers['Set-Cookie']).toBeUndefined();
  });

  it('finds the administrator account among tenants sharing an email by its password', async () => {
    const asGlobexAdmin = callerWith(undefined, '203.0.113.14');
    const result = await asGlobexAdmin.caller.admin.signIn({ email: SHARED.email, password: SHARED.globexPassword });
    expect(result.tenant.slug).toBe(GLOBEX.slug);
    expect(result.user.id).toBe(ids.globexSam);
    // Sam's acme account has its own password but is no administrator.
    const asAcmeUser = await failureOf(
      callerWith(undefined, '203.0.113.14').caller.admin.signIn({ email: SHARED.email, password: SHARED.acmePassword }),
    );
    expect(asAcmeUser.status).toBe(422);
  });
});

describe('sign-in throttling', () => {
  const ACCOUNT_EMAIL = ACME.adminEmail;
  // Each test starts with no counts (earlier tests signed in and failed too).
  beforeEach(async () => {
    await orm.em.fork().execute(`delete from rate_limit_windows where bucket like 'signin:%'`);
  });
  const address = (n: number) => `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  let nextAddress = 0;
  const freshAddress = () => address(nextAddress++);
  const attempt = (email: string, password: string, ip = freshAddress()) =>
    callerWith(undefined, ip).caller.admin.signIn({ email, password });

  /** Moves the account's last failure `seconds` into the past (instead of waiting out its delay). */
  const age = (seconds: number) =>
    orm.em
      .fork()
      .execute(
        `update rate_limit_windows set window_start = window_start - make_interval(secs => ?) where bucket like 'signin:account:%'`,
        [seconds],
      );

  it(`slows an account down after ${SIGN_IN_FREE_FAILURES} failures from any addresses, doubling the wait, and never locks it`, async () => {
    for (let i = 1; i <= SIGN_IN_FREE_FAILURES; i++)
      expect((await failureOf(attempt(ACCOUNT_EMAIL, `guess ${i}`))).status).toBe(422);
    // The next attempt, even with the right password from a new address, waits its turn: 429 with the wait left.
    const { caller, ctx } = callerWith(undefined, freshAddress());
    const throttled = await failureOf(
      caller.admin.signIn({ email: ACCOUNT_EMAIL.toUpperCase(), password: ACME.adminPassword }),
    );
    expect(throttled.status).toBe(429);
    expect(ctx.response.headers['Retry-After']).toBe('1');
    expect(throttled.toBody()).toEqual({ message: 'Too many sign-in attempts. Please try again in 1 second.' });
    expect(ctx.response.headers['Set-Cookie']).toBeUndefined();
    // Each failure after the free ones doubles the wait, up to the maximum.
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      await age(SIGN_IN_MAX_DELAY_SECONDS);
      expect((await failureOf(attempt(ACCOUNT_EMAIL, `slow guess ${i}`))).status).toBe(422);
      const { caller: next, ctx: nextCtx } = callerWith(undefined, freshAddress());
      expect((await failureOf(next.admin.signIn({ email: ACCOUNT_EMAIL, password: 'again' }))).status).toBe(429);
      waits.push(Number(nextCtx.response.headers['Retry-After']));
    }
    expect(waits).toEqual([
      2,
      4,
      8,
      16,
      SIGN_IN_MAX_DELAY_SECONDS,
      SIGN_IN_MAX_DELAY_SECONDS,
      SIGN_IN_MAX_DELAY_SECONDS,
      SIGN_IN_MAX_DELAY_SECONDS,
    ]);
    // Another account is not affected.
    expect((await attempt(GLOBEX.adminEmail, GLOBEX.adminPassword)).user.id).toBe(ids.globexAdmin);
    // No lockout: once the wait has passed, the right password works from anywhere, and the account starts afresh.
    await age(SIGN_IN_MAX_DELAY_SECONDS);
    expect((await attempt(ACCOUNT_EMAIL, ACME.adminPassword)).user.id).toBe(ids.acmeAdmin);
    expect((await failureOf(attempt(ACCOUNT_EMAIL, 'fresh guess'))).status).toBe(422);
    // Failures are forgotten a while after the last one.
    for (let i = 0; i < SIGN_IN_FREE_FAILURES; i++) await failureOf(attempt(ACCOUNT_EMAIL, `more ${i}`));
    await age(SIGN_IN_WINDOW_SECONDS + 1);
    for (let i = 1; i <= SIGN_IN_FREE_FAILURES; i++)
      expect((await failureOf(attempt(ACCOUNT_EMAIL, `after ${i}`))).status).toBe(422);
  });

  it("never refuses a right password from an address that signed in before for others' failures", async () => {
    await orm.em.fork().execute('delete from known_sign_in_addresses');
    const office = freshAddress();
    expect((await attempt(ACCOUNT_EMAIL, ACME.adminPassword, office)).user.id).toBe(ids.acmeAdmin);
    // An attacker guesses from many addresses, as fast as the delays let it.
    for (let i = 0; i < 12; i++) {
      await age(SIGN_IN_MAX_DELAY_SECONDS);
      await failureOf(attempt(ACCOUNT_EMAIL, `attacker ${i}`));
    }
    expect((await failureOf(attempt(ACCOUNT_EMAIL, ACME.adminPassword))).status).toBe(429);
    // The office (also another address of the same IPv4 address group is the same) signs in at once, every time.
    for (let i = 0; i < 3; i++)
      expect((await attempt(ACCOUNT_EMAIL, ACME.adminPassword, office)).user.id).toBe(ids.acmeAdmin);
    expect((await attempt(ACCOUNT_EMAIL, ACME.adminPassword, `::ffff:${office}`)).user.id).toBe(ids.acmeAdmin);
    // The known addresses are stored hashed.
    const known = await kyselyOf(orm.em.fork()).selectFrom('known_sign_in_addresses').selectAll().execute();
    expect(JSON.stringify(known)).not.toContain(office);
    expect(JSON.stringify(known)).not.toContain(ACCOUNT_EMAIL);
  });

  it(`allows ${SIGN_IN_ATTEMPTS_PER_ADDRESS} failures per address (IPv6: per /64) over any accounts, then 429`, async () => {
    const ip = '2001:db8:7:8:aaaa::1';
    for (let i = 1; i <= SIGN_IN_ATTEMPTS_PER_ADDRESS; i++)
      expect((await failureOf(attempt(`user${i}@spray.example`, 'guess', ip))).status).toBe(422);
    expect((await failureOf(attempt(GLOBEX.adminEmail, GLOBEX.adminPassword, ip))).status).toBe(429);
    // Any other address of the same /64, however written, is the same client.
    for (const sibling of ['2001:db8:7:8:ffff:ffff:ffff:ffff', '2001:0db8:0007:0008::2', '2001:DB8:7:8::1%eth0']) {
      expect((await failureOf(attempt(GLOBEX.adminEmail, GLOBEX.adminPassword, sibling))).status).toBe(429);
    }
    expect((await attempt(GLOBEX.adminEmail, GLOBEX.adminPassword, '2001:db8:7:9::1')).user.id).toBe(ids.globexAdmin);
    const ipv4 = freshAddress();
    for (let i = 1; i <= SIGN_IN_ATTEMPTS_PER_ADDRESS; i++)
      expect((await failureOf(attempt(`v4user${i}@spray.example`, 'guess', ipv4))).status).toBe(422);
    expect((await failureOf(attempt(GLOBEX.adminEmail, GLOBEX.adminPassword, `::ffff:${ipv4}`))).status).toBe(429);
  });

  it('counts parallel guesses exactly (only the free ones get a password check) and checks at most two passwords at once', async () => {
    PASSWORD_CHECKS.peak = 0;
    const results = await Promise.all(
      Array.from({ length: 17 }, (_, i) => failureOf(attempt(SHARED.email, `parallel ${i}`))),
    );
    const statuses = results.map((error) => error.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(SIGN_IN_FREE_FAILURES);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17 - SIGN_IN_FREE_FAILURES);
    expect(PASSWORD_CHECKS.peak).toBeGreaterThanOrEqual(1);
    expect(PASSWORD_CHECKS.peak).toBeLessThanOrEqual(2);
  });

  it('forgives a successful sign-in: the account starts afresh, the address gets only that attempt back', async () => {
    await orm.em.fork().execute('delete from known_sign_in_addresses');
    const ip = freshAddress();
    const email = GLOBEX.adminEmail;
    for (let i = 0; i < SIGN_IN_FREE_FAILURES; i++) await failureOf(attempt(email, 'nope', freshAddress()));
    await age(SIGN_IN_MAX_DELAY_SECONDS);
    await attempt(email, GLOBEX.adminPassword, ip);
    // Afresh: the free failures again (from other addresses; this one is now known to the account).
    for (let i = 0; i < SIGN_IN_FREE_FAILURES; i++) expect((await failureOf(attempt(email, 'nope'))).status).toBe(422);
    expect((await failureOf(attempt(email, 'nope'))).status).toBe(429);
    // The address's own failures still count against it (its right password took only itself back), for any account.
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_ADDRESS; i++)
      expect((await failureOf(attempt(email, 'nope', ip))).status).toBe(422);
    expect((await failureOf(attempt('other@spray.example', 'nope', ip))).status).toBe(429);
    const buckets = await kyselyOf(orm.em.fork()).selectFrom('rate_limit_windows').select('bucket').execute();
    expect(buckets.every((row) => /^signin:(account|address):[0-9a-f]{64}$/.test(row.bucket))).toBe(true);
  });
});

describe('API keys', () => {
  it('creates a key whose plaintext is shown once and works against the API, lists it, and revokes it', async () => {
    const acmeId = await tenantIdOf(ACME.slug);
    const { caller } = callerWith(await sessionFor(ids.acmeAdmin));

    const created = await caller.admin.keys.create({
      name: '  Career website  ',
      scopes: ['team:read', 'vacancies:read', 'team:read'],
    });
    expect(created.plaintext).toMatch(/^ck_live_[A-Za-z0-9_-]{32}$/);
    expect(created.key).toMatchObject({
      name: 'Career website',
      scopes: ['vacancies:read', 'team:read'],
      last_used_at: null,
      revoked_at: null,
    });
    expect(created.plaintext.startsWith(created.key.start)).toBe(true);
    expect(created.key.start.length).toBeLessThan(created.plaintext.length);
    expect(Math.abs(Date.parse(created.key.created_at) - Date.now())).toBeLessThan(60_000);

    const listed = await caller.admin.keys.list();
    expect(listed.data[0]).toEqual(created.key);
    expect(listed.data.map((key) => key.id)).toContain(ids.acmeKey);
    expect(JSON.stringify(listed)).not.toContain(created.plaintext);

    const verified = await services.keys.verify(`Bearer ${created.plaintext}`);
    expect(verified).toMatchObject({
      ok: true,
      apiKey: { id: created.key.id, scopes: ['vacancies:read', 'team:read'] },
      tenant: { id: acmeId },
    });

    const revoked = await caller.admin.keys.revoke({ id: created.key.id });
    expect(revoked.key.id).toBe(created.key.id);
    expect(revoked.key.revoked_at).not.toBeNull();
    // This process forgets its cached verification at once.
    expect(await services.keys.verify(`Bearer ${created.plaintext}`)).toEqual({ ok: false, reason: 'revoked' });
    const again = await caller.admin.keys.revoke({ id: created.key.id });
    expect(again.key.revoked_at).toBe(revoked.key.revoked_at);
    const afterList = await caller.admin.keys.list();
    expect(afterList.data.find((key) => key.id === created.key.id)?.revoked_at).toBe(revoked.key.revoked_at);
  });

  it('creates a publishable key bound to origins; refuses candidates scopes, bad origins, and origins on a secret key', async () => {
    const { caller } = callerWith(await sessionFor(ids.acmeAdmin));
    const created = await caller.admin.keys.create({
      name: 'Career website (browser)',
      kind: 'publishable',
      scopes: ['vacancies:read', 'applications:write'],
      origins: ['https://Careers.Acme.example/', 'http://localhost:5173'],
    });
    expect(created.plaintext).toMatch(/^pk_live_[A-Za-z0-9_-]{32}$/);
    expect(created.key).toMatchObject({
      kind: 'publishable',
      origins: ['https://careers.acme.example', 'http://localhost:5173'],
    });
    expect((await caller.admin.keys.list()).data.find((key) => key.id === created.key.id)).toEqual(created.key);
    const verified = await services.keys.verify(`Bearer ${created.plaintext}`);
    expect(verified).toMatchObject({
      ok: true,
      apiKey: { kind: 'publishable', origins: ['https://careers.acme.example', 'http://localhost:5173'] },
    });

    const candidates = await failureOf(
      caller.admin.keys.create({
        name: 'X',
        kind: 'publishable',
        scopes: ['vacancies:read', 'candidates:read'],
        origins: ['https://a.example'],
      }),
    );
    expect(candidates.status).toBe(422);
    expect(Object.keys(candidates.fieldErrors ?? {})).toEqual(['scopes.1']);
    const badOrigin = await failureOf(
      caller.admin.keys.create({
        name: 'X',
        kind: 'publishable',
        scopes: ['vacancies:read'],
        origins: ['https://a.example', 'a.example'],
      }),
    );
    expect(Object.keys(badOrigin.fieldErrors ?? {})).toEqual(['origins.1']);
    const none = await failureOf(
      caller.admin.keys.create({ name: 'X', kind: 'publishable', scopes: ['vacancies:read'] }),
    );
    expect(none.fieldErrors).toEqual({ origins: ['A publishable key needs at least one allowed origin.'] });
    const secret = await failureOf(
      caller.admin.keys.create({ name: 'X', scopes: ['vacancies:read'], origins: ['https://a.example'] }),
    );
    expect(secret.fieldErrors).toEqual({ origins: ['Only a publishable key has allowed origins.'] });
  });

  it('validates the name and scopes (422 on the field)', async () => {
    const { caller } = callerWith(await sessionFor(ids.acmeAdmin));
    const noName = await failureOf(caller.admin.keys.create({ name: '   ', scopes: ['vacancies:read'] }));
    expect(noName.status).toBe(422);
    expect(noName.fieldErrors).toEqual({ name: ['The name field is required.'] });
    const longName = await failureOf(caller.admin.keys.create({ name: 'x'.repeat(256), scopes: [] }));
    expect(longName.fieldErrors).toEqual({ name: ['The name must not be greater than 255 characters.'] });
    const badScope = await failureOf(
      caller.admin.keys.create({ name: 'Bad', scopes: ['vacancies:read', 'admin:all' as never] }),
    );
    expect(badScope.status).toBe(422);
    expect(badScope.fieldErrors).toEqual({ 'scopes.1': ['The selected scopes.1 is invalid.'] });
    for (const name of ['Key\u0000one', 'Key \ud800']) {
      const unstorable = await failureOf(caller.admin.keys.create({ name, scopes: [] }));
      expect(unstorable.fieldErrors).toEqual({
        name: ['The name must not contain NUL characters or unpaired surrogates.'],
      });
    }
    const legacy = await failureOf(caller.admin.keys.create({ name: 'Legacy', scopes: ['*' as never] }));
    expect(legacy.fieldErrors).toEqual({ 'scopes.0': ['The selected scopes.0 is invalid.'] });
    const unknownKey = await failureOf(caller.admin.keys.revoke({ id: 987_654 }));
    expect(unknownKey.status).toBe(404);
  });

  it('keeps any set of scopes exactly (in SPEC order, without duplicates)', async () => {
    const { caller } = callerWith(await sessionFor(ids.globexAdmin));
    const { SCOPES } = await import('../src/lib/scopes.ts');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...SCOPES), { maxLength: 12 }), async (scopes) => {
        const created = await caller.admin.keys.create({ name: `Prop ${id()}`, scopes });
        expect(created.key.scopes).toEqual(SCOPES.filter((scope) => scopes.includes(scope)));
        const verified = await services.keys.verify(`Bearer ${created.plaintext}`);
        expect(verified.ok && verified.apiKey.scopes).toEqual(created.key.scopes);
        await caller.admin.keys.revoke({ id: created.key.id });
      }),
      { numRuns: 15 },
    );
  });
});

describe('API access switch', () => {
  it('switches the tenant’s API access off and on; key verification sees it', async () => {
    const { caller } = callerWith(await sessionFor(ids.acmeAdmin));
    expect(await caller.admin.tenant.setApiAccess({ enabled: false })).toEqual({ api_enabled: false });
    expect(await apiEnabled(ACME.slug)).toBe(false);
    expect((await caller.admin.me()).tenant.api_enabled).toBe(false);
    expect((await caller.admin.overview()).api_enabled).toBe(false);
    expect(await services.keys.verify(`Bearer ${ACME_KEY}`)).toMatchObject({ ok: true, tenant: { apiEnabled: false } });
    // Idempotent.
    expect(await caller.admin.tenant.setApiAccess({ enabled: false })).toEqual({ api_enabled: false });

    expect(await caller.admin.tenant.setApiAccess({ enabled: true })).toEqual({ api_enabled: true });
    expect(await services.keys.verify(`Bearer ${ACME_KEY}`)).toMatchObject({ ok: true, tenant: { apiEnabled: true } });
    const invalid = await failureOf(caller.admin.tenant.setApiAccess({ enabled: 'no' as never }));
    expect(invalid.status).toBe(422);
    expect(invalid.fieldErrors).toEqual({ enabled: ['The enabled field must be true or false.'] });
  });
});

describe('overview', () => {
  type TVacancySpec = {
    status: 'draft' | 'published' | 'unpublished';
    api: boolean;
    published: 'past' | 'future' | 'none';
    ends: 'none' | 'past' | 'future';
  };

  const visible = (v: TVacancySpec) => v.status === 'published' && v.api && v.published === 'past' && v.ends !== 'past';

  function vacancy(spec: TVacancySpec) {
    const vacancyId = id();
    return {
      id: vacancyId,
      slug: `vacancy-${vacancyId}`,
      title: `Vacancy ${vacancyId}`,
      language: 'en',
      status: spec.status,
      channels: spec.api ? ['api', 'website'] : ['website'],
      published_at: spec.published === 'none' ? null : iso(spec.published === 'past' ? -5 * DAY : 5 * DAY),
      ends_at: spec.ends === 'none' ? null : iso(spec.ends === 'past' ? -DAY : 30 * DAY),
    };
  }

  const ZSpec = fc.record({
    status: fc.constantFrom('draft' as const, 'published' as const, 'unpublished' as const),
    api: fc.boolean(),
    published: fc.constantFrom('past' as const, 'future' as const, 'none' as const),
    ends: fc.constantFrom('none' as const, 'past' as const, 'future' as const),
  });

  it('counts exactly the visible vacancies of the session’s tenant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ZSpec, { maxLength: 12 }), async (specs) => {
        const slug = `ov-${id()}`;
        const adminId = id();
        await importTenantDocument(
          { em: orm.em },
          {
            tenants: [
              {
                ...baseTenant(slug),
                users: [{ id: adminId, name: 'Overview Admin', email: `admin@${slug}.example`, role: 'admin' }],
                vacancies: specs.map(vacancy),
              },
            ],
          },
        );
        const overview = await callerWith(await sessionFor(adminId)).caller.admin.overview();
        expect(overview.visible_vacancies).toBe(specs.filter(visible).length);
        expect(overview.applications_last_7_days).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  it('counts applications of the last 7 days and resume processings by status, with the latest failures', async () => {
    const slug = `ov-${id()}`;
    const adminId = id();
    const candidateId = id();
    const vacancies = [vacancy({ status: 'published', api: true, published: 'past', ends: 'none' })];
    await importTenantDocument(
      { em: orm.em },
      {
        tenants: [
          {
            ...baseTenant(slug),
            users: [{ id: adminId, name: 'Ops Admin', email: `ops@${slug}.example`, role: 'admin' }],
            vacancies,
            candidates: [
              {
                id: candidateId,
                slug: `cand-${candidateId}`,
                user_id: adminId,
                first_name: 'Cas',
                last_name: 'Candidate',
                status: 'potential',
              },
            ],
          },
        ],
      },
    );
    const tenantId = await tenantIdOf(slug);
    const db = kyselyOf(orm.em.fork());
    const application = (ageMs: number) => ({
      id: id(),
      tenant_id: tenantId,
      vacancy_id: vacancies[0]!.id,
      candidate_id: candidateId,
      created_at: new Date(Date.now() - ageMs),
    });
    await db
      .insertInto('applications')
      .values([
        application(0),
        application(2 * DAY),
        application(7 * DAY - 60_000),
        application(7 * DAY + 60_000),
        application(40 * DAY),
      ] as never)
      .execute();
    // Another tenant's recent application is not counted.
    const acmeId = await tenantIdOf(ACME.slug);
    const acmeCandidate = id();
    const acmeVacancy = vacancy({ status: 'published', api: true, published: 'past', ends: 'none' });
    await importTenantDocument(
      { em: orm.em },
      {
        tenants: [
          {
            ...baseTenant(ACME.slug),
            vacancies: [acmeVacancy],
            candidates: [
              {
                id: acmeCandidate,
                slug: `cand-${acmeCandidate}`,
                first_name: 'Other',
                last_name: 'Tenant',
                status: 'potential',
              },
            ],
          },
        ],
      },
    );
    await db
      .insertInto('applications')
      .values({ id: id(), tenant_id: acmeId, vacancy_id: acmeVacancy.id, candidate_id: acmeCandidate } as never)
      .execute();

    const processing = (status: string, minutesAgo: number, error: string | null = null) => ({
      id: randomUUID(),
      tenant_id: tenantId,
      user_id: adminId,
      status,
      filename: `resume-${minutesAgo}.pdf`,
      mime_type: 'application/pdf',
      size: 1234,
      content: Buffer.from('%PDF-1.4'),
      error,
      attempts: status === 'failed' ? 3 : 1,
      created_at: new Date(Date.now() - (minutesAgo + 1) * 60_000),
      updated_at: new Date(Date.now() - minutesAgo * 60_000),
    });
    const failures = Array.from({ length: 7 }, (_, i) =>
      processing('failed', 10 + i, `The file is not a readable PDF (${i}).`),
    );
    await db
      .insertInto('resume_processings')
      .values([
        processing('queued', 1),
        processing('queued', 2),
        processing('processing', 3),
        processing('completed', 4),
        ...failures,
      ] as never)
      .execute();
    await db
      .insertInto('resume_processings')
      .values({ ...processing('failed', 0, 'other tenant'), tenant_id: acmeId, user_id: ids.acmeAdmin } as never)
      .execute();

    const overview = await callerWith(await sessionFor(adminId)).caller.admin.overview();
    expect(overview).toMatchObject({
      api_enabled: true,
      visible_vacancies: 1,
      applications_last_7_days: 3,
      active_api_keys: 0,
      resume_processings: { queued: 2, processing: 1, completed: 1, failed: 7 },
    });
    expect(overview.latest_failures).toHaveLength(5);
    expect(overview.latest_failures.map((failure) => failure.error)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `The file is not a readable PDF (${i}).`),
    );
    expect(overview.latest_failures[0]).toEqual({
      processing_id: failures[0]!.id,
      filename: 'resume-10.pdf',
      error: 'The file is not a readable PDF (0).',
      attempts: 3,
      created_at: failures[0]!.created_at.toISOString(),
      failed_at: failures[0]!.updated_at.toISOString(),
    });
  });
});
