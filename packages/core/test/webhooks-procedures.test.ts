import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { appRouter } from '../src/trpc/router.ts';
import { createCallerFactory, toAppError } from '../src/trpc/init.ts';
import { createContext, type TAdminSession } from '../src/trpc/context.ts';
import { createCoreServices, type TCoreServices } from '../src/services.ts';

let orm: MikroORM;
let services: TCoreServices;
const createCaller = createCallerFactory(appRouter);
const session = (tenantId: number, role = 'admin'): TAdminSession => ({
  userId: tenantId,
  tenantId,
  role,
  sessionId: `s${tenantId}`,
  email: `admin${tenantId}@example.test`,
});
const callerOf = (value: TAdminSession | undefined) =>
  createCaller(createContext(services, { url: new URL('http://admin.test/trpc'), session: value }));

async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return toAppError(error).code;
  }
  throw new Error('the call succeeded');
}

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  services = createCoreServices(orm, pino({ level: 'silent' }), { flushIntervalMs: 60_000 });
  await kyselyOf(orm.em.fork())
    .insertInto('tenants')
    .values([
      { id: 1, slug: 'acme', name: 'Acme' },
      { id: 2, slug: 'globex', name: 'Globex' },
    ])
    .execute();
});
afterAll(async () => {
  await services?.close();
  await orm?.close();
});

describe('admin webhook procedures', () => {
  it('need a signed-in administrator', async () => {
    expect(await failure(callerOf(undefined).admin.webhooks.list())).toBe('UNAUTHENTICATED');
    expect(await failure(callerOf(session(1, 'recruiter')).admin.webhooks.list())).toBe('FORBIDDEN');
  });

  it("manage the session tenant's endpoints only; another tenant's are NOT_FOUND for every action", async () => {
    const acme = callerOf(session(1));
    const globex = callerOf(session(2));
    const { endpoint, secret } = await acme.admin.webhooks.create({
      url: 'https://hooks.acme.example/careers',
      event_types: ['vacancy.published'],
    });
    expect(secret).toMatch(/^whsec_/);
    const listed = await acme.admin.webhooks.list();
    expect(listed.data).toEqual([endpoint]);
    expect(listed.event_types).toContain('application.created');
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    expect((await globex.admin.webhooks.list()).data).toEqual([]);

    const { delivery } = await acme.admin.webhooks.test({ id: endpoint.id });
    expect((await acme.admin.webhooks.deliveries({ endpoint_id: endpoint.id })).data).toEqual([delivery]);
    for (const call of [
      () => globex.admin.webhooks.delete({ id: endpoint.id }),
      () => globex.admin.webhooks.enable({ id: endpoint.id }),
      () => globex.admin.webhooks.rotate({ id: endpoint.id }),
      () => globex.admin.webhooks.test({ id: endpoint.id }),
      () => globex.admin.webhooks.deliveries({ endpoint_id: endpoint.id }),
      () => globex.admin.webhooks.replay({ id: delivery.id }),
    ]) {
      expect(await failure(call())).toBe('NOT_FOUND');
    }

    expect((await acme.admin.webhooks.enable({ id: endpoint.id })).endpoint).toMatchObject({
      id: endpoint.id,
      enabled: true,
    });
    const rotated = await acme.admin.webhooks.rotate({ id: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.endpoint.previous_secret_expires_at).not.toBeNull();
    expect((await acme.admin.webhooks.replay({ id: delivery.id })).delivery).toMatchObject({
      id: delivery.id,
      state: 'pending',
    });
    await acme.admin.webhooks.delete({ id: endpoint.id });
    expect((await acme.admin.webhooks.list()).data).toEqual([]);
  });

  it('refuse invalid URLs and event types with field errors', async () => {
    const acme = callerOf(session(1));
    expect(await failure(acme.admin.webhooks.create({ url: 'http://hooks.acme.example/x', event_types: ['*'] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await failure(acme.admin.webhooks.create({ url: 'https://hooks.acme.example/x', event_types: [] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await failure(
        acme.admin.webhooks.create({ url: 'https://hooks.acme.example/x', event_types: ['vacancy.exploded'] }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});
