import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '@careers/core';
import { createTestDatabase, queryRows } from '@careers/core/testing';
import { importTenantDocument, createApiKey, serviceContext } from '@careers/core/operations';
import { careerTenant, careerVacancies, resumePdf } from '@careers/client/testing';
import { startTestApi, type TTestApi } from '../../../apps/api/test/support/api.ts';
import { buildCareerSite, serveCareerSite, type TCareerSite } from '../scripts/site-server.ts';

/**
 * The example site in a real headless Chromium (Debian's package; `pnpm test` installs it first) against a started
 * API: served from the origin its publishable key allows, it lists, filters and applies; served from another
 * origin, or with a secret key, the browser gets nothing it may read.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SECRET = 'ck_test_career_site_secret_00001';

let api: TTestApi;
let databaseUrl: string;
let browser: Browser;
let context: BrowserContext;
const sites: TCareerSite[] = [];
let allowed: TCareerSite;
let foreign: TCareerSite;
let withSecret: TCareerSite;
let publishable: string;
const pageErrors: string[] = [];

const rows = (text: string, values: unknown[] = []) => queryRows(databaseUrl, text, values);

beforeAll(async () => {
  // No skipping: without the browser this test must fail, loudly.
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}; run apps/admin/scripts/ensure-chromium.sh`);
  databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument(
    { em: api.services.orm.em },
    {
      tenants: [
        careerTenant('acme', [
          { id: 1, name: 'Server', key: SECRET, scopes: ['vacancies:read', 'applications:write'] },
        ]),
      ],
    },
  );
  const [tenant] = await rows(`select id from tenants where slug = 'acme'`);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  ({ plaintext: publishable } = await createApiKey(serviceContext(api.services.orm.em.fork(), tenant!.id), {
    name: 'Career website',
    kind: 'publishable',
    scopes: ['vacancies:read', 'applications:write'],
    origins: [origin],
  }));
  await buildCareerSite();
  allowed = await serveCareerSite({ port, apiUrl: api.baseUrl, key: publishable });
  foreign = await serveCareerSite({ port: 0, apiUrl: api.baseUrl, key: publishable });
  withSecret = await serveCareerSite({ port: 0, apiUrl: api.baseUrl, key: SECRET });
  sites.push(allowed, foreign, withSecret);
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
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
  context.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  for (const site of sites) await site.close();
  await api?.close();
});

async function openPage(url: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  return page;
}

/** A page whose failed calls to the API are recorded: the browser sends them and keeps the answers from the page. */
async function openWatchingApi(url: string): Promise<{ page: Page; blocked: string[] }> {
  const blocked: string[] = [];
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(api.baseUrl)) blocked.push(request.url());
  });
  await page.goto(url);
  return { page, blocked };
}

/** The counts the page shows for one facet group: option name → count. */
async function shownCounts(page: Page, facet: string): Promise<Record<string, number>> {
  const options = page.locator(`[data-facet="${facet}"] .facet-option`);
  const counts: Record<string, number> = {};
  for (const option of await options.all()) {
    counts[(await option.locator('.facet-name').textContent()) ?? ''] = Number(
      await option.locator('.facet-count').textContent(),
    );
  }
  return counts;
}

function expectedCounts(
  filter: (v: Record<string, any>) => boolean,
  by: (v: Record<string, any>) => string,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of careerVacancies()
    .filter((x) => x.status === 'published')
    .filter(filter))
    counts[by(v)] = (counts[by(v)] ?? 0) + 1;
  return counts;
}

const LOCATION_NAME: Record<number, string> = { 1: 'Utrecht Office', 2: 'Berlin Hub' };

