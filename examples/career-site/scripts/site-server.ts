import { fileURLToPath } from 'node:url';
import { build, preview, type Plugin } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export type TCareerSite = { url: string; close: () => Promise<void> };

/** Answers /config.json from the given values, so one build serves any API and key. */
function runtimeConfig(config: { apiUrl: string; key: string }): Plugin {
  const body = JSON.stringify(config);
  return {
    name: 'career-site-runtime-config',
    configurePreviewServer(server) {
      server.middlewares.use('/config.json', (_request, response) => {
        response.setHeader('content-type', 'application/json');
        response.setHeader('cache-control', 'no-store');
        response.end(body);
      });
    },
  };
}

/** Builds the site once (quietly). */
export async function buildCareerSite(): Promise<void> {
  await build({ root, configFile: `${root}vite.config.ts`, logLevel: 'warn' });
}

/** Serves the built site (dist/) with its runtime configuration. Port 0 picks a free one. */
export async function serveCareerSite(options: {
  port: number;
  host?: string;
  apiUrl: string;
  key: string;
}): Promise<TCareerSite> {
  const host = options.host ?? '127.0.0.1';
  const server = await preview({
    root,
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    plugins: [runtimeConfig({ apiUrl: options.apiUrl, key: options.key })],
    preview: { port: options.port, strictPort: true, host, open: false },
  });
  const address = server.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${host}:${port}`, close: () => server.close() };
}
