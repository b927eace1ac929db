import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import type { TAppRouter } from '@careers/core';
import { startStack, type TStack } from './support/stack.ts';
import { dashboardDocument } from './support/seed.ts';

const seeded = dashboardDocument({
  seed: 7 + Math.floor(Math.random() * 80),
  vacancies: 2 + Math.floor(Math.random() * 4),
});
let stack: TStack;

beforeAll(async () => {
  stack = await startStack(seeded.document);
});
afterAll(async () => stack?.close());

/** A typed client that keeps the session cookie like a browser and sends this origin. */
function dashboardClient(origin: string = stack.adminUrl, options: { batch?: boolean } = {}) {
  const jar: { cookie?: string; setCookie?: string } = {};
  const cookieFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (jar.cookie) headers.set('cookie', jar.cookie);
    const response = await fetch(input, { ...init, headers });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      jar.setCookie = setCookie;
      const pair = setCookie.split(';')[0] ?? '';
      jar.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return response;
  };
  const link = ((options.batch ?? true) ? httpBatchLink : httpLink)({
    url: `${origin}/trpc`,
    fetch: cookieFetch,
    headers: { origin },
  });
  return { client: createTRPCClient<TAppRouter>({ links: [link] }), jar };
}

type TErrorData = { httpStatus: number; body: { message: string; errors?: Record<string, string[]> } };

async function rejection(call: Promise<unknown>): Promise<TErrorData> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCClientError);
    return (error as TRPCClientError<TAppRouter>).data as unknown as TErrorData;
  }
  throw new Error('expected the call to fail');
}