describe('example career site in Chromium', () => {
  it('lists with facet counts that change when filtering, pages, opens a vacancy and applies with a PDF', async () => {
    const page = await openPage(allowed.url);
    await page.locator('[data-facet="department_id"] .facet-option').first().waitFor();
    const visible = careerVacancies().filter((v) => v.status === 'published');
    expect(await page.locator('.total').textContent()).toBe(`${visible.length} vacancies`);
    expect(await shownCounts(page, 'location_id')).toEqual(
      expectedCounts(
        () => true,
        (v) => LOCATION_NAME[v.location_id]!,
      ),
    );
    expect(await page.locator('.pagination span').textContent()).toBe('Page 1 of 3');
    expect(await page.locator('.vacancies a').allTextContents()).toEqual(visible.slice(0, 10).map((v) => v.title));

    // The second page.
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => page.locator('.pagination span').textContent()).toBe('Page 2 of 3');
    expect(await page.locator('.vacancies a').allTextContents()).toEqual(visible.slice(10, 20).map((v) => v.title));

    // Filter by the Sales department: back to page 1, and the total and the location counts follow.
    await page.locator('[data-facet="department_id"] .facet-option', { hasText: 'Sales' }).click();
    const sales = (v: Record<string, any>) => v.department_id === 2;
    const inSales = visible.filter(sales);
    await expect.poll(() => page.locator('.total').textContent()).toBe(`${inSales.length} vacancies`);
    expect(await page.locator('[data-facet="department_id"] [aria-current="true"] .facet-name').textContent()).toBe(
      'Sales',
    );
    expect(await page.locator('.vacancies a').allTextContents()).toEqual(inSales.slice(0, 10).map((v) => v.title));
    expect(await shownCounts(page, 'location_id')).toEqual(expectedCounts(sales, (v) => LOCATION_NAME[v.location_id]!));
    expect(await shownCounts(page, 'location_id')).not.toEqual(
      expectedCounts(
        () => true,
        (v) => LOCATION_NAME[v.location_id]!,
      ),
    );

    // Open a vacancy that takes applications.
    const target = inSales.find((v) => v.accepts_applications)!;
    await page.getByRole('link', { name: String(target.title), exact: true }).click();
    await page.getByRole('heading', { name: String(target.title) }).waitFor();

    // Apply with a PDF resume.
    const pdf = await resumePdf('Grace Hopper: compilers, COBOL');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill('grace@example.org');
    await page
      .getByLabel('Resume (PDF or Word)')
      .setInputFiles({ name: 'grace.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await page.getByLabel('I accept the privacy policy').check();
    await page.getByRole('button', { name: 'Send application' }).click();
    await expect
      .poll(() => page.locator('.applied').textContent())
      .toBe(`Thank you, Grace: your application for ${target.title} has been received.`);

    const applications = await rows(
      `select a.id, v.slug, c.email, a.privacy_policy_accepted from applications a join vacancies v on v.id = a.vacancy_id join candidates c on c.id = a.candidate_id`,
    );
    expect(applications).toEqual([
      { id: expect.any(Number), slug: target.slug, email: 'grace@example.org', privacy_policy_accepted: true },
    ]);
    const documents = await rows('select type, filename, content from documents where application_id = $1', [
      applications[0]!.id,
    ]);
    expect(documents.map((d) => [d.type, d.filename])).toEqual([['resume', 'grace.pdf']]);
    expect(new Uint8Array(documents[0]!.content)).toEqual(pdf);
    await page.close();
  });

  it('shows validation errors from the API next to the fields', async () => {
    const page = await openPage(`${allowed.url}/#/vacancies/job-4`);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Send application' }).click();
    await expect.poll(() => page.locator('[data-error-for="email"]').textContent()).toMatch(/email/i);
    expect(await page.locator('.form-status').textContent()).toBe('Please check the highlighted fields.');
    await page.close();
  });

  it('from an origin the key does not allow, the page gets nothing', async () => {
    const { page, blocked } = await openWatchingApi(foreign.url);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The careers service cannot be reached right now.');
    expect(blocked.map((url) => new URL(url).pathname)).toEqual(['/v1/vacancies']);
    expect(await page.locator('.vacancies li').count()).toBe(0);
    // What the browser was not allowed to read: a 403 without CORS headers.
    const response = await fetch(`${api.baseUrl}/vacancies`, {
      headers: { authorization: `Bearer ${publishable}`, origin: foreign.url },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: 'This origin is not allowed for this key.',
      error: 'ORIGIN_NOT_ALLOWED',
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await page.close();
  });

  it('with a secret key, the browser cannot read the answers (no CORS headers), even though the API answers', async () => {
    const { page, blocked } = await openWatchingApi(withSecret.url);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The careers service cannot be reached right now.');
    expect(blocked.map((url) => new URL(url).pathname)).toEqual(['/v1/vacancies']);
    expect(await page.locator('.vacancies li').count()).toBe(0);
    const response = await fetch(`${api.baseUrl}/vacancies`, {
      headers: { authorization: `Bearer ${SECRET}`, origin: withSecret.url },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await page.close();
  });

  it('had no script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
