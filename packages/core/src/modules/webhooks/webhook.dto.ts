/** An endpoint as administrators see it: never its secrets. */
export type TWebhookEndpointDto = {
  id: number;
  url: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  /** Until when the previous secret still signs beside the current one (after a rotation). */
  previous_secret_expires_at: string | null;
  created_at: string;
};

/** One line of the delivery log. */
export type TWebhookDeliveryDto = {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
};

export type TEndpointRow = {
  id: number;
  url: string;
  event_types: string[];
  disabled_at: Date | string | null;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | string | null;
  created_at: Date | string;
};

export type TDeliveryRow = {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  state: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  delivered_at: Date | string | null;
  created_at: Date | string;
};

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

export function toEndpointDto(row: TEndpointRow, now = new Date()): TWebhookEndpointDto {
  const previousExpiry = row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at);
  return {
    id: row.id,
    url: row.url,
    event_types: [...row.event_types],
    enabled: row.disabled_at === null,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: previousExpiry && previousExpiry > now ? previousExpiry.toISOString() : null,
    created_at: iso(row.created_at),
  };
}

/** A stored error as the worker writes it: the class of failure, perhaps with retries used up. */
const FAILURE_CLASS =
  /^(timeout|refused|blocked address|TLS|DNS|connection|HTTP [1-5]xx|HTTP error|HTTP 410: the endpoint is gone and was disabled)( \(retries used up\))?$/;

/**
 * The error a tenant is shown: the class of failure only. Rows written before errors were classed held the detail
 * (host names, addresses: `vm resolves to a loopback address …`); they are shown by their class.
 */
export function publicDeliveryError(stored: string | null): string | null {
  if (stored === null || FAILURE_CLASS.test(stored)) return stored;
  const retriesUsedUp = stored.endsWith(' (retries used up)') ? ' (retries used up)' : '';
  const http = /^HTTP ([1-5])\d\d\b/.exec(stored);
  const failure = http
    ? `HTTP ${http[1]}xx`
    : /timed out/i.test(stored)
      ? 'timeout'
      : /ECONNREFUSED/.test(stored)
        ? 'refused'
        : /resolves to|private|loopback|link-local|must not|must use/i.test(stored)
          ? 'blocked address'
          : /DNS|ENOTFOUND|EAI_AGAIN/.test(stored)
            ? 'DNS'
            : /CERT|SSL|TLS|certificate/i.test(stored)
              ? 'TLS'
              : 'connection';
  return failure + retriesUsedUp;
}

export function toDeliveryDto(row: TDeliveryRow): TWebhookDeliveryDto {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    state: row.state as TWebhookDeliveryDto['state'],
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: publicDeliveryError(row.last_error),
    last_attempt_at: isoOrNull(row.last_attempt_at),
    next_attempt_at: row.state === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    delivered_at: isoOrNull(row.delivered_at),
    created_at: iso(row.created_at),
  };
}
