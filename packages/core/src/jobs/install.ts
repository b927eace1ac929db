import { createBoss } from './boss.ts';
import { ensureQueues } from './define-job.ts';
import { jobDefinitions } from './registry.ts';

/**
 * Creates (or migrates) pg-boss's schema and the product's queues: the job-queue part of `careers migrate`.
 * API and worker processes never do this themselves.
 */
export async function installJobQueues(databaseUrl: string): Promise<void> {
  const boss = createBoss(databaseUrl, { role: 'installer', max: 1 });
  await boss.start();
  try {
    await ensureQueues(boss, jobDefinitions);
  } finally {
    await boss.stop({ graceful: false });
  }
}
