import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHosts } from '../src/start-hosts.ts';

/** Whether a TCP connection to `host:port` is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const client = connect({ host, port });
    client.once('connect', () => {
      client.destroy();
      resolve(true);
    });
    client.once('error', () => resolve(false));
  });
}

describe('where `pnpm start` binds its servers', () => {
  it('is 127.0.0.1 for every server when HOST is unset, and the URLs it prints use it', () => {
    expect(startHosts({})).toEqual({
      childEnv: { HOST: '127.0.0.1', CAREER_SITE_HOST: '127.0.0.1', METRICS_HOST: '127.0.0.1' },
      urlHost: '127.0.0.1',
    });
    expect(startHosts({ HOST: '' }).childEnv.HOST).toBe('127.0.0.1');
  });

  it('is HOST for the API, admin and career site when set; metrics stay on METRICS_HOST (this machine unless set)', () => {
    expect(startHosts({ HOST: '0.0.0.0' })).toEqual({
      childEnv: { HOST: '0.0.0.0', CAREER_SITE_HOST: '0.0.0.0', METRICS_HOST: '127.0.0.1' },
      urlHost: '127.0.0.1',
    });
    expect(startHosts({ HOST: '192.0.2.10', METRICS_HOST: '10.0.0.5' })).toEqual({
      childEnv: { HOST: '192.0.2.10', CAREER_SITE_HOST: '192.0.2.10', METRICS_HOST: '10.0.0.5' },
      urlHost: '192.0.2.10',
    });
    expect(startHosts({ HOST: '::1' }).urlHost).toBe('[::1]');
    expect(startHosts({ HOST: '::' }).urlHost).toBe('127.0.0.1');
  });

  it('the default address takes connections from this machine only (another local address is refused)', async () => {
    const { HOST } = startHosts({}).childEnv;
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await connects('127.0.0.1', port)).toBe(true);
      // 127.0.0.2 is this machine too, but not the address listened on: what any other interface would see.
      expect(await connects('127.0.0.2', port)).toBe(false);
    } finally {
      server.close();
    }
  });
});
