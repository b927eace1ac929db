import type { MikroORM } from '@mikro-orm/postgresql';
import { installJobQueues } from '../jobs/install.ts';

/**
 * Brings a database up to this code: applies pending migrations, then creates or migrates pg-boss's
 * schema and the product's queues. Returns the names of the migrations applied.
 */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  await installJobQueues(orm.config.get('clientUrl') ?? '');
  return applied.map((m) => m.name);
}

/** Refuses to serve when the database schema is behind this code (deploy units never migrate by themselves). */
export async function assertSchemaCurrent(orm: MikroORM): Promise<void> {
  // The migrator reads an unreachable database as one without migrations: ask it something first.
  try {
    await orm.em.fork().execute('select 1');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(
      `Cannot reach the database at DATABASE_URL${code ? ` (${code})` : ''}: ${(error as Error).message}`,
    );
  }
  const pending = await orm.migrator.getPending();
  if (pending.length > 0) {
    throw new Error(
      `The database schema is behind this code (${pending.length} pending migration(s): ${pending.map((m) => m.name).join(', ')}). Run \`pnpm careers migrate\` first.`,
    );
  }
}
