import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openOrm, type TOrm } from '@careers/core';
import { openDashboardBrowser, type TDashboardBrowser } from './support/browser.ts';
import { startStack, type TStack } from './support/stack.ts';
import { dashboardDocument } from './support/seed.ts';

/**
 * The Privacy and Audit log pages in a real headless Chromium: a person who applied (through the API, with a
 * document) is found by email, exported as a JSON download, erased after typing their email, and is gone from the
 * page and the database; the audit log then shows the export, the erasure and a key created in the test, each with
 * the administrator's email, newest first, with older entries a page further.
 */
const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'careers-admin-screenshots');
const seedNumber = 100 + Math.floor(Math.random() * 800);
const seeded = dashboardDocument({ seed: seedNumber, vacancies: 1 });
const tenantDocument = seeded.document.tenants[0]!;
const applyingKey = `ck_test_${seeded.slug}_applying_000000000`;
tenantDocument.api_keys.push({
  id: seedNumber * 100 + 3,
  name: 'Career website',
  key: applyingKey,
  scopes: ['applications:write'],
});

const unique = `${seedNumber}${Date.now().toString(36)}`;
const person = {
  given_name: 'Ada',
  family_name: `Lovelace-${unique}`,
  email: `ada.${unique}@example.org`,
  mobile_phone: '+31 6 5550 1234',
};
const other = { given_name: 'Grace', family_name: `Hopper-${unique}`, email: `grace.${unique}@example.org` };
const resume = Buffer.from(`%PDF-1.4\nThe resume of Ada ${unique}: analytical engines, 1843.\n%%EOF\n`);
/** Older entries than the test's own, so that the log has a second page (the page holds 50). */
const OLDER_ENTRIES = 50;

let stack: TStack;
let orm: TOrm;
let dashboard: TDashboardBrowser;
let page: Page;
let consoleProblems: string[];

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await orm.em.fork().getConnection().execute(text, params)) as T[];
}

