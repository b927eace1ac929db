import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A tiny round-robin TCP proxy in front of the API processes, as a load balancer would be. Each client
 * connection goes to the next backend in rotation. A backend that refuses the connection (ECONNREFUSED: it has
 * stopped listening) has received no byte, so the proxy tries the next one — the only retry that is always safe;
 * any other failure reaches the client. `leave` takes a backend out of rotation before it is stopped (as a load
 * balancer deregisters a target), `join` puts it back; the retry still covers a backend that goes away unannounced.
 */
export type TProxy = {
  url: string;
  join: (port: number) => void;
  leave: (port: number) => void;
  /** Connections that were refused by a backend and went to another one. */
  refusedRetries: () => number;
  close: () => Promise<void>;
};

export async function startProxy(backends: number[]): Promise<TProxy> {
  const rotation = [...backends];
  let next = 0;
  let retries = 0;
  const sockets = new Set<Socket>();

  const connectBackend = async (attempt = 0): Promise<Socket> => {
    if (rotation.length === 0 || attempt > 20) throw new Error('no backend accepts connections');
    const port = rotation[next++ % rotation.length] as number;
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
      retries++;
      if (attempt >= rotation.length) await sleep(20);
      return connectBackend(attempt + 1);
    }
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    connectBackend().then(
      (backend) => {
        sockets.add(backend);
        backend.once('close', () => sockets.delete(backend));
        backend.removeAllListeners('error');
        backend.on('error', () => client.destroy());
        client.on('error', () => backend.destroy());
        client.pipe(backend);
        backend.pipe(client);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    join: (backend) => {
      if (!rotation.includes(backend)) rotation.push(backend);
    },
    leave: (backend) => {
      const index = rotation.indexOf(backend);
      if (index >= 0) rotation.splice(index, 1);
    },
    refusedRetries: () => retries,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
