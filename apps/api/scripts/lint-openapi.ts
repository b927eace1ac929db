/**
 * Lints the OpenAPI document with Spectral (`.spectral.yaml`: spectral:oas + OWASP): builds it from code (the same
 * function that serves /v1/openapi.json), writes it to a temporary file and fails on any error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi.ts';

const directory = mkdtempSync(join(tmpdir(), 'careers-openapi-'));
try {
  const file = join(directory, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const spectral = spawnSync('spectral', ['lint', file, '--fail-severity', 'error', ...process.argv.slice(2)], {
    stdio: 'inherit',
    shell: false,
  });
  process.exitCode = spectral.status ?? 1;
} finally {
  rmSync(directory, { recursive: true, force: true });
}
