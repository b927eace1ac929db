/** Builds the example career site and serves it with the API URL and publishable key from the environment. */
import { serveEnv } from './env.ts';
import { buildCareerSite, serveCareerSite } from './site-server.ts';

const env = serveEnv();
await buildCareerSite();
const site = await serveCareerSite({
  port: env.CAREER_SITE_PORT,
  host: env.CAREER_SITE_HOST,
  apiUrl: env.CAREERS_API_URL,
  key: env.CAREERS_KEY,
});
console.log(`Career site: ${site.url}`);
const stop = () => void site.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