function api(path: string, key: string): Promise<Response> {
  return fetch(`${stack.apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

/** Polls the API until it answers `status`; returns how long that took. */
async function untilStatus(path: string, key: string, status: number, limitMs = 3000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const response = await api(path, key);
    await response.arrayBuffer();
    if (response.status === status) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`still ${response.status} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('typed tRPC client against the admin server', () => {
  it('signs in, manages keys and API access, and signs out; the API follows within a second', async () => {
    const { client, jar } = dashboardClient();
    expect(await rejection(client.admin.me.query())).toMatchObject({
      httpStatus: 401,
      body: { message: 'Unauthenticated.' },
    });

    const wrong = await rejection(
      client.admin.signIn.mutate({ email: seeded.admin.email, password: 'not the password' }),
    );
    expect(wrong).toMatchObject({
      httpStatus: 422,
      body: { errors: { email: ['These credentials do not match our records.'] } },
    });

    const signedIn = await client.admin.signIn.mutate({ email: seeded.admin.email, password: seeded.admin.password });
    expect(signedIn.user.email).toBe(seeded.admin.email);
    expect(jar.setCookie).toMatch(
      /^careers_admin_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );

    const me = await client.admin.me.query();
    expect(me.tenant).toMatchObject({ slug: seeded.slug, api_enabled: true });

    const before = await client.admin.keys.list.query();
    expect(before.data.map((key) => key.name).sort()).toEqual(['Existing website', 'Old plugin']);
    expect(before.data.find((key) => key.name === 'Old plugin')?.revoked_at).not.toBeNull();

    const created = await client.admin.keys.create.mutate({ name: 'Typed client key', scopes: ['vacancies:read'] });
    expect(created.key.scopes).toEqual(['vacancies:read']);
    const health = await api('/health', created.plaintext);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'authenticated', tenant: seeded.slug });

    const overview = await client.admin.overview.query();
    expect(overview).toMatchObject({
      visible_vacancies: seeded.visibleVacancies,
      active_api_keys: 2,
      api_enabled: true,
    });

    await client.admin.keys.revoke.mutate({ id: created.key.id });
    expect(await untilStatus('/health', created.plaintext, 401)).toBeLessThanOrEqual(1000);
    const revoked = await api('/health', created.plaintext);
    expect(await revoked.json()).toEqual({ message: 'Unauthenticated.' });

    // API access off: every key of the tenant gets 403, also /health; on again: 200.
    expect((await api('/health', seeded.existingKey)).status).toBe(200);
    expect(await client.admin.tenant.setApiAccess.mutate({ enabled: false })).toEqual({ api_enabled: false });
    expect(await untilStatus('/health', seeded.existingKey, 403)).toBeLessThanOrEqual(1000);
    expect(await (await api('/health', seeded.existingKey)).json()).toEqual({
      message: 'API access is not enabled for this tenant.',
    });
    await client.admin.tenant.setApiAccess.mutate({ enabled: true });
    expect(await untilStatus('/health', seeded.existingKey, 200)).toBeLessThanOrEqual(1000);

    await client.admin.signOut.mutate();
    expect(jar.cookie).toBeUndefined();
    expect(jar.setCookie).toBe('careers_admin_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect((await rejection(client.admin.keys.list.query())).httpStatus).toBe(401);
  });

  it('shows how many applications each vacancy has, most applied-to first', async () => {
    const { client } = dashboardClient();
    await client.admin.signIn.mutate({ email: seeded.admin.email, password: seeded.admin.password });
    const created = await client.admin.keys.create.mutate({ name: 'Applications', scopes: ['applications:write'] });
    const [first, second] = seeded.document.tenants[0]!.vacancies;
    const apply = async (slug: string, n: number) => {
      const response = await fetch(`${stack.apiUrl}/applications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.plaintext}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          vacancy: slug,
          candidate: { given_name: 'A', family_name: 'B', email: `a${n}.${slug}@example.org` },
        }),
      });
      expect(response.status).toBe(201);
    };
    for (let n = 0; n < 3; n++) await apply(second!.slug, n);
    await apply(first!.slug, 0);
    const overview = await client.admin.overview.query();
    expect(overview.vacancies_total).toBe(seeded.document.tenants[0]!.vacancies.length);
    expect(overview.applications_per_vacancy).toHaveLength(overview.vacancies_total);
    expect(overview.applications_per_vacancy.slice(0, 2)).toEqual([
      {
        id: second!.id,
        slug: second!.slug,
        title: second!.title,
        status: 'published',
        applications: 3,
        applications_last_7_days: 3,
      },
      {
        id: first!.id,
        slug: first!.slug,
        title: first!.title,
        status: 'published',
        applications: 1,
        applications_last_7_days: 1,
      },
    ]);
    expect(overview.applications_per_vacancy.slice(2).every((row) => row.applications === 0)).toBe(true);
    await client.admin.keys.revoke.mutate({ id: created.key.id });
    await client.admin.signOut.mutate();
  });

  it('gives a non-administrator no session and no access', async () => {
    const { client, jar } = dashboardClient(undefined, { batch: false });
    const refused = await rejection(
      client.admin.signIn.mutate({ email: seeded.recruiter.email, password: seeded.recruiter.password }),
    );
    // The same answer as a wrong password: it does not tell that the account exists.
    expect(refused).toMatchObject({
      httpStatus: 422,
      body: {
        message: 'The given data was invalid.',
        errors: { email: ['These credentials do not match our records.'] },
      },
    });
    expect(jar.setCookie).toBeUndefined();
    expect((await rejection(client.admin.keys.create.mutate({ name: 'x', scopes: [] }))).httpStatus).toBe(401);
  });

  it('answers with the documented HTTP status codes and no caching', async () => {
    const anonymous = await fetch(`${stack.adminUrl}/trpc/admin.me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    const body = (await anonymous.json()) as {
      error: { message: string; data: { httpStatus: number; body: unknown; stack?: unknown } };
    };
    expect(body.error.message).toBe('Unauthenticated.');
    expect(body.error.data.httpStatus).toBe(401);
    expect(body.error.data.body).toEqual({ message: 'Unauthenticated.' });
    expect(body.error.data.stack).toBeUndefined();
  });
});

describe('request forgery and exposure', () => {
  async function signedInCookie(): Promise<string> {
    const { client, jar } = dashboardClient();
    await client.admin.signIn.mutate({ email: seeded.admin.email, password: seeded.admin.password });
    return jar.cookie ?? '';
  }

  async function keyNames(cookie: string): Promise<string[]> {
    const response = await fetch(`${stack.adminUrl}/trpc/admin.keys.list`, { headers: { cookie } });
    const body = (await response.json()) as { result: { data: { data: Array<{ name: string }> } } };
    return body.result.data.data.map((key) => key.name);
  }

  it('refuses mutations from another origin, without an origin, or without a JSON body', async () => {
    const cookie = await signedInCookie();
    const create = (
      headers: Record<string, string>,
      body = JSON.stringify({ name: 'Forged', scopes: ['candidates:read'] }),
    ) => fetch(`${stack.adminUrl}/trpc/admin.keys.create`, { method: 'POST', headers: { cookie, ...headers }, body });

    const crossSite = await create({ 'content-type': 'application/json', origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ message: 'Cross-site request refused.' });
    const noOrigin = await create({ 'content-type': 'application/json' });
    expect(noOrigin.status).toBe(403);
    const crossSiteFetch = await create({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' });
    expect(crossSiteFetch.status).toBe(403);
    const form = await create({ 'content-type': 'text/plain', origin: stack.adminUrl });
    expect(form.status).toBe(415);
    const urlEncoded = await create(
      { 'content-type': 'application/x-www-form-urlencoded', origin: stack.adminUrl },
      'name=Forged',
    );
    expect(urlEncoded.status).toBe(415);
    expect(await keyNames(cookie)).not.toContain('Forged');
    // A read sent as POST (how the dashboard asks for a person by email) passes the same guard.
    const postedRead = (origin: string) =>
      fetch(`${stack.adminUrl}/trpc/admin.privacy.find`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin },
        body: JSON.stringify({ email: 'nobody@example.org' }),
      });
    expect((await postedRead('https://evil.example')).status).toBe(403);
    const ownRead = await postedRead(stack.adminUrl);
    expect(ownRead.status).toBe(200);
    expect(await ownRead.json()).toEqual({ result: { data: { candidates: [] } } });

    // The same request from the dashboard's own origin goes through.
    const own = await create({ 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(await keyNames(cookie)).toContain('Forged');
  });

  it('serves only the dashboard procedures, never the API-key ones', async () => {
    for (const path of ['health.get', 'admin.me,health.get', 'locations.list', 'nope', '%E0%A4%A', '']) {
      const response = await fetch(`${stack.adminUrl}/trpc/${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    // And the API never serves them: they carry no openapi meta, so they are neither REST routes nor documented.
    const document = (await (await fetch(`${stack.apiUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    expect(Object.keys(document.paths).filter((path) => /admin|sign/i.test(path))).toEqual([]);
    expect((await api('/admin/keys', seeded.existingKey)).status).toBe(404);
    const put = await fetch(`${stack.adminUrl}/trpc/admin.me`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('serves the built app for every page with a strict Content-Security-Policy', async () => {
    for (const path of ['/', '/keys', '/overview', '/privacy', '/audit']) {
      const page = await fetch(`${stack.adminUrl}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${stack.adminUrl}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${stack.adminUrl}/assets/missing.js`)).status).toBe(404);
  });

  it('sets a Secure __Host- cookie when reached over https through a trusted proxy', async () => {
    const proxied = await stack.startAdmin({ trustProxy: 'loopback' });
    try {
      const host = new URL(proxied.url).host;
      const response = await fetch(`${proxied.url}/trpc/admin.signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', origin: `https://${host}` },
        body: JSON.stringify({ email: seeded.admin.email, password: seeded.admin.password }),
      });
      expect(response.status).toBe(200);
      const setCookie = response.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(
        /^__Host-careers_admin_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=\d+$/,
      );
      // Over https only the __Host- cookie is a session: a plain one (which a sibling subdomain could plant) is not.
      const token = setCookie.split(';')[0]?.split('=')[1] ?? '';
      const me = (cookie: string, proto: string) =>
        fetch(`${proxied.url}/trpc/admin.me`, { headers: { cookie, 'x-forwarded-proto': proto } }).then(
          (answer) => answer.status,
        );
      expect(await me(`__Host-careers_admin_session=${token}`, 'https')).toBe(200);
      expect(await me(`careers_admin_session=${token}`, 'https')).toBe(401);
      expect(await me(`__Host-careers_admin_session=${token}`, 'http')).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('guarding the shared service', () => {
  it('refuses an 11th webhook endpoint (422 on url) and test events beyond 10 a minute (429 with Retry-After and X-RateLimit-*)', async () => {
    const { client, jar } = dashboardClient();
    await client.admin.signIn.mutate({ email: seeded.admin.email, password: seeded.admin.password });
    const made = [];
    for (let i = 0; i < 10; i++)
      made.push(
        await client.admin.webhooks.create.mutate({ url: `https://hooks.example.com/guard/${i}`, event_types: ['*'] }),
      );
    const eleventh = await rejection(
      client.admin.webhooks.create.mutate({ url: 'https://hooks.example.com/guard/10', event_types: ['*'] }),
    );
    expect(eleventh).toMatchObject({
      httpStatus: 422,
      body: { errors: { url: ['A tenant may have at most 10 webhook endpoints; delete one first.'] } },
    });
    expect((await client.admin.webhooks.list.query()).data).toHaveLength(10);

    const id = made[0]!.endpoint.id;
    const test = () =>
      fetch(`${stack.adminUrl}/trpc/admin.webhooks.test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: stack.adminUrl, cookie: jar.cookie ?? '' },
        body: JSON.stringify({ id }),
      });
    for (let i = 0; i < 10; i++) expect((await test()).status).toBe(200);
    const limited = await test();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('10');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(((await limited.json()) as { error: { data: { body: unknown } } }).error.data.body).toEqual({
      message: 'Too Many Attempts.',
    });
    // Another endpoint has its own budget.
    expect((await client.admin.webhooks.test.mutate({ id: made[1]!.endpoint.id })).delivery.event_type).toBe(
      'webhook.test',
    );
    for (const { endpoint } of made) await client.admin.webhooks.delete.mutate({ id: endpoint.id });
  });
});
