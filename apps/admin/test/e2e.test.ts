import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { ARTIFACTS, openDashboardBrowser, type TDashboardBrowser } from './support/browser.ts';
import { startStack, type TStack } from './support/stack.ts';
import { dashboardDocument } from './support/seed.ts';

/**
 * The dashboard in a real headless Chromium (Debian's package, installed by scripts/ensure-chromium.sh
 * before vitest starts): sign in, create a key, use it against the API, revoke it, switch API access, sign out.
 */
const CAREER_WEBSITE = ['vacancies:read', 'applications:write', 'locations:read', 'team:read', 'articles:read'];
const CHROME_PLUGIN = ['candidates:read', 'candidates:write', 'team:read'];
const ALL_SCOPES = [
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
  'team:read',
  'locations:read',
  'articles:read',
];

const seeded = dashboardDocument({
  seed: 100 + Math.floor(Math.random() * 800),
  vacancies: 1 + Math.floor(Math.random() * 5),
});
let stack: TStack;
let dashboard: TDashboardBrowser;
let context: BrowserContext;
let page: Page;
let consoleProblems: string[];

beforeAll(async () => {
  stack = await startStack(seeded.document);
  dashboard = await openDashboardBrowser(stack.adminUrl);
  ({ context, page, consoleProblems } = dashboard);
});

afterAll(async () => {
  await dashboard?.close();
  await stack?.close();
});