async function apply(
  candidate: Record<string, string>,
  documents?: Record<string, unknown>,
): Promise<{ id: number; candidate: { id: number } }> {
  const response = await fetch(`${stack.apiUrl}/applications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${applyingKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      vacancy: tenantDocument.vacancies[0]!.slug,
      candidate,
      documents,
      privacy_policy_accepted: true,
    }),
  });
  const body = (await response.json()) as { data: { id: number; candidate: { id: number } } };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.data;
}

beforeAll(async () => {
  stack = await startStack(seeded.document);
  orm = await openOrm(stack.databaseUrl);
  await sql(
    `insert into audit_log_entries (tenant_id, actor, action, details, created_at)
     select t.id, 'retention sweep', 'retention.swept',
            jsonb_build_object('erased_candidates', g % 3, 'erased_applications', g, 'as_of', to_char(now() - make_interval(days => 60 - g), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
            now() - make_interval(days => 60 - g)
     from tenants t, generate_series(1, ?) g where t.slug = ?`,
    [OLDER_ENTRIES, seeded.slug],
  );
  dashboard = await openDashboardBrowser(stack.adminUrl);
  ({ page, consoleProblems } = dashboard);
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await dashboard?.close();
  await orm?.close();
  await stack?.close();
});

describe('Privacy and Audit log pages in Chromium', () => {
  it('finds a person by email, exports them as a file, erases them after confirmation, and the audit log shows it', async () => {
    const application = await apply(person, {
      resume: { filename: 'ada-cv.pdf', content: resume.toString('base64'), mime_type: 'application/pdf' },
    });
    const candidateId = application.candidate.id;
    const control = await apply(other);

    // No URL the dashboard requests holds the person's email (proxies log URLs): the search goes in a POST body.
    const urls: string[] = [];
    page.on('request', (request) => urls.push(decodeURIComponent(request.url()).toLowerCase()));

    await page.goto(`${stack.adminUrl}/privacy`);
    await page.getByLabel('Email').fill(seeded.admin.email);
    await page.getByLabel('Password').fill(seeded.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Privacy', level: 1 }).waitFor();
    expect(await page.title()).toBe('Privacy · Careers Admin');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Privacy' })
        .getAttribute('aria-current'),
    ).toBe('page');

    // Found by email in another letter case; what is held is listed with its counts.
    const search = page.getByRole('search', { name: 'Find a person' });
    await search.getByLabel('Email address').fill(person.email.toUpperCase());
    await search.getByRole('button', { name: 'Find' }).click();
    const held = page.getByRole('table', { name: 'What is held' });
    const row = held.getByRole('row', { name: new RegExp(person.family_name) });
    await row.waitFor();
    expect(await held.getByRole('row').count()).toBe(2);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 6)).toEqual([
      person.email,
      person.mobile_phone,
      expect.stringMatching(/\d{4}/),
      '1',
      '1',
      '0',
    ]);
    expect(await row.getByRole('rowheader').textContent()).toBe(`Ada ${person.family_name} #${candidateId}`);
    const privacyShot = join(SCREENSHOTS, 'privacy-page.png');
    await page.screenshot({ path: privacyShot, fullPage: true });

    // Export: a JSON file download with the candidate and the document's bytes.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`candidate-${candidateId}-export.json`);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      data: {
        candidate: Record<string, unknown>;
        applications: Array<{ id: number; documents: Array<{ filename: string; content: string; size: number }> }>;
        resumes: unknown[];
      };
    };
    expect(exported.data.candidate).toMatchObject({ id: candidateId, email: person.email });
    expect(exported.data.applications.map((entry) => entry.id)).toEqual([application.id]);
    expect(exported.data.applications[0]!.documents).toEqual([
      expect.objectContaining({ filename: 'ada-cv.pdf', size: resume.length }),
    ]);
    expect(Buffer.from(exported.data.applications[0]!.documents[0]!.content, 'base64').equals(resume)).toBe(true);
    expect(exported.data.resumes).toEqual([]);
    await page
      .getByRole('status')
      .filter({ hasText: `candidate-${candidateId}-export.json` })
      .waitFor();

    // Erase: the dialog asks for the email; Erase stays off until it is typed.
    await row.getByRole('button', { name: 'Erase' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Erase Ada ${person.family_name}?` });
    await confirm.waitFor();
    const eraseButton = confirm.getByRole('button', { name: 'Erase' });
    expect(await eraseButton.isDisabled()).toBe(true);
    await confirm.getByLabel(/to confirm$/).fill(other.email);
    expect(await eraseButton.isDisabled()).toBe(true);
    await confirm.getByLabel(/to confirm$/).fill(person.email);
    expect(await eraseButton.isDisabled()).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, 'privacy-erase-dialog.png') });
    await eraseButton.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Candidate ${candidateId} erased: 1 candidate and 1 application` })
      .waitFor();
    await page.getByText(`Nothing is held about ${person.email.toUpperCase()}.`).waitFor();
    expect(await confirm.isVisible()).toBe(false);

    // A new search does not find them either; the database holds no row of theirs, and the other candidate stays.
    await search.getByLabel('Email address').fill(person.email);
    await search.getByRole('button', { name: 'Find' }).click();
    await page.getByText(`Nothing is held about ${person.email}.`).waitFor();
    expect(
      await sql('select id from candidates where id = ? or lower(email) = ?', [candidateId, person.email]),
    ).toEqual([]);
    expect(await sql('select id from applications where id = ?', [application.id])).toEqual([]);
    expect(await sql('select id from documents where application_id = ?', [application.id])).toEqual([]);
    expect(await sql<{ id: number }>('select id from candidates where id = ?', [control.candidate.id])).toHaveLength(1);

    // A key created now, to see it in the log too.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const createDialog = page.getByRole('dialog', { name: 'Create API key' });
    await createDialog.getByLabel('Name', { exact: true }).fill('Audit trail key');
    await createDialog.getByRole('checkbox', { name: 'vacancies:read', exact: true }).check();
    await createDialog.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'API key created' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /Audit trail key/ }).waitFor();

    // The audit log: newest first, each with the administrator's email, candidates by id only.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/audit');
    const log = page.getByRole('table', { name: 'Entries' });
    await log.getByRole('row', { name: /Candidate erased/ }).waitFor();
    const rows = log.getByRole('row');
    expect(await rows.count()).toBe(1 + 50);
    const newest = await Promise.all([1, 2, 3].map((index) => rows.nth(index).getByRole('cell').allTextContents()));
    expect(newest.map((cells) => cells.slice(1))).toEqual([
      [
        seeded.admin.email,
        expect.stringMatching(/^api key \d+$/),
        '“Audit trail key”, secret key, scopes: vacancies:read',
      ],
      [seeded.admin.email, `candidate ${candidateId}`, '–'],
      [seeded.admin.email, `candidate ${candidateId}`, '–'],
    ]);
    expect(await Promise.all([1, 2, 3].map((index) => rows.nth(index).getByRole('rowheader').textContent()))).toEqual([
      'API key created api_key.created',
      'Candidate erased candidate.erased',
      'Candidate exported candidate.exported',
    ]);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const personal of [person.email, person.family_name, person.mobile_phone, other.email])
      expect(text).not.toContain(personal);
    const auditShot = join(SCREENSHOTS, 'audit-log-page.png');
    await page.screenshot({ path: auditShot });

    // Older entries: the next page via next_before, then the beginning of the log.
    expect(await rows.nth(50).textContent()).toContain('Retention sweep');
    await page.getByRole('button', { name: 'Show older entries' }).click();
    await page.getByText('The beginning of the log.').waitFor();
    expect(await rows.count()).toBe(1 + 3 + OLDER_ENTRIES);
    expect(await rows.last().getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      'retention sweep',
      'tenant',
      expect.stringMatching(/^1 candidate and 1 application erased, as of /),
    ]);

    expect(urls.filter((url) => url.includes('/trpc/admin.privacy.find'))).not.toHaveLength(0);
    expect(urls.filter((url) => url.includes(person.email))).toEqual([]);

    console.log(`Screenshots: ${privacyShot} and ${auditShot} (in ${SCREENSHOTS})`);
    expect(consoleProblems).toEqual([]);
  });
});
