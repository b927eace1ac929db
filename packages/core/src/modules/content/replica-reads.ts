import type { ReadReplica } from '../../db/read-replica.ts';
import { readContentState } from './content.repository.ts';

const NO_LIVE_ROWS = { vacancies: [], articles: [] };

/**
 * Computes a content-cache miss at `version` — the tenant's content version just read on the primary — on the
 * read replica when the replica, in the same snapshot as the data the computation reads, shows that very
 * version; else on the primary. Exact by construction, with no state shared between processes:
 *
 * - the version check of every read stays on the primary (the one trivial, batched query), so any process sees
 *   a committed write — a client's own canonical-URL report or application included — with its very next
 *   request, wherever that request lands; live fields (view counts, canonical URLs) come with it from the primary;
 * - an answer computed on the replica is the content at `version` itself (the tenant row's xmin changes with
 *   every content change, and a physical replica replays commits in order), so it is cached under the version it
 *   truly shows. Routing by the write's LSN instead would need every process to learn each write's LSN.
 *
 * A lagging replica costs no staleness, only load: misses run on the primary until it catches up.
 */
export async function computeAtVersion<T>(
  replica: ReadReplica | undefined,
  tenantId: number,
  version: string,
  compute: () => Promise<T>,
): Promise<{ value: T; onReplica: boolean }> {
  if (!replica) return { value: await compute(), onReplica: false };
  return replica.run(
    tenantId,
    async (db) => (await readContentState(db, tenantId, NO_LIVE_ROWS)).version === version,
    compute,
  );
}
