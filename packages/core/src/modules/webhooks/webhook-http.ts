import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webhook never goes to: private, shared (CGNAT), link-local, unique-local, multicast, reserved. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // IPv4-mapped addresses (::ffff:a.b.c.d) are judged by the IPv4 rules above (BlockList maps them);
  // NAT64 prefixes could reach any IPv4 host behind the check: refuse them.
  ['::', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Why an address must not be called, or undefined when it may. Loopback only with `allowLoopback`. */
export function forbiddenAddressReason(address: string, allowLoopback: boolean): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return allowLoopback ? undefined : `loopback address ${address}`;
  if (FORBIDDEN.check(address, type)) return `private or reserved address ${address}`;
  return undefined;
}

/** Why a URL cannot be a webhook endpoint (scheme and literal host), or undefined. Resolved names are checked at delivery. */
export function endpointUrlProblem(value: string, allowInsecureLocal: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The url must be a valid URL.';
  }
  if (url.protocol !== 'https:' && !(allowInsecureLocal && url.protocol === 'http:'))
    return 'The url must use https://.';
  if (url.username || url.password) return 'The url must not contain credentials.';
  const host = hostOf(url);
  if (isIP(host) !== 0 && forbiddenAddressReason(host, allowInsecureLocal))
    return 'The url must not point to a private, loopback or link-local address.';
  if (!allowInsecureLocal && (host === 'localhost' || host.endsWith('.localhost')))
    return 'The url must not point to a private, loopback or link-local address.';
  return undefined;
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

export type TPostOptions = {
  /** Development and tests: http:// and loopback allowed. */
  allowInsecureLocal: boolean;
  timeoutMs: number;
  /** Bytes of the response body kept for the delivery log. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
  /** Name resolution (tests inject one to map names to chosen addresses); defaults to the system resolver. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
};

/**
 * What a tenant is told about a failed attempt: the class of failure only. The detail (addresses, host names, error
 * codes) goes to the worker's log, since an endpoint's host may resolve to something inside our network.
 */
export type TDeliveryFailure = 'timeout' | 'refused' | 'blocked address' | 'TLS' | 'DNS' | 'connection';

export type TPostResult =
  | { kind: 'response'; status: number; body: string; retryAfterSeconds?: number }
  /** Never sent (policy); `detail` is for the log only. */
  | { kind: 'refused'; failure: TDeliveryFailure; detail: string }
  /** Attempted and broke (timeout, refused connection, TLS, reset); `detail` is for the log only. */
  | { kind: 'failed'; failure: TDeliveryFailure; detail: string };

/** Node's TLS and certificate error codes. */
const TLS_ERROR =
  /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_OSSL_)/;

/** The class of a socket or request error. */
export function failureOfError(error: NodeJS.ErrnoException): TDeliveryFailure {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (TLS_ERROR.test(code) || /certificate|ssl|tls/i.test(error.message)) return 'TLS';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'DNS';
  return 'connection';
}

// Sockets are only ever opened to vetted addresses, so keeping them alive between deliveries is safe.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * POSTs a webhook body. The host name is resolved once, every address is checked, and the connection goes to
 * those addresses only (a custom `lookup`), so a DNS answer that changes between check and connect (rebinding)
 * cannot reach an internal host. Redirects are not followed; the response body is read up to a bound.
 * `refused` means the request was never sent (policy), `failed` that it was attempted and broke (timeout, reset); each
 * names the class of failure a tenant may see, and a detail for the log.
 */
export async function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: TPostOptions,
): Promise<TPostResult> {
  const problem = endpointUrlProblem(target, options.allowInsecureLocal);
  if (problem) return { kind: 'refused', failure: 'blocked address', detail: problem };
  const url = new URL(target);
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.resolve ?? ((name: string) => lookup(name, { all: true, verbatim: true })))(host);
    } catch (error) {
      return {
        kind: 'failed',
        failure: 'DNS',
        detail: `DNS lookup of ${host} failed: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      };
    }
  }
  if (addresses.length === 0)
    return { kind: 'failed', failure: 'DNS', detail: `DNS lookup of ${host} returned no address` };
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address, options.allowInsecureLocal);
    if (reason) return { kind: 'refused', failure: 'blocked address', detail: `${host} resolves to a ${reason}` };
  }
  const vetted: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };

  const maxBytes = options.maxResponseBytes ?? 4096;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<TPostResult>((resolve) => {
    let settled = false;
    const finish = (result: TPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: vetted,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'careers-webhooks/1',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            kind: 'response',
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'),
            ...retryAfter(response.headers['retry-after']),
          });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the log: stop reading (the socket is dropped, not reused).
          if (size >= maxBytes) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const fail = (failure: TDeliveryFailure, detail: string) => {
      finish({ kind: 'failed', failure, detail });
      request.destroy();
    };
    const timer = setTimeout(() => fail('timeout', `timed out after ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => fail('connection', 'aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        kind: 'failed',
        failure: failureOfError(error),
        detail: error.code ? `${error.code}: ${error.message}` : error.message,
      }),
    );
    request.end(body);
  });
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), when present and sensible. */
function retryAfter(value: string | undefined): { retryAfterSeconds?: number } {
  if (value === undefined) return {};
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return { retryAfterSeconds: Number(trimmed) };
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? {} : { retryAfterSeconds: Math.max(0, Math.ceil((at - Date.now()) / 1000)) };
}
