import { readFile, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { TImportCounts } from '@careers/core/operations';
import { CliError, operations, parseId, type TOutput, usageError, userPath, withOrm } from './support.ts';

/** `migrate`, `import FILE` and `demo-document`: the database and the tenant documents it is loaded from. */
export function databaseCommands(io: TOutput): Command[] {
  const migrate = new Command('migrate').action(async () => {
    const { migrateUp, installJobQueues } = await operations();
    await withOrm(async (orm) => {
      const applied = await migrateUp(orm);
      await installJobQueues(orm.config.get('clientUrl') ?? '');
      if (applied.length === 0) io.out('Database schema is up to date; no migrations to apply.');
      else io.out(`Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`);
    });
  });

  const importCommand = new Command('import').argument('[file]').action(async (file: string | undefined) => {
    if (!file) throw usageError('import needs a FILE');
    const path = userPath(file);
    const document = await readJsonFile(path);
    const { importTenantDocument } = await operations();
    await withOrm(async (orm) => {
      const summary = await importTenantDocument({ em: orm.em }, document);
      io.out(
        `Imported ${summary.tenants.length} tenant(s) from ${path} in ${(summary.duration_ms / 1000).toFixed(2)} s`,
      );
      for (const tenant of summary.tenants)
        io.out(`  ${tenant.slug} (id ${tenant.id}): ${formatCounts(tenant.counts) || 'no records'}`);
    });
  });

  const demoDocument = new Command('demo-document')
    .option('--large <n>')
    .option('--seed <s>')
    .option('--out <file>')
    .action(async (options: { large?: string; seed?: string; out?: string }) => {
      let document: unknown;
      if (options.large !== undefined) {
        const vacancies = parseId(options.large, '--large');
        const seed = options.seed === undefined ? 1 : parseId(options.seed, '--seed');
        const { buildLargeDocument } = await operations();
        document = buildLargeDocument({ vacancies, seed });
      } else {
        if (options.seed !== undefined) throw usageError('--seed only applies with --large');
        const { buildDemoDocument } = await operations();
        document = buildDemoDocument();
      }
      const json = options.large !== undefined ? JSON.stringify(document) : JSON.stringify(document, null, 2);
      if (options.out) {
        const path = userPath(options.out);
        await writeFile(path, `${json}\n`);
        io.err(`Wrote ${path}`);
      } else {
        io.out(json);
      }
    });

  return [migrate, importCommand, demoDocument];
}

function formatCounts(counts: TImportCounts): string {
  return (Object.entries(counts) as [string, number][])
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${n} ${key.replaceAll('_', ' ')}`)
    .join(', ');
}

/** The parsed file; its text is garbage once this returns (a large document's text is not held during the import). */
async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
