import { randomUUID } from 'node:crypto';

/** What a client may send as `X-Request-Id` and see echoed (anything else could forge or break log lines). */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the client's `X-Request-Id` when it is 1–128 of `A-Z a-z 0-9 . _ : -`, else a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** express's `trust proxy` setting from TRUST_PROXY: a number of hops, or the addresses/subnets express reads. */
export function trustProxySetting(trustProxy: string): number | string {
  return /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy;
}
