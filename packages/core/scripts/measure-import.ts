/**
 * Measures `careers import` of a generated benchmark tenant against a plain COPY of the same rows (run by hand,
 * not part of the tests):
 *
 *   pnpm --filter @careers/core exec node scripts/measure-import.ts [VACANCIES=100000]
 *
 * Uses DATABASE_URL's server when set (its user must be allowed to create databases), else a throw-away embedded
 * PostgreSQL. Two fresh databases are migrated: the document is imported into the first (by a child process that
 * reads the file and parses it as `careers import` does, so its peak RSS is the import's own), then imported again;
 * the rows the import wrote are then copied out of the first database and loaded into the second with one plain
 * `COPY … FROM STDIN` per table in one transaction — the reference the import is held to.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { openOrm } from '../src/db/orm.ts';
import { IMPORTED_TABLES, importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { buildLargeDocument } from '../src/demo/large-tenant.ts';

type TChildReport = {
  readMs: number;
  parseMs: number;
  importMs: number;
  cpuMs: number;
  phases: [string, number][];
  maxRssMb: number;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Child mode: reads and parses FILE and imports it into DATABASE_URL, as `careers import` does; prints a TChildReport. */
async function importInChild(file: string, url: string): Promise<void> {
  let t = performance.now();
  let text: string | undefined = readFileSync(file, 'utf8');
  const readMs = performance.now() - t;
  t = performance.now();
  const document: unknown = JSON.parse(text);
  text = undefined;
  const parseMs = performance.now() - t;
  const orm = await openOrm(url);
  try {
    const phases: [string, number][] = [];
    t = performance.now();
    await importTenantDocument({ em: orm.em }, document, { onPhase: (phase, ms) => phases.push([phase, ms]) });
    const { user, system } = process.cpuUsage();
    const report: TChildReport = {
      readMs,
      parseMs,
      importMs: performance.now() - t,
      cpuMs: (user + system) / 1000,
      phases,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    };
    console.log(JSON.stringify(report));
  } finally {
    await orm.close();
  }
}

/**
 * CPU time used so far by a PostgreSQL cluster: its postmaster, its live processes and those that have ended
 * (their time is added to the postmaster's children time when it reaps them). On a shared machine this is a
 * steadier measure of the work than wall-clock time; Linux only.
 */
function clusterCpuMs(postmasterPid: number): number {
  const fields = (pid: string): string[] => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  };
  // After the command: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime (clock ticks).
  const own = fields(String(postmasterPid));
  let ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(own[i]), 0);
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const f = fields(pid);
      if (Number(f[1]) === postmasterPid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // The process ended in between.
    }
  }
  return ticks * 10;
}

function runChild(file: string, url: string): TChildReport {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`import child failed (${child.status}): ${child.stderr}`);
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as TChildReport;
}

function describeImport(label: string, report: TChildReport): void {
  const phases = report.phases.filter(([, ms]) => ms >= 100).map(([phase, ms]) => `${phase} ${seconds(ms)}`);
  console.log(
    `${label}: read ${seconds(report.readMs)}, JSON.parse ${seconds(report.parseMs)}, import ${seconds(report.importMs)}; peak RSS ${report.maxRssMb.toFixed(0)} MB`,
  );
  console.log(`  phases ≥ 0.1 s: ${phases.join('; ')}`);
}

/** Every row of the imported tables, in COPY's text format, read from `source`. */
async function copyOut(source: pg.Client): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const table of IMPORTED_TABLES) {
    const chunks: Buffer[] = [];
    await pipeline(
      source.query(copyTo(`copy "${table}" to stdout`)),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    out.set(table, Buffer.concat(chunks));
  }
  return out;
}

