import express, { type Router } from 'express';
import { join } from 'node:path';

/**
 * The built dashboard (vite build → dist/): hashed assets cached for good, and index.html for every other
 * GET so that deep links (/keys) load the app.
 */
export function serveDashboard(distDir: string): Router {
  const files = express.Router();
  files.use(
    '/assets',
    express.static(join(distDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
  );
  files.use(express.static(distDir, { index: false }));
  files.get('/{*path}', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(join(distDir, 'index.html'));
  });
  return files;
}
