import { Agent, request } from 'node:http';

/** The answer to one request; `status` 0 is a socket error, a refused connection or a timeout (`error` says which). */
export type TAnswer = {
  status: number;
  ms: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  error?: string;
};

export type TRequest = {
  method?: 'GET' | 'POST';
  /** The whole address (the API's base URL plus path and query). */
  url: string;
  key?: string;
  headers?: Record<string, string>;
  /** Sent as it is (one Buffer may be shared by many requests at once: nothing copies it). */
  body?: Buffer;
  timeoutMs: number;
  /** Aborts the request (the attack's deadline). */
  signal?: AbortSignal;
  agent?: Agent;
  /** The client address the connection leaves from (127.0.0.2, 127.0.0.3, …: one simulated client each). */
  localAddress?: string;
  /** Characters of the answer's body kept (default 4000: an answer to an attack is read, never stored whole). */
  keepChars?: number;
};

/**
 * One request with node:http: no retries, no body buffering on our side beyond the first characters of the
 * answer, and a hard timeout, so a stuck or dying API shows as status 0 instead of a hung run.
 */
export function send(options: TRequest): Promise<TAnswer> {
  const started = performance.now();
  const keep = options.keepChars ?? 4000;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<TAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: performance.now() - started });
    };
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    if (options.body) {
      headers['content-length'] = String(options.body.byteLength);
      headers['content-type'] ??= 'application/json';
    }
    const req = request(
      options.url,
      {
        method: options.method ?? 'GET',
        headers,
        agent: options.agent ?? false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < keep) body += chunk.slice(0, keep - body.length);
        });
        res.on('end', () => finish({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.on('error', (error) =>
          finish({ status: res.statusCode ?? 0, body, headers: res.headers, error: error.message }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: 0, body: '', headers: {}, error: `no answer within ${options.timeoutMs} ms` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) =>
      finish({ status: 0, body: '', headers: {}, error: (error as NodeJS.ErrnoException).code ?? error.message }),
    );
    req.end(options.body);
  });
}

/** Runs `task(i)` for i in 0…count-1 with at most `concurrency` at a time; stops starting new ones once `stop()` says so. */
export async function pool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count && !stop()) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** "422×8, 0×1" — status codes and how often each came (0 = no HTTP answer). */
export function describeStatuses(answers: readonly { status: number }[]): string {
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

export const is4xx = (status: number) => status >= 400 && status < 500;
