import { serviceContext } from '../src/modules/service-context.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { startWebhookReceiver, type TWebhookReceiver } from './support/webhook-receiver.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { createLogger } from '../src/lib/logger.ts';
import { isAppError } from '../src/lib/errors.ts';
import { webhookSecretKey } from '../src/env.ts';
import { recordEvent } from '../src/modules/events/events.service.ts';
import {
  FAILING_ENDPOINT_SLOTS,
  startWebhookRunner,
  tenantSlotsOf,
  type TWebhookRunner,
} from '../src/modules/webhooks/webhook-runner.ts';
import { DEFAULT_DELIVERY_SETTINGS } from '../src/modules/webhooks/webhook-delivery.ts';
import { postWebhook } from '../src/modules/webhooks/webhook-http.ts';
import { publicDeliveryError } from '../src/modules/webhooks/webhook.dto.ts';
import { claimDueDeliveries, type TClaimShares } from '../src/modules/webhooks/webhook-delivery.repository.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  ENDPOINT_SENDS,
  listWebhookDeliveries,
  MAX_ENDPOINTS_PER_TENANT,
  replayWebhookDelivery,
  sendTestEvent,
} from '../src/modules/webhooks/webhook.service.ts';

process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';
// Timeouts are the point here (the runner logs them as warnings).
process.env.LOG_LEVEL ??= 'error';

const [NOISY, QUIET, THIRD] = [1, 2, 3];
let orm: MikroORM;
let receiver: TWebhookReceiver;
const runners: TWebhookRunner[] = [];
const log = createLogger('webhooks-fairness-test');

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  await kyselyOf(orm.em.fork())
    .insertInto('tenants')
    .values([
      { id: NOISY, slug: 'noisy', name: 'Noisy' },
      { id: QUIET, slug: 'quiet', name: 'Quiet' },
      { id: THIRD, slug: 'third', name: 'Third' },
    ])
    .execute();
  receiver = await startWebhookReceiver();
});

/**
 * Runs a clean-up statement again when PostgreSQL picked it as a deadlock's victim: a delivery the stopped runner
 * abandoned (a receiver that times out) may still be writing its attempt while its endpoint is deleted.
 */
async function cleanUp(statement: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await statement();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
    }
  }
}

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop(500)));
  await cleanUp(() => kyselyOf(orm.em.fork()).deleteFrom('webhook_endpoints').execute());
  await cleanUp(() => kyselyOf(orm.em.fork()).deleteFrom('rate_limit_windows').execute());
  receiver.received.length = 0;
  receiver.setReply(() => undefined);
});

afterAll(async () => {
  await receiver?.close();
  await orm?.close();
});

const endpoint = (tenantId: number, url = receiver.url) =>
  createWebhookEndpoint(serviceContext(orm.em.fork(), tenantId), { url, eventTypes: ['*'] });

async function codeOf(
  call: Promise<unknown>,
): Promise<{ code: string; fields?: string[]; headers?: Record<string, string> }> {
  try {
    await call;
  } catch (error) {
    if (!isAppError(error)) throw error;
    return {
      code: error.code,
      fields: error.fieldErrors ? Object.keys(error.fieldErrors) : undefined,
      headers: error.headers(),
    };
  }
  return { code: 'OK' };
}

/** `count` deliveries due now for an endpoint, as the dispatcher writes them. */
async function dueDeliveries(tenantId: number, endpointId: number, count: number): Promise<void> {
  await kyselyOf(orm.em.fork())
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: count }, (_, i) => ({
        tenant_id: tenantId,
        endpoint_id: endpointId,
        event_id: `evt_${endpointId}_${i}_${Math.random().toString(36).slice(2)}`,
        event_type: 'application.created',
        payload: '{}',
        next_attempt_at: new Date(Date.now() - 1000 - i),
      })) as never,
    )
    .execute();
}

async function markFailing(endpointId: number): Promise<void> {
  await kyselyOf(orm.em.fork())
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 3 } as never)
    .where('id', '=', endpointId)
    .execute();
}

