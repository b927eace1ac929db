/**
 * The embedded PostgreSQL of `pnpm start`, in a process of its own group (the starter spawns it detached): a Ctrl-C
 * at the terminal reaches the starter, which stops the API, the worker and the admin first and only then tells this
 * process to stop the database — PostgreSQL never ends the units' connections under them. Started with an IPC
 * channel: it answers `{ url }` once the database is up, stops it on `stop`, and also when the starter goes away.
 */
import { startEmbeddedPostgres } from '@careers/core/operations';

const [dataDir, port] = process.argv.slice(2);
if (!dataDir || !port || !process.send)
  throw new Error('usage: spawned by start-all.ts with an IPC channel: embedded-database.ts DATA_DIR PORT');

const database = await startEmbeddedPostgres({ dataDir, port: Number(port), database: 'careers' });
let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= database.stop().then(() => process.exit(0));
  return stopping;
};
process.on('message', (message) => {
  if (message === 'stop') void stop();
});
// The starter ended without asking (killed): the database goes with it.
process.on('disconnect', () => void stop());
// Signals sent to this group by hand stop the database cleanly too.
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
process.send({ url: database.url });
