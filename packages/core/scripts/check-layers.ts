/**
 * The house has floors, and imports may only point down (or stay on their floor):
 *   ground   lib/, env.ts, entities (modules/*\/*.entity.ts and their registry modules/entities.ts), job definitions (jobs/)
 *   db       db/ (ORM config, Kysely, tenant scope, migrations) stands on the entities
 *   domain   modules/<x>/ services, repositories, DTOs, and procedures/<action>.schema.ts: an operation's meta and
 *            zod input/output, which its service reads (the meta's type is modules/operation-meta.ts)
 *   trpc     trpc/ procedure builders and context, services.ts (the container the context carries)
 *   api      modules/<x>/procedures/<action>.ts and <x>.router.ts (procedures are built with trpc/'s builders)
 *   root     trpc/router.ts composes every module router
 *   surface  the entry files of the exports map (index.ts, admin.ts, worker.ts, cli.ts), runtime/, demo/
 * `node scripts/check-layers.ts` fails on an import pointing up that is not in KNOWN_UPWARD; `--report` prints
 * the folder picture.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** Names of the exports map's entries (`./admin` → `admin`). */
const PUBLIC_ENTRIES = new Set(
  Object.keys((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string> }).exports)
    .filter((entry) => entry !== '.')
    .map((entry) => entry.slice(2)),
);

const FLOORS = ['ground', 'db', 'domain', 'trpc', 'api', 'root', 'surface'] as const;
type TFloor = (typeof FLOORS)[number];

/** Entities, their registry, and the value type a JSON column of the vacancy holds. */
const ENTITY_FILES = /^modules\/(entities\.ts|[^/]+\/[^/]+\.entity\.ts|vacancies\/vacancy-question\.ts)$/;

/**
 * Upward imports that exist today and are someone's work in progress, not a licence (none now). The list may only
 * shrink; a new upward import fails the check.
 */
const KNOWN_UPWARD = new Set<string>([
]);

/** The floor of a file under packages/core/src, from its path alone. */
function floorOf(path: string): TFloor {
  if (path === 'env.ts' || path.startsWith('lib/') || path.startsWith('jobs/') || ENTITY_FILES.test(path)) return 'ground';
  if (path.startsWith('db/')) return 'db';
  if (/^modules\/[^/]+\/procedures\/[^/]+\.schema\.ts$/.test(path)) return 'domain';
  if (/^modules\/[^/]+\/(procedures\/|[^/]+\.router\.ts$)/.test(path)) return 'api';
  if (path.startsWith('modules/')) return 'domain';
  if (path === 'trpc/router.ts') return 'root';
  if (path.startsWith('trpc/') || path === 'services.ts') return 'trpc';
  return 'surface';
}

/** The folder a file is shown under in the picture. */
function folderOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'modules') return ENTITY_FILES.test(path) ? 'modules/*.entity' : 'modules/*';
  return parts.length === 1 ? parts[0]! : `${parts[0]}/`;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => (match[1] ?? match[2])!);
}

type TUpward = { from: string; to: string; fromFloor: TFloor; toFloor: TFloor };

/** Every import inside packages/core/src, as (from, to) paths relative to src. */
function coreEdges(): Array<{ from: string; to: string }> {
  const edges: Array<{ from: string; to: string }> = [];
  for (const file of sourceFiles(SRC)) {
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), specifier));
      if (target.startsWith('..')) continue;
      edges.push({ from: relative(SRC, file), to: target });
    }
  }
  return edges;
}

function upwardImports(): TUpward[] {
  return coreEdges()
    .map(({ from, to }) => ({ from, to, fromFloor: floorOf(from), toFloor: floorOf(to) }))
    .filter(({ fromFloor, toFloor }) => FLOORS.indexOf(toFloor) > FLOORS.indexOf(fromFloor));
}

function report(): void {
  const counts = new Map<string, { all: number; up: number }>();
  for (const { from, to } of coreEdges()) {
    const key = `${folderOf(from)} -> ${folderOf(to)}`;
    const entry = counts.get(key) ?? { all: 0, up: 0 };
    entry.all += 1;
    if (FLOORS.indexOf(floorOf(to)) > FLOORS.indexOf(floorOf(from))) entry.up += 1;
    counts.set(key, entry);
  }
  // Outside the package: which paths of @careers/core each workspace package imports.
  for (const dir of ['apps', 'bench', 'examples', 'packages/client']) {
    const root = join(REPO, dir);
    try {
      statSync(root);
    } catch {
      continue;
    }
    for (const file of sourceFiles(root)) {
      const where = relative(REPO, file).split('/');
      const owner = where[0] === 'apps' || where[0] === 'examples' || where[0] === 'packages' ? `${where[0]}/${where[1]}` : where[0]!;
      const label = `${owner}${where.includes('test') ? ' (test)' : ''}`;
      for (const specifier of importsOf(file)) {
        const match = /^@careers\/core(?:\/(.*))?$/.exec(specifier);
        if (!match) continue;
        // The entries of the exports map (package.json), read rather than listed again.
        const deep = match[1] && !PUBLIC_ENTRIES.has(match[1]);
        const key = `${label} -> @careers/core${deep ? ' (deep path)' : match[1] ? `/${match[1]}` : ''}`;
        const entry = counts.get(key) ?? { all: 0, up: 0 };
        entry.all += 1;
        counts.set(key, entry);
      }
    }
  }
  const width = Math.max(...[...counts.keys()].map((key) => key.length));
  for (const [key, { all, up }] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${key.padEnd(width)}  ${String(all).padStart(4)}${up ? `  (${up} up)` : ''}`);
  }
}

if (process.argv.includes('--report')) {
  report();
  const upward = upwardImports();
  console.log(`\n${upward.length} upward import(s):`);
  for (const { from, to, fromFloor, toFloor } of upward) console.log(`  ${from} (${fromFloor}) -> ${to} (${toFloor})`);
} else {
  const upward = upwardImports().filter(({ from, to }) => !KNOWN_UPWARD.has(`${from} -> ${to}`));
  for (const { from, to, fromFloor, toFloor } of upward) console.error(`${from} (${fromFloor}) imports ${to} (${toFloor}): an import pointing up`);
  if (upward.length > 0) process.exit(1);
}
