import { setTimeout as sleep } from 'node:timers/promises';
import { isAppError, openOrm, type TOrm } from '@careers/core';
import { createWebhookEndpoint, kyselyOf, sendTestEvent, serviceContext } from '@careers/core/operations';
import { listWebhookDeliveries, recordEvent, replayWebhookDelivery, startWebhookReceiver } from '@careers/core/testing';
import type { TAttack, TAttackContext, TCheck } from './attacks.ts';
import { applicationBody } from './bodies.ts';
import { describeStatuses, send } from './http.ts';

/**
 * Webhook attacks (issue 27, "Webhooks share fairly"): one tenant's endpoints that never answer, and a tenant that floods
 * test events and replays. Endpoints are made with the operator's service (what the dashboard and the CLI call) on the
 * run's database; deliveries are sent by the run's worker process (WEBHOOK_ALLOW_INSECURE_LOCAL: receivers on 127.0.0.1).
 */

const ATTACKER = 'abuse-attacker';
const BYSTANDER = 'abuse-bystander';
/** The bound of the issue: another tenant's webhook is delivered within 5 s while the attacker's endpoints hang. */
const DELIVERY_BOUND_MS = 5000;

const round = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

async function withOrm<T>(
  context: TAttackContext,
  run: (orm: TOrm, tenants: { attacker: number; bystander: number }) => Promise<T>,
): Promise<T> {
  const orm = await openOrm(context.databaseUrl);
  try {
    const rows = await kyselyOf(orm.em.fork())
      .selectFrom('tenants')
      .select(['id', 'slug'])
      .where('slug', 'in', [ATTACKER, BYSTANDER])
      .execute();
    const idOf = (slug: string) => {
      const row = rows.find((candidate) => candidate.slug === slug);
      if (!row) throw new Error(`no tenant ${slug}`);
      return row.id;
    };
    const tenants = { attacker: idOf(ATTACKER), bystander: idOf(BYSTANDER) };
    try {
      return await run(orm, tenants);
    } finally {
      // Later attacks (and runs) start without these endpoints and their deliveries.
      await kyselyOf(orm.em.fork())
        .deleteFrom('webhook_endpoints')
        .where('tenant_id', 'in', [tenants.attacker, tenants.bystander])
        .execute();
    }
  } finally {
    await orm.close();
  }
}

/** Records an event of the bystander's and waits until its receiver has it; the time from commit to arrival. */
async function bystanderDelivery(
  orm: TOrm,
  tenantId: number,
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>,
  objectId: number,
): Promise<number> {
  const { id } = await recordEvent(serviceContext(orm.em.fork(), tenantId), {
    type: 'application.created',
    object: 'application',
    objectId,
    data: {},
  });
  const started = performance.now();
  for (;;) {
    if (receiver.received.some((request) => request.headers['webhook-id'] === id)) return performance.now() - started;
    if (performance.now() - started > 3 * DELIVERY_BOUND_MS) return Number.POSITIVE_INFINITY;
    await sleep(20);
  }
}

/** The slots held right now (deliveries being attempted), per endpoint, of one tenant. */
async function slotsHeld(orm: TOrm, tenantId: number): Promise<number[]> {
  const rows = await kyselyOf(orm.em.fork())
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', (eb) => eb.fn.countAll<string>().as('held')])
    .where('tenant_id', '=', tenantId)
    .where('leased_until', '>', new Date())
    .groupBy('endpoint_id')
    .execute();
  return rows.map((row) => Number(row.held));
}

/** Ten endpoints of one tenant that never answer (each delivery waits out the 15 s timeout), and a backlog for them. */
const slowEndpoints: TAttack = {
  name: 'webhooks: 10 endpoints that time out',
  bound: "11th endpoint 422; another tenant's webhook < 5 s; ≤ 2 slots per failing endpoint",
  run: (context) =>
    withOrm(context, async (orm, tenants) => {
      const hanging = await startWebhookReceiver(() => 'hang');
      const receiver = await startWebhookReceiver();
      try {
        const checks: TCheck[] = [];
        for (let i = 0; i < 10; i++)
          await createWebhookEndpoint(serviceContext(orm.em.fork(), tenants.attacker), {
            url: `${hanging.url}/${i}`,
            eventTypes: ['*'],
          });
        let eleventh = 'created';
        try {
          await createWebhookEndpoint(serviceContext(orm.em.fork(), tenants.attacker), {
            url: `${hanging.url}/10`,
            eventTypes: ['*'],
          });
        } catch (error) {
          eleventh = isAppError(error)
            ? `${error.status} ${Object.keys(error.fieldErrors ?? {}).join(',')}`
            : String(error);
        }
        checks.push({ ok: eleventh === '422 url', text: `11th endpoint: ${eleventh}` });
        await createWebhookEndpoint(serviceContext(orm.em.fork(), tenants.bystander), {
          url: receiver.url,
          eventTypes: ['application.created'],
        });

        // The attacker's applications (with its own keys, as an integration would) make the backlog: every event goes to all ten.
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            send({
              method: 'POST',
              url: `${context.baseUrl}/applications`,
              key: context.nextAttackerKey(),
              body: Buffer.from(
                JSON.stringify(applicationBody(context.vacancySlug, `webhook-${i}-${Date.now()}@abuse.example`)),
              ),
              timeoutMs: 10_000,
              signal: context.signal,
            }),
          ),
        );
        // The worst moment: the attacker's first deliveries hold every slot they can get.
        await hanging.waitFor(8, 30_000);
        const held = await slotsHeld(orm, tenants.attacker);
        const first = await bystanderDelivery(orm, tenants.bystander, receiver, 1);
        // After the first timeouts (15 s) every attacker endpoint is failing: at most 2 slots each from then on.
        await sleep(Math.max(0, Math.min(17_000, context.remainingMs() - 12_000)));
        const failingHeld = await slotsHeld(orm, tenants.attacker);
        const second = await bystanderDelivery(orm, tenants.bystander, receiver, 2);
        const attempted = hanging.received.length;
        checks.push(
          {
            ok: first < DELIVERY_BOUND_MS && second < DELIVERY_BOUND_MS,
            text: `other tenant's webhook delivered in ${round(first)} (attacker holding ${held.reduce((a, b) => a + b, 0)} slots), then ${round(second)}`,
          },
          {
            ok: failingHeld.every((count) => count <= 2) && held.reduce((a, b) => a + b, 0) <= 8,
            text: `attacker slots: ${held.reduce((a, b) => a + b, 0)} at first (≤ 8 = half the worker's), per failing endpoint ≤ ${Math.max(0, ...failingHeld)} (≤ 2); ${attempted} hanging requests`,
          },
        );
        return {
          statuses: `applications ${describeStatuses(answers)}; bystander ${round(first)} / ${round(second)}`,
          checks,
        };
      } finally {
        await hanging.close();
        await receiver.close();
      }
    }),
};

