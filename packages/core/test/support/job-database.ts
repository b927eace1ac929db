import pg from 'pg';
import { openOrm, type TOrm } from '../../src/db/orm.ts';
import { installJobQueues } from '../../src/jobs/install.ts';
import { JobSender } from '../../src/jobs/sender.ts';
import type { Logger } from '../../src/lib/logger.ts';
import { importTenantDocument } from '../../src/modules/tenants/import/tenant-import.service.ts';
import { createTestDatabase } from './database.ts';

export type TJobDatabase = { url: string; orm: TOrm; sender: JobSender; client: pg.Client; close: () => Promise<void> };

/**
 * A fresh database with pg-boss installed (as `careers migrate` does) and `document` imported, with a job sender
 * (its errors go to `log`) and a plain SQL client.
 */
export async function startJobDatabase(document: unknown, log: Logger): Promise<TJobDatabase> {
  const url = await createTestDatabase();
  await installJobQueues(url);
  const orm = await openOrm(url);
  await importTenantDocument({ em: orm.em }, document);
  const sender = new JobSender(url, (error) => log.error({ err: error }, 'sender error'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    url,
    orm,
    sender,
    client,
    close: async () => {
      await client.end();
      await sender.close();
      await orm.close();
    },
  };
}
