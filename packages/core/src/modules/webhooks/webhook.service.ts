import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { coreEnv, webhookSecretKey } from '../../env.ts';
import { AppError } from '../../lib/errors.ts';
import { decryptSecret, encryptSecret, generateWebhookSecret } from './webhook.crypto.ts';
import { toDeliveryDto, toEndpointDto, type TWebhookDeliveryDto, type TWebhookEndpointDto } from './webhook.dto.ts';
import { endpointUrlProblem } from './webhook-http.ts';
import { isStorableId } from '../../lib/query.ts';
import { hitNamedWindow, rateLimitHeaders } from '../rate-limits/rate-limit.service.ts';
import { serviceContext, type TServiceContext, type TServiceContextWithEm } from '../service-context.ts';
import {
  deleteEndpointRow,
  enableEndpointRow,
  insertDelivery,
  insertEndpoint,
  lockAndCountEndpoints,
  requeueDelivery,
  selectDeliveries,
  selectDelivery,
  selectEndpointSecrets,
  selectEndpoints,
  updateSecrets,
} from './webhook.repository.ts';

/** Event types an endpoint can subscribe to (CONTRACT "Events, webhooks and the change feed"); `*` is every one. */
export const WEBHOOK_EVENT_TYPES = [
  'vacancy.published',
  'vacancy.updated',
  'vacancy.unpublished',
  'article.published',
  'article.updated',
  'article.unpublished',
  'application.created',
  'candidate.created',
  'candidate.updated',
  'resume.failed',
] as const;
export const TEST_EVENT_TYPE = 'webhook.test';
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Endpoints one tenant may have (CONTRACT "Guarding the shared service"): deliveries are work the tenants share. */
export const MAX_ENDPOINTS_PER_TENANT = 10;
/** Test events and replays of one endpoint, together, per fixed window. */
export const ENDPOINT_SENDS = { limit: 10, windowSeconds: 60 } as const;

function secretKey(): Buffer {
  const key = webhookSecretKey();
  // An operator error, not a client's: the message names the setting to fix.
  if (!key)
    throw new AppError('SERVICE_UNAVAILABLE', {
      cause: new Error('WEBHOOK_SECRET_KEY is not set: webhooks need it to store endpoint secrets'),
    });
  return key;
}

/** Does an endpoint subscribed to `eventTypes` want this event? The test event goes only where it is sent. */
export function endpointWants(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.includes('*') || eventTypes.includes(type);
}

function checkedEventTypes(eventTypes: readonly string[]): string[] {
  const known = new Set<string>(['*', ...WEBHOOK_EVENT_TYPES]);
  const errors: Record<string, string[]> = {};
  eventTypes.forEach((type, i) => {
    if (!known.has(type)) errors[`event_types.${i}`] = [`The selected event_types.${i} is invalid.`];
  });
  if (eventTypes.length === 0) errors.event_types = ['The event_types field is required.'];
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return eventTypes.includes('*') ? ['*'] : [...new Set(eventTypes)];
}

/*
 * Every operation runs for the context's tenant: another tenant's endpoint or delivery is NOT_FOUND. The operator's
 * CLI, which names an endpoint by id alone, asks `ownerTenant` first and then calls with that tenant's context.
 */

/** Creates an endpoint; the secret is returned once (stored only encrypted). */
export async function createWebhookEndpoint(
  ctx: TServiceContextWithEm,
  input: { url: string; eventTypes: readonly string[] },
): Promise<{ endpoint: TWebhookEndpointDto; secret: string }> {
  const url = input.url.trim();
  const problem =
    url.length > 2048
      ? 'The url must not be greater than 2048 characters.'
      : endpointUrlProblem(url, coreEnv().WEBHOOK_ALLOW_INSECURE_LOCAL);
  if (problem) throw AppError.validation({ url: [problem] });
  const eventTypes = checkedEventTypes(input.eventTypes);
  const key = secretKey();
  const secret = generateWebhookSecret();
  // Counted under the tenant's row lock: two creations at once cannot both take the last place.
  const row = await ctx.em.transactional(async (tx) => {
    const { db } = serviceContext(tx, ctx.tenant.id);
    const count = await lockAndCountEndpoints(db);
    if (count === undefined) throw new AppError('NOT_FOUND');
    if (count >= MAX_ENDPOINTS_PER_TENANT) {
      throw AppError.validation({
        url: [`A tenant may have at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first.`],
      });
    }
    return insertEndpoint(db, { url, eventTypes, secretEncrypted: encryptSecret(secret, key) });
  });
  return { endpoint: toEndpointDto(row), secret };
}

/**
 * Counts one test event or replay against its endpoint's window (10 a minute, shared by every process); beyond it
 * the answer is the house's 429, with `Retry-After` and the `X-RateLimit-*` headers.
 */
async function countEndpointSend(em: EntityManager, endpointId: number): Promise<void> {
  const state = await hitNamedWindow({ em }, { bucket: `webhook-sends:${endpointId}`, window: ENDPOINT_SENDS });
  if (state.exceeded)
    throw new AppError('TOO_MANY_ATTEMPTS', {
      headers: rateLimitHeaders(state),
      detail: `webhook endpoint ${endpointId}: test/replay limit`,
    });
}

