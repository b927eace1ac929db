import { request } from 'node:http';

export type TRequestSpec = {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  key: string;
  /** Request headers besides authorization and content-type (an Idempotency-Key …). */
  headers?: Record<string, string>;
  /** Sees every answer that is not a failure (e.g. to note which writes were acknowledged). */
  onAnswer?: (response: { status: number; body: string }) => void;
  /** Called once the request is over: answered (onAnswer saw it) or failed (a 5xx, or no answer). */
  onSettled?: (answered: boolean) => void;
};

/** What a load run saw: every request counted, and every failure (5xx or no answer) with its cause. */
export type TLoadReport = {
  requests: number;
  statuses: Record<string, number>;
  failures: string[];
  /** Requests per second over the run. */
  rate: number;
  /** The slowest answer (a fallback that takes seconds shows here). */
  maxLatencyMs: number;
  /** When each failure happened (ms since the run started). */
  failureTimes: number[];
  startedAt: number;
};

/**
 * One HTTP request on a connection of its own (`agent: false`: no keep-alive), so a process that is stopped never
 * has an idle connection that a request could race into; every request is routed afresh by the proxy.
 */
export type TAnswer = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

export function send(baseUrl: string, spec: TRequestSpec): Promise<TAnswer> {
  const url = new URL(spec.path, baseUrl);
  const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: spec.method ?? 'GET',
        agent: false,
        headers: {
          authorization: `Bearer ${spec.key}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...spec.headers,
        },
        timeout: 15_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** `connections` loops sending `next()`'s requests until `stop` resolves. */
export async function runLoad(
  baseUrl: string,
  connections: number,
  next: () => TRequestSpec,
  stop: Promise<unknown>,
): Promise<TLoadReport> {
  const report: TLoadReport = {
    requests: 0,
    statuses: {},
    failures: [],
    rate: 0,
    maxLatencyMs: 0,
    failureTimes: [],
    startedAt: Date.now(),
  };
  let running = true;
  void stop.then(() => (running = false));
  const started = report.startedAt;
  const fail = (spec: TRequestSpec, why: string) => {
    report.failures.push(`${spec.method ?? 'GET'} ${spec.path}: ${why}`);
    report.failureTimes.push(Date.now() - started);
  };
  const loop = async () => {
    while (running) {
      const spec = next();
      const sent = Date.now();
      let answered = false;
      try {
        const response = await send(baseUrl, spec);
        report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
        const retryAfter = response.headers['retry-after'];
        if (response.status >= 500)
          fail(
            spec,
            `${response.status}${retryAfter === undefined ? '' : ` (Retry-After: ${retryAfter})`} ${response.body.slice(0, 200)}`,
          );
        else {
          answered = true;
          spec.onAnswer?.(response);
        }
      } catch (error) {
        fail(spec, (error as Error).message);
      }
      spec.onSettled?.(answered);
      report.maxLatencyMs = Math.max(report.maxLatencyMs, Date.now() - sent);
      report.requests++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  report.rate = Math.round((report.requests / ((Date.now() - started) / 1000)) * 10) / 10;
  return report;
}

/** What a client that retries saw of one logical request: its final answer, and each failed attempt (when, and why). */
export type TRetriedAnswer = { answer?: TAnswer; failures: Array<{ at: number; why: string }> };

/**
 * Sends `spec` until it is answered with anything but a 503 or a dropped connection (as a client with an
 * Idempotency-Key may), waiting `Retry-After` (at most 2 s) or 250 ms between attempts, for at most `forMs`.
 */
export async function sendRetrying(baseUrl: string, spec: TRequestSpec, forMs = 60_000): Promise<TRetriedAnswer> {
  const failures: TRetriedAnswer['failures'] = [];
  const deadline = Date.now() + forMs;
  while (Date.now() < deadline) {
    let waitMs = 250;
    try {
      const answer = await send(baseUrl, spec);
      if (answer.status !== 503) return { answer, failures };
      failures.push({ at: Date.now(), why: `503 ${answer.body.slice(0, 100)}` });
      waitMs = Math.min(2_000, 1_000 * Number(answer.headers['retry-after'] ?? 0.25));
    } catch (error) {
      failures.push({ at: Date.now(), why: (error as Error).message });
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return { failures };
}
