import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '@careers/core';
import { startServerProcess, trackedProcess, type TReferenceProcess } from './harness.ts';

/**
 * The hand-tuned reference server of `../shared/reference-server` (node:http + pg, its own schema and loader), which
 * every budget of `pnpm bench` counts against. It is not part of the product: it runs from a copy in a temporary
 * folder whose `node_modules` is the bench package's (it needs only pg and pg-copy-streams, both pinned there), on
 * a database of its own on the benchmark's PostgreSQL, loaded from the same tenant document as the API.
 */
const BENCH_NODE_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url));

/** Where the shared reference lives: SHARED_REFERENCE_DIR, or `../shared/reference-server` beside the repository. */
export function sharedReferenceDir(): string {
  const folder =
    process.env.SHARED_REFERENCE_DIR ?? fileURLToPath(new URL('../../../shared/reference-server', import.meta.url));
  if (!existsSync(join(folder, 'server.mjs')) || !existsSync(join(folder, 'load.mjs'))) {
    throw new Error(
      `The shared reference server is not at ${resolve(folder)} (set SHARED_REFERENCE_DIR): every budget of pnpm bench counts against it.`,
    );
  }
  return folder;
}

/** The shared reference's files in a folder of their own, next to a link to the bench's node_modules. */
function copyOfSharedReference(): { folder: string; remove: () => void } {
  const source = sharedReferenceDir();
  const folder = mkdtempSync(join(tmpdir(), 'careers-shared-reference-'));
  for (const file of readdirSync(source))
    if (/\.(mjs|sql)$/.test(file)) copyFileSync(join(source, file), join(folder, file));
  symlinkSync(BENCH_NODE_MODULES, join(folder, 'node_modules'), 'dir');
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A new database `name` on the server of `databaseUrl` (dropped first if it exists); its URL. */
export async function freshDatabase(databaseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs the shared reference's loader on a tenant document; resolves with its wall time in ms (Node start-up, reading and parsing the file included). */
export async function loadSharedReference(
  databaseUrl: string,
  documentFile: string,
  options: { indexesFirst?: boolean } = {},
): Promise<number> {
  const copy = copyOfSharedReference();
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [join(copy.folder, 'load.mjs'), documentFile], {
      env: { ...process.env, DATABASE_URL: databaseUrl, BASELINE_INDEXES_FIRST: options.indexesFirst ? '1' : '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4000);
    });
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    if (code !== 0) throw new Error(`the shared reference's load.mjs exited with ${code}: ${errors}`);
    return performance.now() - started;
  } finally {
    copy.remove();
  }
}

/** The scopes the shared reference knows (the seed's); its loader refuses a key with any other. */
const SEED_SCOPES = new Set([
  '*',
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
  'team:read',
  'locations:read',
  'articles:read',
]);

type TDocumentWithKeys = { tenants: Array<{ api_keys?: Array<{ scopes?: string[] }> }> };

/** The document as the shared reference loads it: every key keeps the scopes of the seed (the benchmarks use no other). */
export function seedScopesOnly(document: unknown): unknown {
  const copy = structuredClone(document) as TDocumentWithKeys;
  for (const tenant of copy.tenants)
    for (const key of tenant.api_keys ?? []) key.scopes = key.scopes?.filter((scope) => SEED_SCOPES.has(scope));
  return copy;
}

/**
 * The shared reference on its own database (`careers_shared_reference` beside the benchmark's), loaded with `document`,
 * serving as its own process with the API's pool size (PGPOOL 10 = DB_POOL_SIZE).
 */
export async function startSharedReference(
  databaseUrl: string,
  document: unknown,
  env: Record<string, string> = {},
): Promise<TReferenceProcess> {
  const referenceUrl = await freshDatabase(databaseUrl, 'careers_shared_reference');
  const folder = mkdtempSync(join(tmpdir(), 'careers-shared-reference-document-'));
  const documentFile = join(folder, 'tenant.json');
  writeFileSync(documentFile, JSON.stringify(seedScopesOnly(document)));
  try {
    await loadSharedReference(referenceUrl, documentFile);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const copy = copyOfSharedReference();
  const port = await freePort();
  try {
    const child = await startServerProcess(
      join(copy.folder, 'server.mjs'),
      process.env.BENCH_REF_NODE_FLAGS?.split(' ') ?? [],
      {
        DATABASE_URL: referenceUrl,
        PORT: String(port),
        PGPOOL: '10',
        ...env,
      },
    );
    return trackedProcess(child, `http://127.0.0.1:${port}/v1`, copy.remove);
  } catch (error) {
    copy.remove();
    throw error;
  }
}
