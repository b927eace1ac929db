import { MikroORM, defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { fileURLToPath } from 'node:url';
import { entities } from './entities.ts';

export const migrationsPath = fileURLToPath(new URL('./migrations', import.meta.url));

export function ormConfig(databaseUrl: string, overrides: Partial<Options> = {}) {
  return defineConfig({
    clientUrl: databaseUrl,
    entities: [...entities],
    extensions: [Migrator],
    debug: false,
    allowGlobalContext: false,
    pool: { min: 0, max: 10 },
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      glob: '!(*.d).ts',
      tableName: 'mikro_orm_migrations',
      transactional: true,
      silent: true,
      allOrNothing: true,
      emit: 'ts',
      snapshot: true,
      snapshotName: '.snapshot-careers',
    },
    ...overrides,
  });
}

export type TOrm = MikroORM;

export async function openOrm(databaseUrl: string, overrides: Partial<Options> = {}): Promise<MikroORM> {
  return MikroORM.init(ormConfig(databaseUrl, overrides));
}
