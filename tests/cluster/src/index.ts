/** `@careers/cluster`: the multi-process test cluster (primary, streaming replica, PgBouncer, API and worker units), for its tests and `pnpm bench scale`. */
export { startCluster, startUnits, TENANT_KEY, type TCluster } from './cluster.ts';
export { missingBinaries } from './binaries.ts';
