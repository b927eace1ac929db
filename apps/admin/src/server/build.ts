import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist', import.meta.url));
const VITE_CONFIG = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

/** Builds the browser app into `outDir` (the production bundle when left out). */
export async function buildDashboard(outDir: string = DEFAULT_DIST_DIR): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: VITE_CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** Builds the app once when dist/ has none (a fresh clone); an existing build is served as it is. */
export async function ensureDashboardBuilt(distDir: string = DEFAULT_DIST_DIR): Promise<boolean> {
  if (existsSync(join(distDir, 'index.html'))) return false;
  await buildDashboard(distDir);
  return true;
}
