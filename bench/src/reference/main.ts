import { createReferenceServer } from './server.ts';

/**
 * The reference server as its own process (so its CPU and memory are its own, like the API's):
 * DATABASE_URL, PORT, HOST (default 127.0.0.1), PUBLIC_URL (optional, for pagination links).
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
const reference = createReferenceServer(databaseUrl, { publicUrl: process.env.PUBLIC_URL });
reference.server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
const stop = () => {
  reference.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
