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
 * `node scripts/check-layers.ts` fails on an import pointing up that is not in KNOWN_UPWARD, on an import circle
 * anywhere in src/, on a service importing a procedure's files, on a service operation whose first parameter is not
 * its context (`(ctx, input)`, modules/service-context.ts), and on a handle that reaches every tenant's rows used
 * inside modules/ (below); `--report` prints the folder picture and the counts.
 *
 * Tenant data has one door: the tenant-scoped Kysely (`tenantKysely`, `ctx.db`). Code inside modules/ that truly spans
 * tenants (an operator's command, a worker that serves every tenant, tables that belong to no tenant) names
 * `crossTenantDb` and is listed in OPERATOR_PATHS; every other unscoped handle (`kyselyOf`, `em.getKysely()`,
 * `em.execute`, `em.insert`, `getConnection()`, a Kysely of its own) is refused there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** Names of the exports map's entries (`./admin` → `admin`). */
const PUBLIC_ENTRIES = new Set(
  Object.keys(
    (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        exports: Record<string, string>;
      }
    ).exports,
  )
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
const KNOWN_UPWARD = new Set<string>([]);

/**
 * Files inside modules/ that serve every tenant and may use `crossTenantDb` (each says why in its own comments).
 */
const OPERATOR_PATHS = new Set<string>([
  // Which tenant owns a row the operator names by id (then everything runs with that tenant's scoped handle).
  'modules/tenants/owner-tenant.ts',
  // The webhook worker: the dispatcher and the sender serve every tenant at once.
  'modules/webhooks/webhook-delivery.repository.ts',
  'modules/webhooks/webhook-dispatcher.ts',
  // The events module's operator side: the dispatcher's read of every tenant's events, the worker's scheduled jobs.
  'modules/events/events.jobs.service.ts',
  // The retention sweep lists the tenants, then works through each with its scoped handle.
  'modules/privacy/retention.repository.ts',
  // Before the tenant is known: the accounts an email names, the session a cookie names, the sign-in throttle.
  'modules/admin/admin-sign-in.repository.ts',
  'modules/admin/sign-in-throttle.ts',
  // Before the tenant is known: the API key a request presents names its tenant.
  'modules/api-keys/api-key.verifier.ts',
  // The view counter flushes every tenant's counts in one statement per table.
  'modules/content/view-counter.ts',
  // The tenant import's bulk load: a connection of its own (COPY needs the driver's client), statements naming the tenant.
  'modules/tenants/import/import-transaction.ts',
  // Tables that belong to no tenant: rate-limit windows and idempotency records (per API key), the service's secrets.
  'modules/rate-limits/rate-limit.repository.ts',
  'modules/idempotency/idempotency.repository.ts',
  'modules/server-secrets/server-secrets.repository.ts',
  // After an import: the planner's statistics and the id sequences of the tables it wrote (no tenant's rows are read).
  'modules/tenants/import/import-statistics.ts',
]);

/** A `*.service.ts` of modules/. */
const SERVICE_FILE = /^modules\/(?:[^/]+\/)+[^/]+\.service\.ts$/;

/** Exported async functions of services (the operations) whose first parameter is not named `ctx`. */
function servicesWithoutContext(): Array<{ file: string; name: string; first: string }> {
  const found: Array<{ file: string; name: string; first: string }> = [];
  for (const path of sourceFiles(join(SRC, 'modules'))) {
    const file = relative(SRC, path);
    if (!SERVICE_FILE.test(file)) continue;
    for (const match of readFileSync(path, 'utf8').matchAll(
      /^export async function (\w+)\s*(?:<[^(]*>)?\(\s*(\w*)/gm,
    )) {
      const [, name, first] = match;
      if (first !== 'ctx') found.push({ file, name: name!, first: first! });
    }
  }
  return found;
}

/** A service importing a file of a procedures/ folder (its own module's or another's). */
function serviceToProcedureImports(): Array<{ from: string; to: string }> {
  return coreEdges().filter(
    ({ from, to }) => /^modules\/[^/]+\/[^/]+\.service\.ts$/.test(from) && /^modules\/[^/]+\/procedures\//.test(to),
  );
}

/** An import of the hot paths' machinery past its door (db/fast-path/index.ts) from outside db/ (the pool wires it in). */
function fastPathBypasses(): Array<{ from: string; to: string }> {
  return coreEdges().filter(
    ({ from, to }) => to.startsWith('db/fast-path/') && to !== 'db/fast-path/index.ts' && !from.startsWith('db/'),
  );
}

/** What reaches rows without the tenant scope (the names `--report` counts by). */
const UNSCOPED_HANDLES: ReadonlyArray<readonly [string, RegExp]> = [
  ['kyselyOf', /\bkyselyOf\b/],
  ['getKysely', /\.getKysely\b/],
  ['getConnection', /\.getConnection\(/],
  [
    'em.<query>',
    /\b(?:em|tx|orm\.em|this\.#orm\.em)\.(?:execute|insert|insertMany|find\w*|count|nativeUpdate|nativeDelete|upsert\w*|persist\w*)\b/,
  ],
  ['new Kysely', /\bnew Kysely\b/],
  ['crossTenantDb', /\bcrossTenantDb\b/],
];

/** The floor of a file under packages/core/src, from its path alone. */
function floorOf(path: string): TFloor {
  if (path === 'env.ts' || path.startsWith('lib/') || path.startsWith('jobs/') || ENTITY_FILES.test(path))
    return 'ground';
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

/** The source files under those folders of the repository that exist (a checkout may lack the examples). */
function* workspaceFiles(dirs: readonly string[]): Generator<string> {
  for (const dir of dirs) {
    const root = join(REPO, dir);
    try {
      statSync(root);
    } catch {
      continue;
    }
    yield* sourceFiles(root);
  }
}

/** Where the workspace's own TypeScript lives (generated files excepted): the naming rule holds in all of it. */
const WORKSPACE_SOURCES = [
  'packages/core/src',
  'packages/core/scripts',
  'packages/core/test',
  'packages/client/src',
  'apps',
  'bench',
  'examples',
  'tests',
];

/** One naming rule for types (STYLE.md): a declared type alias or interface is `T…`; zod values are `Z…`. */
function plainTypeNames(): Array<{ file: string; line: number; name: string }> {
  const found: Array<{ file: string; line: number; name: string }> = [];
  for (const file of workspaceFiles(WORKSPACE_SOURCES)) {
    if (file.includes('/generated/')) continue;
    const text = readFileSync(file, 'utf8');
    // An interface inside `declare module` augments a library's type and keeps the library's name.
    const augments = /declare\s+module\s/.test(text);
    text.split('\n').forEach((line, index) => {
      const match =
        /^\s*(?:export\s+)?(?:declare\s+)?(?:type\s+([A-Za-z_$][\w$]*)\s*(?:<.*>)?\s*=|interface\s+([A-Za-z_$][\w$]*))/.exec(
          line,
        );
      const name = match?.[1] ?? (augments ? undefined : match?.[2]);
      if (name && !/^T[A-Z0-9]/.test(name)) found.push({ file: relative(REPO, file), line: index + 1, name });
    });
  }
  return found;
}

function upwardImports(): TUpward[] {
  return coreEdges()
    .map(({ from, to }) => ({ from, to, fromFloor: floorOf(from), toFloor: floorOf(to) }))
    .filter(({ fromFloor, toFloor }) => FLOORS.indexOf(toFloor) > FLOORS.indexOf(fromFloor));
}

/** Every use of an unscoped handle inside modules/, one per (file, line, handle); comments are skipped. */
function unscopedHandles(): Array<{ file: string; line: number; handle: string }> {
  const found: Array<{ file: string; line: number; handle: string }> = [];
  for (const path of sourceFiles(join(SRC, 'modules'))) {
    const file = relative(SRC, path);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        const code = text.replace(/\/\/.*$/, '');
        if (/^\s*(?:\*|\/\*)/.test(code)) return;
        for (const [handle, pattern] of UNSCOPED_HANDLES)
          if (pattern.test(code)) found.push({ file, line: index + 1, handle });
      });
  }
  return found;
}

/** Uses of unscoped handles the house refuses: anything but `crossTenantDb` in an operator path. */
function refusedHandles(): Array<{ file: string; line: number; handle: string }> {
  return unscopedHandles().filter(({ file, handle }) => !(handle === 'crossTenantDb' && OPERATOR_PATHS.has(file)));
}

/** The file an import names (`./x.ts`, or `./x` meaning `./x.ts` or `./x/index.ts`), relative to src. */
function resolvedFile(target: string): string {
  if (/\.(ts|tsx)$/.test(target)) return target;
  for (const candidate of [`${target}.ts`, `${target}/index.ts`]) {
    try {
      if (statSync(join(SRC, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return target;
}

/** Import circles (type-only imports count: a circle of types is a circle of meaning), each as its files. */
function importCircles(): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of coreEdges()) {
    const targets = next.get(from) ?? new Set<string>();
    targets.add(resolvedFile(to));
    next.set(from, targets);
  }
  // Tarjan's strongly connected components: every component of more than one file (or a file importing itself).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.has(file)) circles.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return circles;
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
  for (const file of workspaceFiles(['apps', 'bench', 'examples', 'packages/client'])) {
    const where = relative(REPO, file).split('/');
    const owner =
      where[0] === 'apps' || where[0] === 'examples' || where[0] === 'packages' ? `${where[0]}/${where[1]}` : where[0]!;
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
  const circles = importCircles();
  console.log(`\n${circles.length} import circle(s):`);
  for (const circle of circles) console.log(`  ${circle.join(' <-> ')}`);
  const handles = unscopedHandles();
  const byHandle = new Map<string, number>();
  for (const { handle } of handles) byHandle.set(handle, (byHandle.get(handle) ?? 0) + 1);
  console.log(
    `\n${handles.length} use(s) of unscoped handles inside modules/, in ${new Set(handles.map(({ file }) => file)).size} file(s): ` +
      [...byHandle.entries()].map(([handle, count]) => `${handle} ${count}`).join(', '),
  );
  const backwards = serviceToProcedureImports();
  console.log(`\n${backwards.length} import(s) of a procedure's file by a service:`);
  for (const { from, to } of backwards) console.log(`  ${from} -> ${to}`);
  const bypasses = fastPathBypasses();
  console.log(`\n${bypasses.length} import(s) of db/fast-path/ past its index`);
  const signatures = servicesWithoutContext();
  console.log(`\n${signatures.length} service operation(s) not \`(ctx, input)\`:`);
  for (const { file, name, first } of signatures) console.log(`  ${file}: ${name}(${first}, …)`);
  console.log(`\n${plainTypeNames().length} type name(s) without the T prefix`);
  const refused = refusedHandles();
  console.log(`${refused.length} refused (not crossTenantDb in an operator path):`);
  for (const { file, line, handle } of refused) console.log(`  ${file}:${line} ${handle}`);
} else {
  const upward = upwardImports().filter(({ from, to }) => !KNOWN_UPWARD.has(`${from} -> ${to}`));
  for (const { from, to, fromFloor, toFloor } of upward)
    console.error(`${from} (${fromFloor}) imports ${to} (${toFloor}): an import pointing up`);
  const circles = importCircles();
  for (const circle of circles) console.error(`${circle.join(' <-> ')}: an import circle`);
  const refused = refusedHandles();
  for (const { file, line, handle } of refused) {
    console.error(
      `${file}:${line} uses ${handle}: tenant data goes through the scoped handle (ctx.db, tenantKysely); an operator path names crossTenantDb and is listed in OPERATOR_PATHS`,
    );
  }
  const backwards = serviceToProcedureImports();
  for (const { from, to } of backwards)
    console.error(
      `${from} imports ${to}: a service does not import a procedure's files (the shapes it builds live in the module)`,
    );
  const bypasses = fastPathBypasses();
  for (const { from, to } of bypasses)
    console.error(`${from} imports ${to}: the fast path's machinery is reached through db/fast-path/index.ts only`);
  const signatures = servicesWithoutContext();
  for (const { file, name, first } of signatures) {
    console.error(
      `${file}: ${name}(${first}, …): a service operation takes (ctx, input), its context first (modules/service-context.ts)`,
    );
  }
  const plainTypes = plainTypeNames();
  for (const { file, line, name } of plainTypes)
    console.error(`${file}:${line} declares the type ${name}: types are named T… (STYLE.md), zod values Z…`);
  if (
    upward.length +
      circles.length +
      refused.length +
      backwards.length +
      bypasses.length +
      signatures.length +
      plainTypes.length >
    0
  )
    process.exit(1);
}
