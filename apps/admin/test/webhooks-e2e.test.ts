import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { openOrm, type TOrm } from '@careers/core';
import {
  webhookSecretKey,
  startWebhookRunner,
  type TWebhookRunner,
  DEFAULT_DELIVERY_SETTINGS,
} from '@careers/core/worker';
import { startWebhookReceiver, type TWebhookReceiver } from '@careers/core/testing';
import { ARTIFACTS, openDashboardBrowser, type TDashboardBrowser } from './support/browser.ts';
import { startStack, type TStack } from './support/stack.ts';
import { dashboardDocument } from './support/seed.ts';

// The test receiver is plain http on 127.0.0.1: allowed for this process (the admin server runs in it).
process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';

const seeded = dashboardDocument({ seed: 7, vacancies: 1 });
let stack: TStack;
let dashboard: TDashboardBrowser;
let page: Page;
let receiver: TWebhookReceiver;
let orm: TOrm;
let runner: TWebhookRunner;
let consoleProblems: string[];

beforeAll(async () => {
  stack = await startStack(seeded.document);
  receiver = await startWebhookReceiver();
  // The worker's webhook loops, in this process, on the stack's database.
  orm = await openOrm(stack.databaseUrl);
  runner = startWebhookRunner({
    orm,
    log: pino({ level: 'silent' }),
    concurrency: 2,
    pollIntervalMs: 100,
    settings: {
      ...DEFAULT_DELIVERY_SETTINGS,
      secretKey: webhookSecretKey()!,
      allowInsecureLocal: true,
      timeoutMs: 2000,
      leaseSeconds: 5,
    },
  });
  dashboard = await openDashboardBrowser(stack.adminUrl);
  ({ page, consoleProblems } = dashboard);
});

afterAll(async () => {
  await runner?.stop(1000);
  await orm?.close();
  await receiver?.close();
  await dashboard?.close();
  await stack?.close();
});

describe('Webhooks page in Chromium', () => {
  it('adds an endpoint (secret shown once), sends a test event that is delivered and signed, and replays it', async () => {
    await page.goto(`${stack.adminUrl}/webhooks`);
    await page.getByLabel('Email').fill(seeded.admin.email);
    await page.getByLabel('Password').fill(seeded.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(await page.title()).toBe('Webhooks · Careers Admin');
    await page.getByText('No endpoints yet.').waitFor();

    // A URL that is not https is refused with the reason on the field.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('The url must use https://.').waitFor();

    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByLabel('All events').uncheck();
    await dialog.getByRole('checkbox', { name: 'vacancy.published', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'application.created', exact: true }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const added = page.getByRole('dialog', { name: 'Webhook endpoint added' });
    const secretField = added.getByLabel('Signing secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await added.textContent()).toContain('It will not be shown again');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}webhook-secret-dialog.png` });
    await added.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: new RegExp(receiver.url.replaceAll('.', '\\.')) });
    await row.waitFor();
    expect(await row.textContent()).toContain('vacancy.published');
    // Shown once: nowhere on the page any more.
    expect(await page.content()).not.toContain(secret.slice(6, 30));

    // Send a test event: a delivery appears and reaches the receiver, signed with the secret.
    await row.getByRole('button', { name: 'Send test' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByRole('row', { name: /webhook\.test/ }).waitFor();
    const [first] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(first!.body, first!.headers)).toMatchObject({
      type: 'webhook.test',
      tenant: expect.any(String),
    });
    await expect
      .poll(() => deliveries.getByRole('row', { name: /webhook\.test/ }).textContent(), { timeout: 10_000 })
      .toMatch(/Delivered\s*1\s*200/);
    await page.screenshot({ path: `${ARTIFACTS}webhook-deliveries.png`, fullPage: true });

    // Replay: the same event id again, a second attempt in the log.
    await deliveries.getByRole('button', { name: /^Replay webhook\.test/ }).click();
    const [, replayed] = await receiver.waitFor(2);
    expect(replayed!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    await expect
      .poll(() => deliveries.getByRole('row', { name: /webhook\.test/ }).textContent(), { timeout: 10_000 })
      .toMatch(/Delivered\s*2\s*200/);
    expect(consoleProblems).toEqual([]);
  });
});
