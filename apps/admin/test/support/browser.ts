import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the browser tests leave their screenshots. */
export const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));

export type TDashboardBrowser = {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors other than the expected 401/422 responses; a test ends by asserting it is empty. */
  consoleProblems: string[];
  close: () => Promise<void>;
};

/**
 * A real headless Chromium (Debian's package, installed by scripts/ensure-chromium.sh before vitest starts) with one
 * page, allowed the clipboard on the dashboard's origin.
 */
export async function openDashboardBrowser(adminUrl: string): Promise<TDashboardBrowser> {
  // No skipping: without the browser the test must fail, loudly.
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}; run apps/admin/scripts/ensure-chromium.sh`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: adminUrl });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const consoleProblems: string[] = [];
  page.on('console', (message) => {
    // The browser logs every 4xx: the 401 of the first "who am I" (how the app learns it must show sign-in) and
    // the 422 of a deliberately wrong form are expected; anything else (CSP, scripts) is a problem.
    const expected = /^Failed to load resource: the server responded with a status of (401|422) /;
    if (message.type() === 'error' && !expected.test(message.text())) consoleProblems.push(message.text());
  });
  page.on('pageerror', (error) => consoleProblems.push(error.message));
  return {
    browser,
    context,
    page,
    consoleProblems,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}