/** One tenant asks for test events and replays of one endpoint as fast as it can (the dashboard's and the CLI's path). */
const testFlood: TAttack = {
  name: 'webhooks: test/replay flood',
  bound: "≤ 10 a minute per endpoint (429 + Retry-After); another tenant's test delivered < 5 s",
  run: (context) =>
    withOrm(context, async (orm, tenants) => {
      const receiver = await startWebhookReceiver();
      const bystanderReceiver = await startWebhookReceiver();
      try {
        const { endpoint } = await createWebhookEndpoint(serviceContext(orm.em.fork(), tenants.attacker), {
          url: receiver.url,
          eventTypes: ['*'],
        });
        const { endpoint: other } = await createWebhookEndpoint(serviceContext(orm.em.fork(), tenants.bystander), {
          url: bystanderReceiver.url,
          eventTypes: ['*'],
        });
        const outcomes: string[] = [];
        const retryAfter: string[] = [];
        const attempt = async (call: () => Promise<unknown>) => {
          try {
            await call();
            outcomes.push('ok');
          } catch (error) {
            outcomes.push(isAppError(error) ? String(error.status) : 'error');
            if (isAppError(error)) retryAfter.push(error.headers()['Retry-After'] ?? 'none');
          }
        };
        const first = await sendTestEvent(serviceContext(orm.em.fork(), tenants.attacker), { id: endpoint.id });
        outcomes.push('ok');
        await Promise.all(
          Array.from({ length: 199 }, (_, i) =>
            attempt(() =>
              i % 2
                ? replayWebhookDelivery(serviceContext(orm.em.fork(), tenants.attacker), { id: first.id })
                : sendTestEvent(serviceContext(orm.em.fork(), tenants.attacker), { id: endpoint.id }),
            ),
          ),
        );
        const accepted = outcomes.filter((outcome) => outcome === 'ok').length;
        const refused = outcomes.filter((outcome) => outcome === '429').length;
        const started = performance.now();
        const test = await sendTestEvent(serviceContext(orm.em.fork(), tenants.bystander), { id: other.id });
        let bystanderMs = Number.POSITIVE_INFINITY;
        while (performance.now() - started < 3 * DELIVERY_BOUND_MS) {
          if (bystanderReceiver.received.some((request) => request.headers['webhook-id'] === test.event_id)) {
            bystanderMs = performance.now() - started;
            break;
          }
          await sleep(20);
        }
        await sleep(1000);
        const delivered = await listWebhookDeliveries(serviceContext(orm.em.fork(), tenants.attacker), {
          endpointId: endpoint.id,
          limit: 1000,
        });
        return {
          statuses: `${accepted} accepted, ${refused} × 429 of ${outcomes.length}; bystander test ${round(bystanderMs)}`,
          checks: [
            {
              ok: accepted === 10 && refused === outcomes.length - 10,
              text: `${accepted} of ${outcomes.length} test events and replays accepted, ${refused} answered 429`,
            },
            {
              ok: retryAfter.every((value) => Number(value) >= 1 && Number(value) <= 60),
              text: `Retry-After ${[...new Set(retryAfter)].slice(0, 3).join(', ')} s`,
            },
            {
              ok: delivered.length <= 10 && receiver.received.length <= 10,
              text: `${receiver.received.length} requests reached the attacker's endpoint`,
            },
            {
              ok: bystanderMs < DELIVERY_BOUND_MS,
              text: `another tenant's test event delivered in ${round(bystanderMs)}`,
            },
          ],
        };
      } finally {
        await receiver.close();
        await bystanderReceiver.close();
      }
    }),
};

export const WEBHOOK_ATTACKS: readonly TAttack[] = [slowEndpoints, testFlood];
