import { serviceContext } from '../src/modules/service-context.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { createTestDatabase } from './support/database.ts';
import { startWebhookReceiver, type TWebhookReceiver } from './support/webhook-receiver.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { createLogger } from '../src/lib/logger.ts';
import { webhookSecretKey } from '../src/env.ts';
import { recordEvent } from '../src/modules/events/events.service.ts';
import { startWebhookRunner, type TWebhookRunner } from '../src/modules/webhooks/webhook-runner.ts';
import { dispatchEvents } from '../src/modules/webhooks/webhook-dispatcher.ts';
import {
  DEFAULT_DELIVERY_SETTINGS,
  outcomeOf,
  type TDeliverySettings,
} from '../src/modules/webhooks/webhook-delivery.ts';
import { endpointUrlProblem, forbiddenAddressReason, postWebhook } from '../src/modules/webhooks/webhook-http.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  WEBHOOK_EVENT_TYPES,
} from '../src/modules/webhooks/webhook.service.ts';

// This process creates endpoints on the test receiver (http://127.0.0.1); each runner below says for itself
// whether it may deliver there.
process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';
// Failed attempts are expected here (and logged as warnings by the runner).
process.env.LOG_LEVEL ??= 'error';

const TENANT = 1;
const OTHER_TENANT = 2;
let orm: MikroORM;
let receiver: TWebhookReceiver;
const runners: TWebhookRunner[] = [];
const log = createLogger('webhooks-test');

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  await kyselyOf(orm.em.fork())
    .insertInto('tenants')
    .values([
      { id: TENANT, slug: 'acme', name: 'Acme' },
      { id: OTHER_TENANT, slug: 'other', name: 'Other' },
    ])
    .execute();
  receiver = await startWebhookReceiver();
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop(1000)));
  await kyselyOf(orm.em.fork()).deleteFrom('webhook_endpoints').execute();
  receiver.received.length = 0;
  receiver.setReply(() => undefined);
});

afterAll(async () => {
  await receiver?.close();
  await orm?.close();
});

function runner(overrides: Partial<TDeliverySettings> = {}): TWebhookRunner {
  const started = startWebhookRunner({
    orm,
    log,
    concurrency: 4,
    pollIntervalMs: 50,
    settings: {
      ...DEFAULT_DELIVERY_SETTINGS,
      secretKey: webhookSecretKey()!,
      allowInsecureLocal: true,
      retryScheduleSeconds: [0.3, 0.3, 0.3, 0.3],
      timeoutMs: 2000,
      leaseSeconds: 5,
      ...overrides,
    },
  });
  runners.push(started);
  return started;
}

async function endpoint(eventTypes: string[] = ['*'], url = receiver.url, tenantId = TENANT) {
  return createWebhookEndpoint(serviceContext(orm.em.fork(), tenantId), { url, eventTypes });
}

async function event(type = 'application.created', tenantId = TENANT, objectId = 1) {
  return recordEvent(
    { db: kyselyOf(orm.em.fork()), tenant: { id: tenantId } },
    { type, object: type.split('.')[0] as 'application', objectId, data: {} },
  );
}

/** An endpoint's failures in a row, and the delivery slots its deliveries hold now. */
async function endpointState(endpointId: number) {
  const db = kyselyOf(orm.em.fork());
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select('consecutive_failures')
    .where('id', '=', endpointId)
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('leased_until', 'is not', null)
    .execute();
  return { consecutive_failures: endpoint.consecutive_failures, held: held.length };
}

async function deliveriesOf(endpointId: number) {
  return listWebhookDeliveries(serviceContext(orm.em.fork(), TENANT), { endpointId: endpointId });
}