function callApi(path: string, key: string): Promise<Response> {
  return fetch(`${stack.apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

async function checkedScopes(): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  const checked: string[] = [];
  for (const scope of ALL_SCOPES)
    if (await dialog.getByRole('checkbox', { name: scope, exact: true }).isChecked()) checked.push(scope);
  return checked;
}

describe('admin dashboard in Chromium', () => {
  it('signs in, creates a key that works, revokes it (401 within a second), switches API access and signs out', async () => {
    await page.goto(stack.adminUrl);

    // Sign in with the keyboard only: the email field has the focus, Tab to the password, Enter submits.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(seeded.admin.email);
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 })
      .toBe('These credentials do not match our records.');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}sign-in-page.png` });
    await page.getByLabel('Password').fill('');
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type(seeded.admin.password);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await page.getByRole('group', { name: 'Visible vacancies' }).locator('.stat-value').textContent()).toBe(
      String(seeded.visibleVacancies),
    );
    expect(await page.getByRole('group', { name: 'Active API keys' }).locator('.stat-value').textContent()).toBe('1');
    await page.screenshot({ path: `${ARTIFACTS}overview-page.png`, fullPage: true });
    const cookies = await context.cookies(stack.adminUrl);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: 'careers_admin_session', httpOnly: true, sameSite: 'Strict' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/keys');
    await page.getByRole('row', { name: /Existing website/ }).waitFor();

    // Create a key: presets fill the scope checkboxes, then keep only vacancies:read.
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('E2E career website');
    await dialog.getByRole('button', { name: 'Chrome Plugin' }).click();
    expect(await checkedScopes()).toEqual(
      CHROME_PLUGIN.slice().sort((a, b) => ALL_SCOPES.indexOf(a) - ALL_SCOPES.indexOf(b)),
    );
    await dialog.getByRole('button', { name: 'Career Website', exact: true }).click();
    expect(await checkedScopes()).toEqual(
      CAREER_WEBSITE.slice().sort((a, b) => ALL_SCOPES.indexOf(a) - ALL_SCOPES.indexOf(b)),
    );
    for (const scope of CAREER_WEBSITE) {
      if (scope === 'vacancies:read') continue;
      // Space toggles a focused checkbox: the form works from the keyboard.
      await dialog.getByRole('checkbox', { name: scope, exact: true }).focus();
      await page.keyboard.press('Space');
    }
    expect(await checkedScopes()).toEqual(['vacancies:read']);
    await page.screenshot({ path: `${ARTIFACTS}create-key-dialog.png` });
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const created = page.getByRole('dialog', { name: 'API key created' });
    const keyField = created.getByLabel('New API key');
    await keyField.waitFor();
    const plaintext = await keyField.inputValue();
    expect(plaintext).toMatch(/^ck_live_[A-Za-z0-9_-]{32}$/);
    expect(await created.textContent()).toContain('It will not be shown again');
    await page.screenshot({ path: `${ARTIFACTS}new-key-dialog.png` });
    await created.getByRole('button', { name: 'Copy' }).click();
    await expect
      .poll(() => created.getByRole('status').textContent(), { timeout: 10_000 })
      .toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
    await created.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /E2E career website/ });
    await row.waitFor();
    expect(await row.getByRole('list').textContent()).toBe('vacancies:read');
    expect(await row.textContent()).toContain(plaintext.slice(0, 12));
    expect(await row.textContent()).not.toContain(plaintext);
    expect(await row.textContent()).toContain('Active');

    // The new key works against the API.
    const listed = await callApi('/vacancies', plaintext);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: Array<{ slug: string }>; meta: { total: number } };
    expect(body.meta.total).toBe(seeded.visibleVacancies);
    expect(body.data.map((vacancy) => vacancy.slug)).not.toContain(seeded.draftSlug);

    // A publishable key for a career site in the browser: the preset picks the kind and the public scopes only,
    // the origins editor refuses a path, and the key answers its origin only.
    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog.waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('E2E browser site');
    await dialog.getByRole('button', { name: 'Career website (browser)' }).click();
    expect(await dialog.getByRole('radio', { name: 'Publishable' }).isChecked()).toBe(true);
    expect(await checkedScopes()).toEqual([
      'vacancies:read',
      'applications:write',
      'team:read',
      'locations:read',
      'articles:read',
    ]);
    expect(await dialog.getByRole('checkbox', { name: 'candidates:read', exact: true }).isDisabled()).toBe(true);
    const firstOrigin = dialog.getByLabel('Allowed origin 1');
    await firstOrigin.fill('https://careers.e2e.example/jobs');
    expect(await firstOrigin.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText(/must be an origin such as/).waitFor();
    await firstOrigin.fill('https://Careers.E2E.example');
    await dialog.getByRole('button', { name: 'Add origin' }).click();
    await dialog.getByLabel('Allowed origin 2').fill('http://localhost:5173');
    await page.screenshot({ path: `${ARTIFACTS}create-publishable-key-dialog.png` });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const publishableField = page.getByRole('dialog', { name: 'API key created' }).getByLabel('New API key');
    await publishableField.waitFor();
    const publishable = await publishableField.inputValue();
    expect(publishable).toMatch(/^pk_live_[A-Za-z0-9_-]{32}$/);
    await page.getByRole('dialog', { name: 'API key created' }).getByRole('button', { name: 'Done' }).click();
    const publishableRow = page.getByRole('row', { name: /E2E browser site/ });
    await publishableRow.waitFor();
    expect(await publishableRow.textContent()).toContain('Publishable');
    expect(
      await publishableRow
        .getByRole('list', { name: 'Allowed origins of E2E browser site' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(['https://careers.e2e.example', 'http://localhost:5173']);
    const fromSite = await fetch(`${stack.apiUrl}/vacancies`, {
      headers: { authorization: `Bearer ${publishable}`, origin: 'https://careers.e2e.example' },
    });
    expect(fromSite.status).toBe(200);
    expect(fromSite.headers.get('access-control-allow-origin')).toBe('https://careers.e2e.example');
    await fromSite.arrayBuffer();
    const fromElsewhere = await fetch(`${stack.apiUrl}/vacancies`, {
      headers: { authorization: `Bearer ${publishable}`, origin: 'https://elsewhere.example' },
    });
    expect(await fromElsewhere.json()).toEqual({
      message: 'This origin is not allowed for this key.',
      error: 'ORIGIN_NOT_ALLOWED',
    });

    await page.screenshot({ path: `${ARTIFACTS}keys-page.png`, fullPage: true });

    // Revoke it in the UI, with a confirmation; the API refuses it within a second.
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke “E2E career website”?' });
    await confirm.waitFor();
    const revokedAt = Date.now();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      const response = await callApi('/vacancies', plaintext);
      status = response.status;
      await response.arrayBuffer();
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(1000);
    expect(await (await callApi('/vacancies', plaintext)).json()).toEqual({ message: 'Unauthenticated.' });
    await expect.poll(() => row.getByRole('button', { name: 'Revoke' }).count(), { timeout: 10_000 }).toBe(0);
    expect(await row.textContent()).not.toContain('Active');

    // API access off (keyboard: Space on the switch, then confirm) → every key gets 403; on again → 200.
    const toggle = page.getByRole('switch', { name: 'API access' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.focus();
    await page.keyboard.press('Space');
    await page
      .getByRole('alertdialog', { name: 'Switch off API access?' })
      .getByRole('button', { name: 'Switch off' })
      .click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');
    await expect
      .poll(async () => (await callApi('/health', seeded.existingKey)).status, { timeout: 1500, interval: 50 })
      .toBe(403);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
    await expect
      .poll(async () => (await callApi('/health', seeded.existingKey)).status, { timeout: 1500, interval: 50 })
      .toBe(200);

    // Sign out: back to the sign-in form, and a reload does not bring the session back.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await context.cookies(stack.adminUrl)).toEqual([]);

    expect(consoleProblems).toEqual([]);
  });
});
