import {
  DEFAULT_DELIVERY_SETTINGS,
  startWebhookRunner,
  type TWebhookRunner,
  webhookSecretKey,
} from '@careers/core/worker';
import type { TTestApi } from './api.ts';

/** The worker's webhook runner beside a test API: its database, quick polling, and local receivers allowed. */
export function startTestWebhookRunner(api: TTestApi): TWebhookRunner {
  return startWebhookRunner({
    orm: api.services.orm,
    log: api.services.log,
    concurrency: 4,
    pollIntervalMs: 100,
    settings: { ...DEFAULT_DELIVERY_SETTINGS, secretKey: webhookSecretKey()!, allowInsecureLocal: true },
  });
}
