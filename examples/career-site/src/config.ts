/** Where the site finds the API and its publishable key. */
export type TSiteConfig = { apiUrl: string; key: string };

/**
 * Build-time values (`VITE_CAREERS_API_URL`, `VITE_CAREERS_KEY`) win; without them the site reads
 * `config.json` next to index.html, so one build can be served for any API (that is what `pnpm start` does).
 */
export async function loadConfig(): Promise<TSiteConfig> {
  const apiUrl = import.meta.env.VITE_CAREERS_API_URL as string | undefined;
  const key = import.meta.env.VITE_CAREERS_KEY as string | undefined;
  if (apiUrl && key) return { apiUrl, key };
  const response = await fetch(new URL('config.json', document.baseURI));
  if (!response.ok)
    throw new Error('No configuration: set VITE_CAREERS_API_URL and VITE_CAREERS_KEY, or serve a config.json.');
  const config = (await response.json()) as Partial<TSiteConfig>;
  if (typeof config.apiUrl !== 'string' || typeof config.key !== 'string')
    throw new Error('config.json needs apiUrl and key.');
  return { apiUrl: config.apiUrl, key: config.key };
}