/** Loads the rows with one plain COPY per table in one transaction (triggers, indexes and constraints as they are). */
async function copyIn(
  target: pg.Client,
  rows: Map<string, Buffer>,
): Promise<{ ms: number; phases: [string, number][] }> {
  const started = performance.now();
  const phases: [string, number][] = [];
  await target.query('begin');
  for (const table of IMPORTED_TABLES) {
    const t = performance.now();
    await pipeline(
      Readable.from([rows.get(table) ?? Buffer.alloc(0)]),
      target.query(copyFrom(`copy "${table}" from stdin`)),
    );
    phases.push([table, performance.now() - t]);
  }
  const t = performance.now();
  await target.query('commit');
  phases.push(['commit', performance.now() - t]);
  return { ms: performance.now() - started, phases };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  if (!Number.isInteger(count) || count < 1) {
    console.error('usage: measure-import.ts [VACANCIES]');
    process.exit(2);
  }
  let stop = async () => {};
  let serverUrl = process.env.DATABASE_URL;
  let postmasterPid: number | undefined;
  if (!serverUrl) {
    const server = await startEmbeddedPostgres({
      dataDir: mkdtempSync(join(tmpdir(), 'careers-measure-')),
      port: 0,
      database: 'postgres',
      ephemeral: true,
    });
    serverUrl = server.url;
    stop = server.stop;
    postmasterPid = Number(readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }
  /** CPU ms of the database cluster so far (0 when it is not ours to read). */
  const databaseCpuMs = () => (postmasterPid ? clusterCpuMs(postmasterPid) : 0);
  const workDir = mkdtempSync(join(tmpdir(), 'careers-measure-doc-'));
  const urlOf = (database: string) => Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const suffix = `${process.pid}`;
  const [importDb, copyDb] = [`measure_import_${suffix}`, `measure_copy_${suffix}`];
  try {
    for (const database of [importDb, copyDb]) {
      await admin.query(`create database ${database}`);
      const orm = await openOrm(urlOf(database));
      await orm.migrator.up();
      await orm.close();
    }
    const t = performance.now();
    const file = join(workDir, 'document.json');
    writeFileSync(file, JSON.stringify(buildLargeDocument({ vacancies: count, seed: 42 })));
    console.log(
      `built a document with ${count} vacancies (${(readFileSync(file).length / 1024 / 1024).toFixed(1)} MiB) in ${seconds(performance.now() - t)}`,
    );

    let cpu = databaseCpuMs();
    const first = runChild(file, urlOf(importDb));
    const firstDatabaseCpuMs = databaseCpuMs() - cpu;
    const firstCpuMs = first.cpuMs + firstDatabaseCpuMs;
    describeImport('first import', first);
    const again = runChild(file, urlOf(importDb));
    describeImport('re-import of the same document', again);

    const source = new pg.Client({ connectionString: urlOf(importDb) });
    const target = new pg.Client({ connectionString: urlOf(copyDb) });
    await Promise.all([source.connect(), target.connect()]);
    try {
      const rows = await copyOut(source);
      cpu = databaseCpuMs();
      const nodeCpu = process.cpuUsage();
      const { ms: copyMs, phases } = await copyIn(target, rows);
      const { user, system } = process.cpuUsage(nodeCpu);
      const copyCpuMs = (user + system) / 1000 + databaseCpuMs() - cpu;
      const megabytes = [...rows.values()].reduce((n, b) => n + b.length, 0) / 1024 / 1024;
      console.log(
        `plain COPY of the same rows (${megabytes.toFixed(1)} MiB of COPY text) into the same tables: ${seconds(copyMs)}`,
      );
      console.log(
        `  tables ≥ 0.1 s: ${phases
          .filter(([, ms]) => ms >= 100)
          .map(([table, ms]) => `${table} ${seconds(ms)}`)
          .join('; ')}`,
      );
      console.log(
        `import / plain COPY: ${(first.importMs / copyMs).toFixed(2)}×; with reading and parsing the file: ${((first.readMs + first.parseMs + first.importMs) / copyMs).toFixed(2)}×`,
      );
      if (postmasterPid) {
        const cpuRatio = firstCpuMs / copyCpuMs;
        console.log(
          `CPU time: import process ${seconds(first.cpuMs)} (start-up, reading and parsing included) + database ${seconds(firstDatabaseCpuMs)}; plain COPY ${seconds(copyCpuMs)} (database and this process): ${cpuRatio.toFixed(2)}×`,
        );
      }
    } finally {
      await Promise.all([source.end(), target.end()]);
    }
  } finally {
    for (const database of [importDb, copyDb]) await admin.query(`drop database if exists ${database}`);
    await admin.end();
    rmSync(workDir, { recursive: true, force: true });
    await stop();
  }
}

if (process.argv[2] === '--child') {
  const [file, url] = [process.argv[3], process.env.DATABASE_URL];
  if (!file || !url) throw new Error('--child needs FILE and DATABASE_URL');
  await importInChild(file, url);
} else {
  await main();
}
