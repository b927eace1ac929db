import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Webhook delivery metrics in a process's registry: attempts by outcome (delivered, pending = will retry,
 * failed = given up or endpoint gone) and how long the receivers took. Returns the runner's `onAttempt`.
 */
export function webhookAttemptMetrics(
  registry: Registry,
): (state: 'delivered' | 'pending' | 'failed', seconds: number) => void {
  const attempts = new Counter({
    name: 'careers_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (pending: will be retried)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'careers_webhook_attempt_duration_seconds',
    help: 'Webhook delivery attempt duration by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  return (state, seconds) => {
    attempts.inc({ outcome: state });
    duration.observe({ outcome: state }, seconds);
  };
}