export async function listWebhookEndpoints(ctx: TServiceContext): Promise<TWebhookEndpointDto[]> {
  const now = new Date();
  return (await selectEndpoints(ctx.db)).map((row) => toEndpointDto(row, now));
}

export async function deleteWebhookEndpoint(
  ctx: TServiceContextWithEm,
  input: { id: number },
): Promise<TWebhookEndpointDto> {
  const { id } = input;
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const row = await ctx.em.transactional((tx) => deleteEndpointRow(serviceContext(tx, ctx.tenant.id).db, id));
  if (!row) throw new AppError('NOT_FOUND');
  return toEndpointDto(row);
}

/** Enables an endpoint again (after a 410 disabled it); events from now on, and its pending deliveries, are sent. */
export async function enableWebhookEndpoint(ctx: TServiceContext, input: { id: number }): Promise<TWebhookEndpointDto> {
  const { id } = input;
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const row = await enableEndpointRow(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toEndpointDto(row);
}

/**
 * Gives an endpoint a new secret. The one it replaces keeps signing beside it for 24 hours, so receivers can
 * switch without missing a delivery; a rotation during that time replaces the older one.
 */
export async function rotateWebhookSecret(
  ctx: TServiceContextWithEm,
  input: { id: number; now?: Date },
): Promise<{ endpoint: TWebhookEndpointDto; secret: string }> {
  const { id } = input;
  const now = input.now ?? new Date();
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const key = secretKey();
  return ctx.em.transactional(async (tx) => {
    const { db } = serviceContext(tx, ctx.tenant.id);
    const current = await selectEndpointSecrets(db, id);
    if (!current) throw new AppError('NOT_FOUND');
    const secret = generateWebhookSecret();
    const row = await updateSecrets(db, id, {
      secretEncrypted: encryptSecret(secret, key),
      previousSecretEncrypted: current.secret_encrypted,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    });
    return { endpoint: toEndpointDto(row, now), secret };
  });
}

/** The secrets that sign a delivery now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  endpoint: {
    secret_encrypted: string;
    previous_secret_encrypted: string | null;
    previous_secret_expires_at: Date | string | null;
  },
  key: Buffer,
  now = new Date(),
): string[] {
  const secrets = [decryptSecret(endpoint.secret_encrypted, key)];
  const expiry = endpoint.previous_secret_expires_at === null ? null : new Date(endpoint.previous_secret_expires_at);
  if (endpoint.previous_secret_encrypted !== null && expiry !== null && expiry > now)
    secrets.push(decryptSecret(endpoint.previous_secret_encrypted, key));
  return secrets;
}

/** Queues a `webhook.test` event for this endpoint only (whatever types it subscribes to); 10 a minute with replays. */
export async function sendTestEvent(ctx: TServiceContextWithEm, input: { id: number }): Promise<TWebhookDeliveryDto> {
  const { id } = input;
  const { db } = ctx;
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const endpoint = await selectEndpointSecrets(db, id);
  if (!endpoint) throw new AppError('NOT_FOUND');
  await countEndpointSend(ctx.em, endpoint.id);
  const tenant = await db.selectFrom('tenants').select('slug').executeTakeFirstOrThrow();
  const eventId = `evt_${randomBytes(16).toString('hex')}`;
  const payload = JSON.stringify({
    id: eventId,
    type: TEST_EVENT_TYPE,
    occurred_at: new Date().toISOString(),
    tenant: tenant.slug,
    data: { id: endpoint.id, url: endpoint.url },
  });
  return toDeliveryDto(
    await insertDelivery(db, {
      tenantId: endpoint.tenant_id,
      endpointId: endpoint.id,
      eventId,
      eventType: TEST_EVENT_TYPE,
      payload,
    }),
  );
}

/** The endpoint's most recent deliveries, newest first. */
export async function listWebhookDeliveries(
  ctx: TServiceContext,
  input: { endpointId: number; limit?: number },
): Promise<TWebhookDeliveryDto[]> {
  const { endpointId, limit = 50 } = input;
  const { db } = ctx;
  if (!isStorableId(endpointId)) throw new AppError('NOT_FOUND');
  if (!(await selectEndpointSecrets(db, endpointId))) throw new AppError('NOT_FOUND');
  return (await selectDeliveries(db, endpointId, limit)).map(toDeliveryDto);
}

/** Sends a delivery again, now: the same event id (`webhook-id`) and body, freshly signed; 10 a minute with test events. */
export async function replayWebhookDelivery(
  ctx: TServiceContextWithEm,
  input: { id: number },
): Promise<TWebhookDeliveryDto> {
  const { id } = input;
  const { db } = ctx;
  if (!isStorableId(id)) throw new AppError('NOT_FOUND');
  const delivery = await selectDelivery(db, id);
  if (!delivery) throw new AppError('NOT_FOUND');
  await countEndpointSend(ctx.em, delivery.endpoint_id);
  const row = await requeueDelivery(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toDeliveryDto(row);
}
