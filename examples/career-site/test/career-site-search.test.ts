import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '@careers/core';
import { createTestDatabase, queryRows } from '@careers/core/testing';
import { importTenantDocument, createApiKey, serviceContext } from '@careers/core/operations';
import { careerTenant, careerVacancies, LOCATIONS } from '@careers/client/testing';
import { startTestApi, type TTestApi } from '../../../apps/api/test/support/api.ts';
import { buildCareerSite, serveCareerSite, type TCareerSite } from '../scripts/site-server.ts';

/**
 * The site's search in a real headless Chromium against a started API: suggestions while typing (GET
 * /vacancies/suggest), results with the matched words marked (include_highlights) and never a title turned into
 * markup, and "near you" from the browser's position. Screenshots go to SCREENSHOT_DIR (printed at the end).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SECRET = 'ck_test_career_site_search_0001';
const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'careers-site-screenshots');
const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };
const BERLIN = { latitude: 52.52, longitude: 13.405 };
/** A title that is markup if anything renders it as HTML. */
const HOSTILE = 'Engineer <img src=x onerror="window.__xss=1"> & <b>co</b>';

let api: TTestApi;
let databaseUrl: string;
let browser: Browser;
let context: BrowserContext;
let site: TCareerSite;
const pageErrors: string[] = [];

/** The career tenant with coordinates for its two locations and three vacancies the search is about. */
function searchTenant(): Record<string, unknown> {
  const now = Date.now();
  const extra = (id: number, title: string, summary: string, locationId: number) => ({
    ...careerVacancies(now)[1]!,
    id,
    slug: `job-${id}`,
    title,
    summary,
    location_id: locationId,
    published_at: new Date(now - 3_600_000).toISOString(),
  });
  return {
    ...careerTenant('acme', [{ id: 1, name: 'Server', key: SECRET, scopes: ['vacancies:read', 'applications:write'] }]),
    locations: LOCATIONS.map((l) => ({ ...l, ...(l.id === 1 ? UTRECHT : BERLIN) })),
    vacancies: [
      ...careerVacancies(now),
      extra(30, 'Backend Engineer', '<p>Our engineers build the search behind this site.</p>', 1),
      extra(31, 'Backend Developer', '<p>Go and PostgreSQL, in Berlin.</p>', 2),
      extra(32, HOSTILE, '<p>An engineer\'s <img src=x onerror="window.__xss=2"> summary.</p>', 2),
    ],
  };
}

/** What the API itself answers (with the server key), to compare the page against. */
async function apiGet(path: string): Promise<any> {
  const response = await fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${SECRET}` } });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}; run apps/admin/scripts/ensure-chromium.sh`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument({ em: api.services.orm.em }, { tenants: [searchTenant()] });
  const [tenant] = await queryRows(databaseUrl, `select id from tenants where slug = 'acme'`, []);
  const port = await freePort();
  const { plaintext: publishable } = await createApiKey(serviceContext(api.services.orm.em.fork(), tenant!.id), {
    name: 'Career website',
    kind: 'publishable',
    scopes: ['vacancies:read', 'applications:write'],
    origins: [`http://127.0.0.1:${port}`],
  });
  await buildCareerSite();
  site = await serveCareerSite({ port, apiUrl: api.baseUrl, key: publishable });
  browser = await chromium.launch({
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
  // The visitor is in Utrecht and lets the site know.
  context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    geolocation: UTRECHT,
    permissions: ['geolocation'],
  });
  context.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.close();
  await api?.close();
});