async function eventually<T>(read: () => Promise<T>, until: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret of 32 random bytes, stored only encrypted', async () => {
    const { endpoint: created, secret } = await endpoint(['vacancy.published', 'application.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({
      url: receiver.url,
      event_types: ['vacancy.published', 'application.created'],
      enabled: true,
    });
    const row = await kyselyOf(orm.em.fork())
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(secret.slice(6));
    expect(dump).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('hex'));
    expect((await listWebhookEndpoints(serviceContext(orm.em.fork(), TENANT))).map((e) => e.id)).toContain(created.id);
    expect(await listWebhookEndpoints(serviceContext(orm.em.fork(), OTHER_TENANT))).toEqual([]);
  });

  it('refuses unknown event types, URLs that are not https or point to private addresses', async () => {
    await expect(endpoint(['vacancy.exploded'])).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { 'event_types.0': expect.any(Array) },
    });
    await expect(endpoint(['*'], 'not a url')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { url: expect.any(Array) },
    });
    expect(endpointUrlProblem('http://hooks.example.com/x', false)).toBe('The url must use https://.');
    expect(endpointUrlProblem('https://10.1.2.3/x', false)).toMatch(/private/);
    expect(endpointUrlProblem('https://localhost/x', false)).toMatch(/private/);
    expect(endpointUrlProblem('https://hooks.example.com/x', false)).toBeUndefined();
  });

  it('deletes an endpoint of its own tenant only', async () => {
    const { endpoint: created } = await endpoint();
    await expect(
      deleteWebhookEndpoint(serviceContext(orm.em.fork(), OTHER_TENANT), { id: created.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await deleteWebhookEndpoint(serviceContext(orm.em.fork(), TENANT), { id: created.id });
    expect(await listWebhookEndpoints(serviceContext(orm.em.fork(), TENANT))).toEqual([]);
  });

  it('a deletion waits for an attempt being recorded (delivery row, then endpoint row) instead of deadlocking with it', async () => {
    const { endpoint: created } = await endpoint();
    const delivery = await sendTestEvent(serviceContext(orm.em.fork(), TENANT), { id: created.id });
    const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
    const recorder = await pool.connect();
    try {
      // As recordAttempt does: the delivery's row first, then its endpoint's, in one transaction.
      await recorder.query('begin');
      await recorder.query(`update webhook_deliveries set last_error = 'timeout' where id = $1`, [delivery.id]);
      const deletion = deleteWebhookEndpoint(serviceContext(orm.em.fork(), TENANT), { id: created.id });
      await waitForLockWait(pool);
      await recorder.query(
        'update webhook_endpoints set consecutive_failures = consecutive_failures + 1 where id = $1',
        [created.id],
      );
      await recorder.query('commit');
      await expect(deletion).resolves.toMatchObject({ id: created.id });
    } finally {
      recorder.release();
    }
    expect(await listWebhookEndpoints(serviceContext(orm.em.fork(), TENANT))).toEqual([]);
  });
});

/** Resolves once some session of this database waits for a row lock (the deletion, blocked behind the recorder). */
async function waitForLockWait(pool: pg.Pool): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await pool.query(
      `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no session came to wait for a lock within 5 s');
}

describe('webhook delivery', () => {
  it('delivers each event once per matching endpoint with Standard Webhooks headers that standardwebhooks verifies', async () => {
    const all = await endpoint(['*']);
    const applications = await endpoint(['application.created']);
    const vacancies = await endpoint(['vacancy.published']);
    await endpoint(['*'], receiver.url, OTHER_TENANT);
    runner();
    const { id } = await event('application.created');
    const received = await receiver.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.headers['webhook-id']).toBe(id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
      const verifiedWith = [all, applications].filter(({ secret }) => {
        try {
          new Webhook(secret).verify(request.body, request.headers);
          return true;
        } catch {
          return false;
        }
      });
      expect(verifiedWith).toHaveLength(1);
      const body = JSON.parse(request.body);
      expect(body).toEqual({
        id,
        type: 'application.created',
        occurred_at: expect.any(String),
        tenant: 'acme',
        data: { id: 1 },
      });
    }
    const [delivery] = await eventually(
      () => deliveriesOf(all.endpoint.id),
      (list) => list[0]?.state === 'delivered',
    );
    expect(delivery).toMatchObject({
      event_id: id,
      event_type: 'application.created',
      attempts: 1,
      last_status_code: 200,
      next_attempt_at: null,
    });
    expect(await deliveriesOf(vacancies.endpoint.id)).toEqual([]);
  });

  it('retries after 500s with the same webhook-id and body until a 2xx', async () => {
    const { endpoint: created, secret } = await endpoint();
    receiver.setReply((_request, index) => (index < 2 ? { status: 500, body: 'broken' } : undefined));
    runner();
    const { id } = await event();
    const received = await receiver.waitFor(3);
    expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    for (const request of received)
      expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    // The back-off (0.3 s ± 20 % in this test) separates the attempts.
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(200);
    const [delivery] = await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'delivered',
    );
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null });
    // The run of failures (which limits a failing endpoint's slots) ended with the delivery; no slot is held.
    expect(await endpointState(created.id)).toEqual({ consecutive_failures: 0, held: 0 });
  });

  it('gives up after the last retry', async () => {
    const { endpoint: created } = await endpoint();
    receiver.setReply(() => ({ status: 502 }));
    runner({ retryScheduleSeconds: [0.1, 0.1] });
    await event();
    const [delivery] = await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'failed',
    );
    expect(delivery).toMatchObject({
      attempts: 3,
      last_status_code: 502,
      next_attempt_at: null,
      last_error: 'HTTP 5xx (retries used up)',
    });
    expect(receiver.received).toHaveLength(3);
    expect(await endpointState(created.id)).toEqual({ consecutive_failures: 3, held: 0 });
  });

  it('disables the endpoint when it answers 410 Gone', async () => {
    const { endpoint: created } = await endpoint();
    receiver.setReply(() => ({ status: 410 }));
    runner();
    await event();
    const [disabled] = await eventually(
      () => listWebhookEndpoints(serviceContext(orm.em.fork(), TENANT)),
      (list) => list[0]?.enabled === false,
    );
    expect(disabled?.disabled_reason).toMatch(/410/);
    // Not retried, and later events create no deliveries for it.
    await event();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(created.id)).toMatchObject([{ state: 'failed', attempts: 1, last_status_code: 410 }]);

    // Enabled again (the receiver is back): later events are delivered.
    receiver.setReply(() => undefined);
    expect(await enableWebhookEndpoint(serviceContext(orm.em.fork(), TENANT), { id: created.id })).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    const { id } = await event();
    const [, after] = await receiver.waitFor(2);
    expect(after!.headers['webhook-id']).toBe(id);
  });

  it('honours Retry-After (bounded) over a shorter back-off', async () => {
    const { endpoint: created } = await endpoint();
    receiver.setReply((_request, index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': '2' } } : undefined,
    );
    runner();
    await event();
    const received = await receiver.waitFor(2, 10_000);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(1900);
    await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'delivered',
    );
    const bounded = outcomeOf(
      { kind: 'response', status: 429, body: '', retryAfterSeconds: 10 ** 9 },
      1,
      { retryScheduleSeconds: [5], maxRetryAfterSeconds: 3600 },
      new Date(0),
    );
    expect(bounded).toMatchObject({ state: 'pending', nextAttemptAt: new Date(3600 * 1000) });
  });

  it('counts a receiver that does not answer in time as a failed attempt and retries it', async () => {
    const { endpoint: created } = await endpoint();
    receiver.setReply((_request, index) => (index === 0 ? 'hang' : undefined));
    runner({ timeoutMs: 500 });
    const { id } = await event();
    const received = await receiver.waitFor(2);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    const [delivery] = await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'delivered',
    );
    expect(delivery?.attempts).toBe(2);
  });

  it('retries a refused connection', async () => {
    const closed = await startWebhookReceiver();
    const url = closed.url;
    await closed.close();
    const { endpoint: created } = await endpoint(['*'], url);
    runner();
    await event();
    const [delivery] = await eventually(
      () => deliveriesOf(created.id),
      (list) => (list[0]?.attempts ?? 0) >= 2,
    );
    expect(delivery).toMatchObject({ state: 'pending', last_status_code: null });
    expect(delivery?.last_error).toBe('refused');
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { endpoint: created, secret: oldSecret } = await endpoint();
    const rotated = await rotateWebhookSecret(serviceContext(orm.em.fork(), TENANT), { id: created.id });
    expect(rotated.secret).not.toBe(oldSecret);
    expect(Date.parse(rotated.endpoint.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    runner();
    await event();
    const [during] = await receiver.waitFor(1);
    const signatures = during!.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    for (const secret of [oldSecret, rotated.secret])
      expect(() => new Webhook(secret).verify(during!.body, during!.headers)).not.toThrow();

    // 24 hours later the previous secret has expired.
    await kyselyOf(orm.em.fork())
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', created.id)
      .execute();
    await event();
    const [, after] = await receiver.waitFor(2);
    expect(after!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.secret).verify(after!.body, after!.headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(after!.body, after!.headers)).toThrow();
  });

  it('replays one delivery with the same webhook-id, and sends a webhook.test event to one endpoint only', async () => {
    const { endpoint: created, secret } = await endpoint(['vacancy.published']);
    const other = await endpoint(['*']);
    runner();
    const test = await sendTestEvent(serviceContext(orm.em.fork(), TENANT), { id: created.id });
    expect(test).toMatchObject({ event_type: 'webhook.test', state: 'pending' });
    const [first] = await receiver.waitFor(1);
    expect(JSON.parse(first!.body)).toMatchObject({ id: test.event_id, type: 'webhook.test', tenant: 'acme' });
    expect(() => new Webhook(secret).verify(first!.body, first!.headers)).not.toThrow();
    const delivered = await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'delivered',
    );

    await replayWebhookDelivery(serviceContext(orm.em.fork(), TENANT), { id: delivered[0]!.id });
    const [, replayed] = await receiver.waitFor(2);
    expect(replayed!.headers['webhook-id']).toBe(test.event_id);
    expect(replayed!.body).toBe(first!.body);
    await eventually(
      () => deliveriesOf(created.id),
      (list) => list[0]?.state === 'delivered' && list[0].attempts === 2,
    );
    expect(await deliveriesOf(other.endpoint.id)).toEqual([]);
    await expect(
      replayWebhookDelivery(serviceContext(orm.em.fork(), OTHER_TENANT), { id: delivered[0]!.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('webhook dispatch', () => {
  it('creates exactly one delivery per event and matching enabled endpoint of its tenant, even with two dispatchers at once', async () => {
    const types: string[] = WEBHOOK_EVENT_TYPES.slice(0, 4);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tenant: fc.constantFrom(TENANT, OTHER_TENANT),
            types: fc.oneof(fc.constant<string[]>(['*']), fc.subarray(types, { minLength: 1 })),
            enabled: fc.boolean(),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(fc.record({ tenant: fc.constantFrom(TENANT, OTHER_TENANT), type: fc.constantFrom(...types) }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (endpoints, events) => {
          const db = kyselyOf(orm.em.fork());
          await db.deleteFrom('webhook_endpoints').execute();
          // Dispatch what came before, so that this run sees only its own events.
          while ((await dispatchEvents(orm.em.fork())).events > 0);
          const created: { id: number; tenant: number; types: string[]; enabled: boolean }[] = [];
          for (const e of endpoints) {
            const { endpoint: row } = await endpoint(e.types, receiver.url, e.tenant);
            if (!e.enabled)
              await db
                .updateTable('webhook_endpoints')
                .set({ disabled_at: new Date(), disabled_reason: 'test' })
                .where('id', '=', row.id)
                .execute();
            created.push({ ...e, id: row.id });
          }
          const recorded: { id: string; tenant: number; type: string }[] = [];
          for (const e of events) recorded.push({ ...e, id: (await event(e.type, e.tenant)).id });
          await Promise.all([dispatchEvents(orm.em.fork(), 5), dispatchEvents(orm.em.fork(), 5)]);
          while ((await dispatchEvents(orm.em.fork(), 5)).events > 0);
          const expected = recorded
            .flatMap((ev) =>
              created
                .filter(
                  (ep) =>
                    ep.enabled && ep.tenant === ev.tenant && (ep.types.includes('*') || ep.types.includes(ev.type)),
                )
                .map((ep) => `${ep.id} ${ev.id}`),
            )
            .sort();
          const actual = (await db.selectFrom('webhook_deliveries').select(['endpoint_id', 'event_id']).execute())
            .map((d) => `${d.endpoint_id} ${d.event_id}`)
            .sort();
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('delivery log retention', () => {
  it('prunes finished deliveries older than the retention and keeps pending ones', async () => {
    const { endpoint: created } = await endpoint();
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    const rows = (['delivered', 'failed', 'pending'] as const).map((state, i) => ({
      tenant_id: TENANT,
      endpoint_id: created.id,
      event_id: `evt_old_${i}`,
      event_type: 'application.created',
      payload: '{}',
      state,
      created_at: old,
      next_attempt_at: state === 'pending' ? new Date(Date.now() + 3600 * 1000) : null,
    }));
    await kyselyOf(orm.em.fork())
      .insertInto('webhook_deliveries')
      .values(rows as never)
      .execute();
    await kyselyOf(orm.em.fork())
      .insertInto('webhook_deliveries')
      .values({ ...rows[0]!, event_id: 'evt_recent', created_at: new Date() } as never)
      .execute();
    runner();
    const left = await eventually(
      () => deliveriesOf(created.id),
      (list) => list.length === 2,
    );
    expect(left.map((d) => d.event_id).sort()).toEqual(['evt_old_2', 'evt_recent']);
  });
});

describe('SSRF protection', () => {
  const strict = { allowInsecureLocal: false, timeoutMs: 2000 };

  it('refuses http, loopback, private, link-local, unique-local and CGNAT targets before connecting', async () => {
    for (const url of [
      receiver.url,
      `https://127.0.0.1:${receiver.port}/hooks`,
      'https://10.0.0.1/hooks',
      'https://192.168.1.1/hooks',
      'https://172.16.0.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hooks',
      'https://[::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://224.0.0.1/hooks',
    ]) {
      const result = await postWebhook(url, {}, '{}', strict);
      expect(result, url).toMatchObject({ kind: 'refused' });
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('checks the resolved address: a name resolving to 127.0.0.1 is refused without the flag, and reaches it with it', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const refused = await postWebhook(`https://hooks.example.com:${receiver.port}/hooks`, {}, '{}', {
      ...strict,
      resolve,
    });
    expect(refused).toMatchObject({
      kind: 'refused',
      failure: 'blocked address',
      detail: expect.stringMatching(/loopback/),
    });
    // With the flag the request goes to the vetted address (plain http here: the receiver does not speak TLS).
    const allowed = await postWebhook(`http://hooks.example.com:${receiver.port}/hooks`, {}, '{}', {
      allowInsecureLocal: true,
      timeoutMs: 2000,
      resolve,
    });
    expect(allowed).toMatchObject({ kind: 'response', status: 200 });
    expect(receiver.received).toHaveLength(1);
    // Private addresses stay refused even with the flag.
    const privateName = await postWebhook(`http://hooks.example.com:${receiver.port}/hooks`, {}, '{}', {
      allowInsecureLocal: true,
      timeoutMs: 2000,
      resolve: async () => [{ address: '10.0.0.5', family: 4 }],
    });
    expect(privateName).toMatchObject({ kind: 'refused' });
  });

  it('a delivery whose host resolves to a loopback address is never sent; the log tells the tenant the class, not the address', async () => {
    const { endpoint: created } = await endpoint(['*'], `https://vm.internal.example:${receiver.port}/hooks`);
    runner({ allowInsecureLocal: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    await event();
    const [delivery] = await eventually(
      () => deliveriesOf(created.id),
      (list) => (list[0]?.attempts ?? 0) >= 1 && list[0]?.last_error !== null,
    );
    expect(delivery?.last_error).toBe('blocked address');
    const stored = await kyselyOf(orm.em.fork())
      .selectFrom('webhook_deliveries')
      .select(['last_error', 'last_response'])
      .where('endpoint_id', '=', created.id)
      .execute();
    expect(JSON.stringify(stored)).not.toMatch(/vm\.internal|127\.0\.0\.1|loopback/);
    expect(receiver.received).toHaveLength(0);
  });

  it('every address in the private, loopback and CGNAT ranges is refused; public ones are not', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, (a, b, c) => {
        for (const address of [
          `10.${a}.${b}.${c}`,
          `127.${a}.${b}.${c}`,
          `192.168.${b}.${c}`,
          `172.${16 + (a % 16)}.${b}.${c}`,
          `100.${64 + (a % 64)}.${b}.${c}`,
          `169.254.${b}.${c}`,
        ]) {
          expect(forbiddenAddressReason(address, false), address).toBeDefined();
        }
      }),
    );
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])
      expect(forbiddenAddressReason(address, false)).toBeUndefined();
    expect(forbiddenAddressReason('127.0.0.1', true)).toBeUndefined();
  });
});
