import type { EntityManager } from '@mikro-orm/postgresql';
import { signatureHeader } from './webhook.crypto.ts';
import {
  disableEndpoint,
  recordAttempt,
  type TAttemptOutcome,
  type TClaimedDelivery,
} from './webhook-delivery.repository.ts';
import { signingSecrets } from './webhook.service.ts';
import { postWebhook, type TPostOptions, type TPostResult } from './webhook-http.ts';

/** Seconds before each retry after a failed attempt: 8 attempts over about 28 hours (jittered). */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

export type TDeliverySettings = {
  /** Decrypts endpoint secrets (WEBHOOK_SECRET_KEY). */
  secretKey: Buffer;
  allowInsecureLocal: boolean;
  /** A receiver that has not answered within this is a failed attempt (15 s). */
  timeoutMs: number;
  /** How long a claimed delivery stays with its worker; a killed worker's deliveries come back after it. */
  leaseSeconds: number;
  retryScheduleSeconds: readonly number[];
  /** The longest `Retry-After` honoured (a receiver cannot park a delivery for ever). */
  maxRetryAfterSeconds: number;
  resolve?: TPostOptions['resolve'];
};

export const DEFAULT_DELIVERY_SETTINGS = {
  timeoutMs: 15_000,
  leaseSeconds: 60,
  retryScheduleSeconds: RETRY_SCHEDULE_SECONDS,
  maxRetryAfterSeconds: 24 * 3600,
} satisfies Partial<TDeliverySettings>;

/** ±20 % so that many deliveries failing together do not retry together. */
function jittered(seconds: number, random: () => number): number {
  return seconds * (0.8 + 0.4 * random());
}

/** What one attempt's result means for the delivery (pure: the retry rules in one place). */
export function outcomeOf(
  result: TPostResult,
  attempts: number,
  settings: Pick<TDeliverySettings, 'retryScheduleSeconds' | 'maxRetryAfterSeconds'>,
  now = new Date(),
  random: () => number = Math.random,
): TAttemptOutcome & { gone?: boolean } {
  if (result.kind === 'response' && result.status >= 200 && result.status < 300)
    return { state: 'delivered', statusCode: result.status, response: result.body };
  const statusCode = result.kind === 'response' ? result.status : null;
  const response = result.kind === 'response' ? result.body : null;
  // What the tenant sees names the class of failure only (the status code is shown beside it).
  const error = result.kind === 'response' ? httpFailure(result.status) : result.failure;
  if (statusCode === 410)
    return {
      state: 'failed',
      statusCode,
      error: 'HTTP 410: the endpoint is gone and was disabled',
      response,
      gone: true,
    };
  const delay = settings.retryScheduleSeconds[attempts - 1];
  if (delay === undefined) return { state: 'failed', statusCode, error: `${error} (retries used up)`, response };
  const retryAfter =
    result.kind === 'response' && result.retryAfterSeconds !== undefined
      ? Math.min(result.retryAfterSeconds, settings.maxRetryAfterSeconds)
      : 0;
  const seconds = Math.max(jittered(delay, random), retryAfter);
  return { state: 'pending', statusCode, error, response, nextAttemptAt: new Date(now.getTime() + seconds * 1000) };
}

/** `HTTP 5xx`, `HTTP 4xx`, …: the class of an answer that did not deliver. */
function httpFailure(status: number): string {
  return status >= 100 && status <= 599 ? `HTTP ${Math.floor(status / 100)}xx` : 'HTTP error';
}

/** Signs and POSTs one claimed delivery, then records the outcome (410 also disables the endpoint). */
export async function attemptDelivery(
  em: EntityManager,
  delivery: TClaimedDelivery,
  settings: TDeliverySettings,
  signal?: AbortSignal,
): Promise<TAttemptOutcome & { detail?: string }> {
  const timestamp = Math.floor(Date.now() / 1000);
  let result: TPostResult;
  try {
    const secrets = signingSecrets(delivery, settings.secretKey);
    const headers = {
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, delivery.event_id, timestamp, delivery.payload),
    };
    result = await postWebhook(delivery.url, headers, delivery.payload, {
      allowInsecureLocal: settings.allowInsecureLocal,
      timeoutMs: settings.timeoutMs,
      ...(settings.resolve ? { resolve: settings.resolve } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    // E.g. a secret encrypted with another key: retried like a failed request, and visible in the log.
    result = { kind: 'failed', failure: 'connection', detail: error instanceof Error ? error.message : String(error) };
  }
  const outcome = outcomeOf(result, delivery.attempts, settings);
  if ('gone' in outcome && outcome.gone) {
    await em.transactional(async (tx) => {
      if (await recordAttempt(tx, delivery, outcome))
        await disableEndpoint(tx, delivery.endpoint_id, 'The endpoint answered 410 Gone.');
    });
  } else {
    await recordAttempt(em, delivery, outcome);
  }
  // The detail (host names, addresses, error codes) is for the worker's log, never stored where a tenant reads it.
  return result.kind === 'response' ? outcome : { ...outcome, detail: result.detail };
}