async function openPage(hash = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${site.url}/${hash}`);
  await page.locator('.total').waitFor();
  return page;
}

/** The search fields of the page's URL hash. */
const hashParams = (page: Page) =>
  page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] ?? '')));
const suggestionTexts = (page: Page) =>
  page.locator('#search-suggestions [role="option"] .suggestion-text').allTextContents();

describe('example career site: search', () => {
  it('suggests titles as the visitor types, the same the API suggests, and picks one with the keyboard', async () => {
    const page = await openPage();
    const box = page.getByRole('combobox', { name: 'Search vacancies' });
    await box.pressSequentially('e');
    // One letter suggests nothing.
    await page.waitForTimeout(400);
    expect(await page.locator('#search-suggestions').isHidden()).toBe(true);
    await box.pressSequentially('ng', { delay: 30 });
    const expected = (await apiGet('/vacancies/suggest?q=eng&limit=6')).data;
    expect(expected.map((s: { text: string }) => s.text)).toContain('Backend Engineer');
    await expect.poll(() => suggestionTexts(page)).toEqual(expected.map((s: { text: string }) => s.text));
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    // The hostile title is a suggestion like any other: text, not an image.
    expect(await page.locator('#search-suggestions img').count()).toBe(0);

    // Narrowing the words narrows the list; a stale answer for "eng" never replaces it.
    await box.pressSequentially(' back');
    await expect.poll(() => suggestionTexts(page)).toEqual(['Backend Engineer']);
    await box.press('ArrowDown');
    expect(await page.locator('#search-suggestions [aria-selected="true"] .suggestion-text').textContent()).toBe(
      'Backend Engineer',
    );
    await box.press('Enter');
    await expect.poll(() => hashParams(page)).toEqual({ q: 'Backend Engineer' });
    await expect.poll(() => page.locator('.total').textContent()).toBe('1 vacancy');
    expect(await page.locator('.vacancies li a mark').allTextContents()).toEqual(['Backend', 'Engineer']);
    expect(await page.locator('.vacancies li .summary mark').allTextContents()).toEqual(['engineers']);
    await page.close();
  });

  it('shows results in order of relevance with the matched words marked, and titles stay text', async () => {
    const page = await openPage();
    const box = page.getByRole('combobox', { name: 'Search vacancies' });
    await box.fill('engineer');
    await box.press('Enter');
    const expected = await apiGet('/vacancies?q=engineer&include_highlights=true&per_page=10');
    await expect.poll(() => page.locator('.total').textContent()).toBe(`${expected.meta.total} vacancies`);
    expect(await page.locator('.vacancies li > a').allTextContents()).toEqual(
      expected.data.map((v: { title: string }) => v.title),
    );
    // Every shown title has its matched word marked, exactly as the API's highlights say.
    for (const [i, vacancy] of expected.data.entries()) {
      const marks = [...vacancy.highlights.title.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m: RegExpMatchArray) => m[1]);
      expect(await page.locator('.vacancies li').nth(i).locator('a mark').allTextContents()).toEqual(marks);
    }
    // The hostile vacancy: its title and summary read as written, nothing of them became an element or ran.
    const hostile = page.locator('.vacancies li', { hasText: 'onerror' });
    expect(await hostile.locator('a').textContent()).toBe(HOSTILE);
    expect(await hostile.locator('a mark').allTextContents()).toEqual(['Engineer']);
    expect(await hostile.locator('.summary').textContent()).toBe("An engineer's summary.");
    expect(await page.locator('.vacancies img, .vacancies b').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    // Typing again over the results: the suggestions for the new words open above them.
    await box.press('End');
    await box.pressSequentially(' ba');
    await expect.poll(() => suggestionTexts(page)).toEqual(['Backend Engineer']);
    const shot = join(SCREENSHOTS, 'career-site-search.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`Screenshot of the search with suggestions and highlights: ${shot} (in ${SCREENSHOTS})`);

    // Escape closes the list without searching.
    await box.press('Escape');
    expect(await page.locator('#search-suggestions').isHidden()).toBe(true);
    expect(await hashParams(page)).toEqual({ q: 'engineer' });
    await page.close();
  });

  it('finds vacancies near the visitor, nearest first, with their distance; the radius can change or the filter go', async () => {
    const page = await openPage();
    const all = Number((await page.locator('.total').textContent())!.split(' ')[0]);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect.poll(() => hashParams(page)).toEqual({ near: '52.091,5.121' });
    const expected = await apiGet('/vacancies?near=52.091,5.121&sort=distance&per_page=10');
    const vacancies = searchTenant().vacancies as Array<Record<string, unknown>>;
    const inUtrecht = vacancies.filter((v) => v.status === 'published' && v.location_id === 1);
    expect(expected.meta.total).toBe(inUtrecht.length);
    await expect.poll(() => page.locator('.total').textContent()).toBe(`${expected.meta.total} vacancies`);
    expect(await page.locator('.vacancies li > a').allTextContents()).toEqual(
      expected.data.map((v: { title: string }) => v.title),
    );
    expect(await page.locator('.vacancies .distance').allTextContents()).toEqual(
      expected.data.map((v: { distance_km: number }) => `${v.distance_km} km away`),
    );
    expect(await page.locator('[data-facet="near"] [aria-current="true"]').textContent()).toBe('Within 25 km');

    // Search and near together: only the Utrecht engineer.
    const box = page.getByRole('combobox', { name: 'Search vacancies' });
    await box.fill('backend');
    await box.press('Enter');
    await expect.poll(() => page.locator('.total').textContent()).toBe('1 vacancy');
    expect(await page.locator('.vacancies li > a').allTextContents()).toEqual(['Backend Engineer']);

    // Berlin is some 460 km away: not within 100 km, and "Anywhere" brings the Berlin developer back.
    await page.getByRole('link', { name: 'Within 100 km' }).click();
    await expect.poll(() => hashParams(page)).toEqual({ q: 'backend', near: '52.091,5.121', radius_km: '100' });
    await expect
      .poll(() => page.locator('[data-facet="near"] [aria-current="true"]').textContent())
      .toBe('Within 100 km');
    expect(await page.locator('.vacancies li > a').allTextContents()).toEqual(['Backend Engineer']);
    await page.getByRole('link', { name: 'Anywhere' }).click();
    await expect.poll(() => page.locator('.total').textContent()).toBe('2 vacancies');
    expect(await page.locator('.vacancies .distance').count()).toBe(0);
    expect(all).toBeGreaterThan(expected.meta.total);
    await page.close();
  });

  it('had no script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
