import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

/** The dashboard's browser bundle: src/web → dist/ (served by src/server as static files). */
export default defineConfig(({ command }) => ({
  // A build is always the production bundle, also when started from a test run (NODE_ENV=test).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  oxc: { jsx: { runtime: 'automatic', development: command !== 'build' } },
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // No inline scripts or styles: the server's Content-Security-Policy allows only same-origin files.
    assetsInlineLimit: 0,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Query marks modules "use client" for server components; meaningless in this bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    // `vite` (dev) next to a running admin server; the server checks Origin, so present its own.
    proxy: {
      '/trpc': { target: 'http://127.0.0.1:3001', changeOrigin: true, headers: { origin: 'http://127.0.0.1:3001' } },
    },
  },
}));
