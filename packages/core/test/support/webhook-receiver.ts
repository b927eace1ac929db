import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TReceivedWebhook = { headers: Record<string, string>; body: string; at: number };
export type TReceiverReply = (
  request: TReceivedWebhook,
  index: number,
) => undefined | { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A real HTTP receiver for webhook tests: records every POST and answers as `reply` says (200 by default;
 * 'hang' never answers). Listens on 127.0.0.1 (deliveries to it need WEBHOOK_ALLOW_INSECURE_LOCAL).
 */
export async function startWebhookReceiver(reply: TReceiverReply = () => undefined) {
  const received: TReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let current = reply;
  let waiters: (() => void)[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      const entry = { headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(entry);
      const answer = current(entry, received.length - 1);
      for (const waiter of waiters) waiter();
      waiters = [];
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer?.status ?? 200, answer?.headers ?? {});
      response.end(answer?.body ?? 'ok');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    setReply: (next: TReceiverReply) => {
      current = next;
    },
    /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
    waitFor: async (count: number, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type TWebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
