/**
 * `pnpm start`: everything for a first look. With DATABASE_URL unset it runs an embedded PostgreSQL
 * with its data under .data/ (kept between runs), applies migrations, loads the demo tenants into an
 * empty database, then runs the API, the worker, the admin and the example career site (with the demo publishable
 * key, allowed for the site's address) as child processes, all listening on 127.0.0.1 unless HOST is set. Ctrl-C (or SIGTERM)
 * stops them gracefully, then PostgreSQL. Every child runs in a process group of its own, so the terminal's Ctrl-C reaches
 * only this starter, which decides the order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  buildDemoDocument,
  coreEnv,
  DEMO_ADMIN,
  DEMO_API_KEY,
  DEMO_PUBLISHABLE_KEY,
  ensureDemoSiteKey,
  importTenantDocument,
  kyselyOf,
  migrateUp,
  openOrm,
} from '@careers/core/operations';
import { starterEnv } from './env.ts';
import { startHosts } from './start-hosts.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const env = coreEnv();
const starter = starterEnv();
const { PORT: apiPort, ADMIN_PORT: adminPort, CAREER_SITE_PORT: careerSitePort } = starter;
// Every server listens on this machine only unless HOST says otherwise.
const { childEnv: hostEnv, urlHost } = startHosts(starter);
// The example career site calls the API from the browser with a publishable key allowed for exactly this origin.
const careerSiteUrl = `http://${urlHost}:${careerSitePort}`;

/** The embedded PostgreSQL's process (embedded-database.ts), stopped last. */
let database: ChildProcess | undefined;
let databaseUrl = env.DATABASE_URL;
if (!databaseUrl) {
  const dataDir = starter.EMBEDDED_PG_DATA_DIR ?? join(root, '.data', 'postgres');
  console.log(
    `Starting the embedded PostgreSQL (data in ${dataDir.startsWith(root) ? relative(root, dataDir) : dataDir}, port ${env.EMBEDDED_PG_PORT})…`,
  );
  database = spawn(
    process.execPath,
    [fileURLToPath(new URL('embedded-database.ts', import.meta.url)), dataDir, String(env.EMBEDDED_PG_PORT)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    },
  );
  const started = database;
  databaseUrl = await new Promise<string>((resolve, reject) => {
    started.once('message', (message) => resolve((message as { url: string }).url));
    started.once('exit', (code) => reject(new Error(`the embedded PostgreSQL did not start (exit code ${code})`)));
  });
}

const orm = await openOrm(databaseUrl);
const applied = await migrateUp(orm);
if (applied.length > 0) console.log(`Applied ${applied.length} migration(s).`);
const tenants = await kyselyOf(orm.em.fork())
  .selectFrom('tenants')
  .select((eb) => eb.fn.countAll<string>().as('n'))
  .executeTakeFirstOrThrow();
let seeded = false;
if (Number(tenants.n) === 0) {
  console.log('Empty database: loading the demo tenants…');
  await importTenantDocument({ em: orm.em }, buildDemoDocument());
  seeded = true;
}
const careerSiteKey = await ensureDemoSiteKey(orm, careerSiteUrl);
await orm.close();

const children = new Map<string, ChildProcess>();
let stopping = false;

/** Runs a unit the way its package starts it (the package's script, Node flags included), in that package's folder. */
function run(name: string, packageDir: string, script: string, extraEnv: Record<string, string>): void {
  const dir = join(root, packageDir);
  const manifest = join(dir, 'package.json');
  const command: unknown = existsSync(manifest)
    ? JSON.parse(readFileSync(manifest, 'utf8')).scripts?.[script]
    : undefined;
  if (typeof command !== 'string') {
    console.log(`(${name} not available: ${packageDir} has no ${script} script)`);
    return;
  }
  // The scripts `exec` node, so the child is the unit itself and gets the signals sent to it.
  const child = spawn('sh', ['-c', command], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, ...hostEnv, ...extraEnv },
    // Its own process group: the terminal's Ctrl-C is the starter's to pass on, in order.
    detached: true,
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`${name} exited unexpectedly (${signal ?? code}); stopping everything.`);
      void stop(1);
    }
  });
}

async function stop(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  const exits = [...children.values()].map(
    (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
      ),
  );
  for (const child of children.values()) child.kill('SIGTERM');
  const timeout = sleep(35_000).then(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  });
  await Promise.race([Promise.all(exits), timeout]);
  // Only now, with no unit left to lose its connections: PostgreSQL.
  const embedded = database;
  if (embedded && embedded.exitCode === null && embedded.signalCode === null) {
    await new Promise<void>((resolve) => {
      embedded.once('exit', () => resolve());
      embedded.send('stop');
    });
  }
  console.log('Stopped.');
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
// The children are in groups of their own: if the starter itself ends abruptly, they are told to stop (the database
// stops when its IPC channel closes).
process.on('exit', () => {
  for (const child of children.values()) child.kill('SIGTERM');
});

run('api', 'apps/api', 'start', { PORT: String(apiPort) });
run('worker', 'apps/worker', 'start', {});
run('admin', 'apps/admin', 'start', { ADMIN_PORT: String(adminPort) });

const apiBase = `http://${urlHost}:${apiPort}/v1`;
if (careerSiteKey) {
  run('career-site', 'examples/career-site', 'serve', {
    CAREER_SITE_PORT: String(careerSitePort),
    CAREERS_API_URL: apiBase,
    CAREERS_KEY: DEMO_PUBLISHABLE_KEY,
  });
}
for (let attempt = 0; attempt < 100 && !stopping; attempt++) {
  try {
    if ((await fetch(`${apiBase}/livez`)).ok) break;
  } catch {
    // not listening yet
  }
  await sleep(100);
}
if (!stopping) {
  console.log(
    [
      '',
      '  Careers API is running.',
      `  API base URL:   ${apiBase}   (docs: ${apiBase}/docs)`,
      seeded || !env.DATABASE_URL ? `  Demo API key:   ${DEMO_API_KEY}   (every scope, tenant "acme")` : '',
      `  Admin:          http://${urlHost}:${adminPort}   sign in as ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`,
      careerSiteKey
        ? `  Career site:    ${careerSiteUrl}   (example site in the browser, publishable key ${DEMO_PUBLISHABLE_KEY})`
        : '',
      `  Try:            curl -H "Authorization: Bearer ${DEMO_API_KEY}" ${apiBase}/vacancies`,
      '  Ctrl-C stops everything.',
      '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
}