const shares = (overrides: Partial<TClaimShares> = {}): TClaimShares => ({
  limit: 16,
  leaseSeconds: 30,
  tenantSlots: 8,
  heldByTenant: new Map(),
  failingEndpointSlots: FAILING_ENDPOINT_SLOTS,
  ...overrides,
});

const countBy = <T>(items: T[], key: (item: T) => number) => {
  const counts: Record<number, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

describe('endpoints per tenant', () => {
  it(`allows ${MAX_ENDPOINTS_PER_TENANT} endpoints per tenant; the next is 422 on url, also when created at once`, async () => {
    const made = await Promise.all(
      Array.from({ length: 14 }, () => codeOf(endpoint(NOISY, 'https://hooks.noisy.example/x'))),
    );
    expect(made.filter((result) => result.code === 'OK')).toHaveLength(MAX_ENDPOINTS_PER_TENANT);
    expect(made.filter((result) => result.code !== 'OK')).toEqual(
      Array.from({ length: 4 }, () => ({ code: 'VALIDATION_FAILED', fields: ['url'], headers: {} })),
    );
    // Another tenant is not affected; a deleted endpoint frees its place.
    expect((await codeOf(endpoint(QUIET, 'https://hooks.quiet.example/x'))).code).toBe('OK');
    const [first] = await kyselyOf(orm.em.fork())
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('tenant_id', '=', NOISY)
      .limit(1)
      .execute();
    await deleteWebhookEndpoint(serviceContext(orm.em.fork(), NOISY), { id: first!.id });
    expect((await codeOf(endpoint(NOISY, 'https://hooks.noisy.example/y'))).code).toBe('OK');
    expect((await codeOf(endpoint(NOISY, 'https://hooks.noisy.example/z'))).code).toBe('VALIDATION_FAILED');
  });
});

describe('test events and replays', () => {
  it(`are limited to ${ENDPOINT_SENDS.limit} a minute per endpoint, together, with the house's 429 headers`, async () => {
    const { endpoint: limited } = await endpoint(NOISY, 'https://hooks.noisy.example/a');
    const { endpoint: other } = await endpoint(NOISY, 'https://hooks.noisy.example/b');
    const first = await sendTestEvent(serviceContext(orm.em.fork(), NOISY), { id: limited.id });
    for (let i = 1; i < ENDPOINT_SENDS.limit; i++) {
      if (i % 2) await replayWebhookDelivery(serviceContext(orm.em.fork(), NOISY), { id: first.id });
      else await sendTestEvent(serviceContext(orm.em.fork(), NOISY), { id: limited.id });
    }
    for (const call of [
      () => sendTestEvent(serviceContext(orm.em.fork(), NOISY), { id: limited.id }),
      () => replayWebhookDelivery(serviceContext(orm.em.fork(), NOISY), { id: first.id }),
    ]) {
      const refused = await codeOf(call());
      expect(refused.code).toBe('TOO_MANY_ATTEMPTS');
      expect(refused.headers).toMatchObject({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0' });
      expect(Number(refused.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers?.['Retry-After'])).toBeLessThanOrEqual(60);
      expect(Number(refused.headers?.['X-RateLimit-Reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    // Refused sends queued nothing; the other endpoint has its own budget; another tenant's ids are still 404 first.
    expect(await listWebhookDeliveries(serviceContext(orm.em.fork(), NOISY), { endpointId: limited.id })).toHaveLength(
      ENDPOINT_SENDS.limit / 2,
    );
    expect((await codeOf(sendTestEvent(serviceContext(orm.em.fork(), NOISY), { id: other.id }))).code).toBe('OK');
    expect((await codeOf(sendTestEvent(serviceContext(orm.em.fork(), QUIET), { id: limited.id }))).code).toBe(
      'NOT_FOUND',
    );
    // The window is shared by every process: it lives in PostgreSQL.
    const [window] = await kyselyOf(orm.em.fork())
      .selectFrom('rate_limit_windows')
      .select(['bucket', 'hits'])
      .where('bucket', '=', `webhook-sends:${limited.id}`)
      .execute();
    expect(window?.hits).toBe(ENDPOINT_SENDS.limit + 2);
  });
});

describe('fair claiming of due deliveries', () => {
  it('an endpoint that keeps failing holds at most 2 slots, across every worker', async () => {
    const { endpoint: failing } = await endpoint(NOISY);
    await markFailing(failing.id);
    await dueDeliveries(NOISY, failing.id, 20);
    // Four workers claim at once: together they lease 2.
    const claims = await Promise.all(Array.from({ length: 4 }, () => claimDueDeliveries(orm.em.fork(), shares())));
    expect(claims.flat()).toHaveLength(FAILING_ENDPOINT_SLOTS);
    expect(await claimDueDeliveries(orm.em.fork(), shares())).toEqual([]);
    // A healthy endpoint is held back by the tenant's share only.
    const { endpoint: healthy } = await endpoint(NOISY);
    await dueDeliveries(NOISY, healthy.id, 20);
    expect(await claimDueDeliveries(orm.em.fork(), shares({ heldByTenant: new Map([[NOISY, 2]]) }))).toHaveLength(6);
  });

  it("a tenant takes at most its share of the worker, and tenants (and a tenant's endpoints) take turns", async () => {
    const noisy = await Promise.all(Array.from({ length: 3 }, () => endpoint(NOISY)));
    for (const { endpoint: e } of noisy) await dueDeliveries(NOISY, e.id, 30);
    const { endpoint: quiet } = await endpoint(QUIET);
    await dueDeliveries(QUIET, quiet.id, 3);
    const { endpoint: third } = await endpoint(THIRD);
    await dueDeliveries(THIRD, third.id, 1);

    // Four free slots: every tenant's first before any tenant's second.
    const few = await claimDueDeliveries(orm.em.fork(), shares({ limit: 4 }));
    expect(countBy(few, (d) => d.tenant_id)).toEqual({ [NOISY]: 2, [QUIET]: 1, [THIRD]: 1 });
    // Sixteen: the noisy tenant stops at half (8 with the 2 it holds), the others get everything due.
    const many = await claimDueDeliveries(
      orm.em.fork(),
      shares({
        heldByTenant: new Map([
          [NOISY, 2],
          [QUIET, 1],
          [THIRD, 1],
        ]),
      }),
    );
    expect(countBy(many, (d) => d.tenant_id)).toEqual({ [NOISY]: 6, [QUIET]: 2 });
    // Within the noisy tenant its three endpoints took turns.
    expect(
      Object.values(
        countBy(
          [...few, ...many].filter((d) => d.tenant_id === NOISY),
          (d) => d.endpoint_id,
        ),
      ).sort(),
    ).toEqual([2, 3, 3]);
    // Leased deliveries are not due again before their lease ends.
    expect(await claimDueDeliveries(orm.em.fork(), shares({ heldByTenant: new Map([[NOISY, 8]]) }))).toEqual([]);
    expect(tenantSlotsOf(16)).toBe(8);
    expect(tenantSlotsOf(1)).toBe(1);
  });

  it("with one tenant's 10 endpoints timing out, another tenant's event is delivered within 5 s", async () => {
    const hanging = await startWebhookReceiver(() => 'hang');
    try {
      const noisy = [];
      for (let i = 0; i < MAX_ENDPOINTS_PER_TENANT; i++) noisy.push((await endpoint(NOISY, hanging.url)).endpoint);
      for (const e of noisy) await dueDeliveries(NOISY, e.id, 20);
      const { endpoint: quiet } = await endpoint(QUIET);
      const concurrency = 16;
      runners.push(
        startWebhookRunner({
          orm,
          log,
          concurrency,
          pollIntervalMs: 50,
          settings: {
            ...DEFAULT_DELIVERY_SETTINGS,
            secretKey: webhookSecretKey()!,
            allowInsecureLocal: true,
            timeoutMs: 1500,
            leaseSeconds: 5,
            retryScheduleSeconds: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
          },
        }),
      );
      // Let the noisy endpoints fail a round first: from then on each holds at most 2 slots.
      await hanging.waitFor(tenantSlotsOf(concurrency));
      const held = async () => {
        const rows = await kyselyOf(orm.em.fork())
          .selectFrom('webhook_deliveries')
          .select(['tenant_id', 'endpoint_id'])
          .where('leased_until', '>', new Date())
          .execute();
        return rows as unknown as { tenant_id: number; endpoint_id: number }[];
      };
      const samples: { tenant_id: number; endpoint_id: number }[][] = [];
      const { id } = await recordEvent(
        { db: kyselyOf(orm.em.fork()), tenant: { id: QUIET } },
        { type: 'application.created', object: 'application', objectId: 7, data: {} },
      );
      const { dispatchEvents } = await import('../src/modules/webhooks/webhook-dispatcher.ts');
      const started = Date.now();
      await dispatchEvents(orm.em.fork());
      for (;;) {
        samples.push(await held());
        const [delivery] = await listWebhookDeliveries(serviceContext(orm.em.fork(), QUIET), { endpointId: quiet.id });
        if (delivery?.state === 'delivered') break;
        if (Date.now() - started > 5000) throw new Error(`not delivered within 5 s: ${JSON.stringify(delivery)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([id]);
      console.log(
        `webhooks: another tenant's event delivered in ${Date.now() - started} ms while 10 endpoints time out`,
      );
      for (const sample of [...samples, await held()]) {
        expect(sample.filter((row) => row.tenant_id === NOISY).length).toBeLessThanOrEqual(tenantSlotsOf(concurrency));
      }
      // Once failing, no endpoint holds more than 2.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const later = await held();
      for (const count of Object.values(countBy(later, (row) => row.endpoint_id)))
        expect(count).toBeLessThanOrEqual(FAILING_ENDPOINT_SLOTS);
      // The tenant is told the class of failure only.
      const [timedOut] = await listWebhookDeliveries(serviceContext(orm.em.fork(), NOISY), {
        endpointId: noisy[0]!.id,
        limit: 100,
      }).then((list) => list.filter((d) => d.last_error !== null));
      expect(timedOut?.last_error).toBe('timeout');
    } finally {
      await Promise.all(runners.splice(0).map((runner) => runner.stop(500)));
      await hanging.close();
    }
  }, 30_000);
});

describe('delivery errors shown to tenants', () => {
  it('name the class of failure: TLS, refused, timeout', async () => {
    // An https request to a plain-http server fails in the TLS handshake.
    const tls = await postWebhook(`https://127.0.0.1:${receiver.port}/hooks`, {}, '{}', {
      allowInsecureLocal: true,
      timeoutMs: 2000,
    });
    expect(tls).toMatchObject({ kind: 'failed', failure: 'TLS' });
    const closed = await startWebhookReceiver();
    await closed.close();
    expect(await postWebhook(closed.url, {}, '{}', { allowInsecureLocal: true, timeoutMs: 2000 })).toMatchObject({
      kind: 'failed',
      failure: 'refused',
    });
    const hanging = await startWebhookReceiver(() => 'hang');
    expect(await postWebhook(hanging.url, {}, '{}', { allowInsecureLocal: true, timeoutMs: 200 })).toMatchObject({
      kind: 'failed',
      failure: 'timeout',
    });
    await hanging.close();
  });

  it('errors stored before classes existed are shown by their class, without host names', () => {
    const legacy: Array<[string, string]> = [
      ['vm resolves to a loopback address 127.0.0.1', 'blocked address'],
      ['hooks.corp.internal resolves to a private or reserved address 10.1.2.3', 'blocked address'],
      ['ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:443', 'refused'],
      ['timed out after 15000 ms', 'timeout'],
      ['DNS lookup of db.internal failed: ENOTFOUND', 'DNS'],
      ['HTTP 503', 'HTTP 5xx'],
      ['HTTP 404 (retries used up)', 'HTTP 4xx (retries used up)'],
      ['ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate', 'TLS'],
      ['ECONNRESET: socket hang up', 'connection'],
    ];
    for (const [stored, shown] of legacy) expect(publicDeliveryError(stored), stored).toBe(shown);
    for (const current of [
      'timeout',
      'refused',
      'blocked address',
      'TLS',
      'HTTP 5xx',
      'HTTP 5xx (retries used up)',
      'HTTP 410: the endpoint is gone and was disabled',
    ]) {
      expect(publicDeliveryError(current)).toBe(current);
    }
    expect(publicDeliveryError(null)).toBeNull();
  });
});
