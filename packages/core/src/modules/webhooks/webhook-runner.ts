import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.ts';
import { attemptDelivery, type TDeliverySettings } from './webhook-delivery.ts';
import { dispatchEvents } from './webhook-dispatcher.ts';
import { claimDueDeliveries, pruneFinishedDeliveries, type TClaimedDelivery } from './webhook-delivery.repository.ts';

/** Slots an endpoint whose last attempt failed (one that keeps timing out, say) may hold at once, across all workers. */
export const FAILING_ENDPOINT_SLOTS = 2;

/** The slots one tenant may hold in a worker of `concurrency` slots: half of them (all of one slot). */
export function tenantSlotsOf(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

export type TWebhookRunnerOptions = {
  orm: MikroORM;
  log: Logger;
  settings: TDeliverySettings;
  /** Deliveries in flight at the same time in this process (a tenant gets at most half of them). */
  concurrency: number;
  /** How often an idle runner looks for new events and due deliveries. */
  pollIntervalMs: number;
  /** Events read per dispatch transaction. */
  dispatchBatch?: number;
  /** Finished deliveries are kept this long in the log (default 30 days); checked hourly. */
  deliveryRetentionDays?: number;
  /** Called after every attempt (metrics). */
  onAttempt?: (state: 'delivered' | 'pending' | 'failed', seconds: number) => void;
};

export type TWebhookRunner = {
  /** Stops claiming; waits up to `timeoutMs` for deliveries in flight (the rest come back when their lease ends). */
  stop: (timeoutMs: number) => Promise<void>;
};

/**
 * The worker's webhook loops: the dispatcher (events → deliveries) and the sender (due deliveries → POST).
 * Deliveries are rows in `webhook_deliveries` claimed with a lease (see `claimDueDeliveries`), so they survive
 * a restart or a SIGKILL and several workers can share them.
 */
export function startWebhookRunner(options: TWebhookRunnerOptions): TWebhookRunner {
  const { orm, log, settings } = options;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  /** Slots this worker's deliveries in flight hold, per tenant (a tenant's share is counted per worker). */
  const heldByTenant = new Map<number, number>();
  const hold = (tenantId: number, change: 1 | -1) => {
    const held = (heldByTenant.get(tenantId) ?? 0) + change;
    if (held > 0) heldByTenant.set(tenantId, held);
    else heldByTenant.delete(tenantId);
  };
  let wake: (() => void) | undefined;
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      wake = done;
      stopping.signal.addEventListener('abort', done, { once: true });
    });

  const retentionMs = (options.deliveryRetentionDays ?? 30) * 24 * 3600 * 1000;
  let nextPrune = 0;
  const pruneLog = async () => {
    if (Date.now() < nextPrune) return;
    nextPrune = Date.now() + 3600 * 1000;
    let pruned = 0;
    for (let removed = -1; removed !== 0 && !stopping.signal.aborted; ) {
      removed = await pruneFinishedDeliveries(orm.em.fork(), new Date(Date.now() - retentionMs));
      pruned += removed;
    }
    if (pruned > 0) log.info({ pruned }, 'old webhook deliveries pruned');
  };

  const dispatchLoop = async () => {
    const batch = options.dispatchBatch ?? 500;
    while (!stopping.signal.aborted) {
      try {
        await pruneLog();
        const { events, deliveries } = await dispatchEvents(orm.em.fork(), batch);
        if (deliveries > 0) wake?.();
        if (events < batch)
          await sleep(options.pollIntervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      } catch (error) {
        log.error({ err: error }, 'webhook dispatch failed; trying again');
        await sleep(Math.max(options.pollIntervalMs, 1000), undefined, { signal: stopping.signal }).catch(
          () => undefined,
        );
      }
    }
  };

  const deliver = async (delivery: TClaimedDelivery) => {
    const started = performance.now();
    const context = {
      webhook_delivery_id: delivery.id,
      webhook_endpoint_id: delivery.endpoint_id,
      event_id: delivery.event_id,
      attempt: delivery.attempts,
    };
    try {
      const outcome = await attemptDelivery(orm.em.fork(), delivery, settings);
      options.onAttempt?.(outcome.state, (performance.now() - started) / 1000);
      if (outcome.state === 'delivered') log.debug({ ...context, status: outcome.statusCode }, 'webhook delivered');
      else
        log.warn(
          {
            ...context,
            status: outcome.statusCode,
            error: outcome.error,
            detail: outcome.detail,
            state: outcome.state,
            next_attempt_at: 'nextAttemptAt' in outcome ? outcome.nextAttemptAt : null,
          },
          'webhook delivery failed',
        );
    } catch (error) {
      // Recording the outcome failed (database): the lease runs out and the delivery is attempted again.
      log.error({ ...context, err: error }, 'webhook delivery could not be recorded');
    }
  };

  const sendLoop = async () => {
    while (!stopping.signal.aborted) {
      const free = options.concurrency - inFlight.size;
      let claimed: TClaimedDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await claimDueDeliveries(orm.em.fork(), {
            limit: free,
            leaseSeconds: settings.leaseSeconds,
            tenantSlots: tenantSlotsOf(options.concurrency),
            heldByTenant,
            failingEndpointSlots: FAILING_ENDPOINT_SLOTS,
          });
        } catch (error) {
          log.error({ err: error }, 'claiming webhook deliveries failed; trying again');
        }
      }
      for (const delivery of claimed) {
        hold(delivery.tenant_id, 1);
        const running: Promise<void> = deliver(delivery).finally(() => {
          inFlight.delete(running);
          hold(delivery.tenant_id, -1);
          wake?.();
        });
        inFlight.add(running);
      }
      // A full claim means more may be due: claim again at once (as slots free up); otherwise wait for work (or for a
      // slot to free up: a tenant at its share may take its next delivery then).
      if (claimed.length === 0 || claimed.length < free || inFlight.size >= options.concurrency)
        await idle(options.pollIntervalMs);
    }
  };

  const loops = Promise.all([dispatchLoop(), sendLoop()]);
  return {
    stop: async (timeoutMs) => {
      stopping.abort();
      await loops;
      await Promise.race([Promise.all(inFlight), sleep(timeoutMs)]);
    },
  };
}
