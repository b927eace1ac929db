/**
 * The Node flags of the deployment units, in one place: whatever starts a unit (its package's `start` script, the
 * starter of `pnpm start`, the tests and benchmarks that spawn one) takes them from here. No imports, so the start
 * scripts can print them cheaply: `node node-flags.ts api` prints the API's flags.
 */

/**
 * Node flags of the API process, chosen with `pnpm bench reads`. An API of small, short-lived requests keeps little alive, but V8's defaults size its heap
 * for throughput: the young generation grows to 64 MB per semi-space and the old generation to several times
 * what is live before a full collection. Capping the semi-spaces at 16 MB and the growing factor at 1.3 keeps
 * the resident set of a loaded API near 230 MB instead of 330–440 MB, with equal or better latency.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=30'];

/**
 * Node flags of the worker: the API's sizing. A resume job allocates a lot for a moment (the file, pdf.js's structures) and keeps nothing; with V8's
 * default growing factor each burst left the old generation larger (`pnpm soak`: +12 % RSS over 10 minutes).
 */
export const WORKER_NODE_FLAGS = API_NODE_FLAGS;

const FLAGS_BY_UNIT = { api: API_NODE_FLAGS, worker: WORKER_NODE_FLAGS } as const;

if (import.meta.main) {
  const unit = process.argv[2];
  if (unit !== 'api' && unit !== 'worker') throw new Error(`usage: node node-flags.ts api|worker (got ${unit})`);
  console.log(FLAGS_BY_UNIT[unit].join(' '));
}
