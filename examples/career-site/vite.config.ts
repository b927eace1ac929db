import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

/** A static site: index.html + one script and one stylesheet in dist/. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
});
