import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { kyselyOf, createWebhookEndpoint, serviceContext } from '@careers/core/operations';
import { recordEvent, listWebhookDeliveries, startWebhookReceiver, type TWebhookReceiver } from '@careers/core/testing';
import { TENANT_ID, startPipeline, type TPipeline } from './support/pipeline.ts';
import { killWorkers, startWorker as startWorkerProcess, type TWorkerProcess } from './support/worker-process.ts';

// The receiver listens on 127.0.0.1 over http: allowed here and in the worker processes below.
process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';

let pipeline: TPipeline;
let receiver: TWebhookReceiver;

/** The real worker process, as `pnpm start:worker` runs it, with short webhook timings. */
const startWorker = (extraEnv: Record<string, string> = {}): Promise<TWorkerProcess> =>
  startWorkerProcess(pipeline.url, {
    WORKER_METRICS_PORT: '0',
    WEBHOOK_ALLOW_INSECURE_LOCAL: '1',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '1000',
    // A killed worker's delivery is due again 2 s after it was claimed.
    WEBHOOK_LEASE_SECONDS: '2',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.5,0.5,0.5',
    WEBHOOK_CONCURRENCY: '16',
    ...extraEnv,
  });

async function stopWorker(worker: TWorkerProcess): Promise<void> {
  worker.child.kill('SIGTERM');
  expect(await worker.exited).toEqual({ code: 0, signal: null });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  pipeline = await startPipeline();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  killWorkers();
  await receiver?.close();
  await pipeline?.close();
});

describe('webhook delivery by the worker process', () => {
  it('delivers an event again, with the same webhook-id, after the worker is SIGKILLed mid-delivery', async () => {
    const { endpoint, secret } = await createWebhookEndpoint(serviceContext(pipeline.orm.em.fork(), TENANT_ID), {
      url: receiver.url,
      eventTypes: ['application.created'],
    });
    // The first request is held open; the worker is killed while it waits for the answer.
    receiver.setReply((_request, index) => (index === 0 ? 'hang' : undefined));
    const first = await startWorker();
    const { id } = await recordEvent(
      { db: kyselyOf(pipeline.orm.em.fork()), tenant: { id: TENANT_ID } },
      { type: 'application.created', object: 'application', objectId: 42, data: {} },
    );
    await receiver.waitFor(1);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startWorker();
    const received = await receiver.waitFor(2, 20_000);
    expect(received.map((request) => request.headers['webhook-id'])).toEqual([id, id]);
    for (const request of received)
      expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    expect(JSON.parse(received[1]!.body)).toMatchObject({
      id,
      type: 'application.created',
      tenant: 'initech',
      data: { id: 42 },
    });
    // The worker records the outcome just after the receiver answered.
    let deliveries = await listWebhookDeliveries(serviceContext(pipeline.orm.em.fork(), TENANT_ID), {
      endpointId: endpoint.id,
    });
    for (let i = 0; i < 50 && deliveries[0]?.state !== 'delivered'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      deliveries = await listWebhookDeliveries(serviceContext(pipeline.orm.em.fork(), TENANT_ID), {
        endpointId: endpoint.id,
      });
    }
    expect(deliveries).toMatchObject([{ event_id: id, state: 'delivered', attempts: 2, last_status_code: 200 }]);
    await stopWorker(second);
    await kyselyOf(pipeline.orm.em.fork()).deleteFrom('webhook_endpoints').execute();
  });

  it('delivers a backlog to a local receiver (throughput of one worker)', async () => {
    const count = 2000;
    receiver.received.length = 0;
    receiver.setReply(() => undefined);
    await createWebhookEndpoint(serviceContext(pipeline.orm.em.fork(), TENANT_ID), {
      url: receiver.url,
      eventTypes: ['*'],
    });
    await pipeline.orm.em.fork().transactional(async (tx) => {
      for (let i = 0; i < count; i++)
        await recordEvent(
          { db: kyselyOf(tx), tenant: { id: TENANT_ID } },
          { type: 'candidate.created', object: 'candidate', objectId: i + 1, data: {} },
        );
    });
    const started = performance.now();
    const metricsPort = await freePort();
    const worker = await startWorker({ WORKER_METRICS_PORT: String(metricsPort), WORKER_METRICS_HOST: '127.0.0.1' });
    await receiver.waitFor(count, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const ids = new Set(receiver.received.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(count);
    const steady = (receiver.received.at(-1)!.at - receiver.received[0]!.at) / 1000;
    console.log(
      `webhooks: ${count} events delivered by one worker (16 in flight) in ${seconds.toFixed(1)} s with start-up, ${steady.toFixed(1)} s first to last: ${Math.round(count / steady)} events/s`,
    );
    // The worker's /metrics counts the attempts (recorded just after each answer).
    const deliveredCount = async () =>
      /careers_webhook_attempts_total\{outcome="delivered"\} (\d+)/.exec(
        await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
      )?.[1];
    for (let i = 0; i < 50 && (await deliveredCount()) !== String(count); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await deliveredCount()).toBe(String(count));
    await stopWorker(worker);
  }, 180_000);
});
