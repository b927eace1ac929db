import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '@careers/core/testing';
import { openOrm } from '@careers/core';
import { createWebhookEndpoint, kyselyOf, sendTestEvent, serviceContext } from '@careers/core/operations';

/** `pnpm careers …` from the repository root, as CONTRACT.md documents it. */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

type TRun = { code: number; stdout: string; stderr: string };

function careers(args: string[], env: Record<string, string | undefined> = {}): Promise<TRun> {
  return new Promise((done) => {
    execFile(
      'pnpm',
      ['careers', ...args],
      { cwd: ROOT, env: { ...process.env, CI: 'true', NO_COLOR: '1', DATABASE_URL: url, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

let url: string;
let orm: MikroORM;

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url);
  await kyselyOf(orm.em.fork())
    .insertInto('tenants')
    .values([{ id: 1, slug: 'acme', name: 'Acme' }])
    .execute();
});
afterAll(async () => {
  await orm?.close(true);
});

describe('careers webhooks', { timeout: 180_000 }, () => {
  it('creates (printing id and secret once), lists, rotates, sends a test event and deletes endpoints', async () => {
    const created = await careers([
      'webhooks',
      'create',
      '--tenant',
      'acme',
      '--url',
      'https://hooks.example.com/careers',
      '--events',
      'vacancy.published,application.created',
    ]);
    expect(created.code).toBe(0);
    // Each on its own line (pnpm prints its own header lines before them).
    const printed = /^id: (\d+)\nsecret: (whsec_[A-Za-z0-9+/]{43}=)$/m.exec(created.stdout);
    expect(printed, created.stdout).not.toBeNull();
    const id = Number(printed![1]);
    const secret = printed![2]!;

    const listed = await careers(['webhooks', 'list', '--tenant', 'acme']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${id}\\s+https://hooks\\.example\\.com/careers\\s+vacancy\\.published,application\\.created\\s+enabled`,
        'm',
      ),
    );
    expect(listed.stdout).not.toContain(secret.slice(6));

    const rotated = await careers(['webhooks', 'rotate', String(id)]);
    expect(rotated.code).toBe(0);
    const newSecret = /^secret: (whsec_\S+)$/m.exec(rotated.stdout)?.[1];
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(secret);
    const [row] = await kyselyOf(orm.em.fork())
      .selectFrom('webhook_endpoints')
      .select(['previous_secret_expires_at'])
      .where('id', '=', id)
      .execute();
    expect(new Date(row!.previous_secret_expires_at!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const tested = await careers(['webhooks', 'test', String(id)]);
    expect(tested.code).toBe(0);
    const deliveries = await kyselyOf(orm.em.fork())
      .selectFrom('webhook_deliveries')
      .select(['event_type', 'state', 'endpoint_id'])
      .execute();
    expect(deliveries).toEqual([{ event_type: 'webhook.test', state: 'pending', endpoint_id: id }]);

    const deleted = await careers(['webhooks', 'delete', String(id)]);
    expect(deleted.code).toBe(0);
    expect((await careers(['webhooks', 'list', '--tenant', 'acme'])).stdout).toMatch(
      /^Tenant acme has no webhook endpoints\.$/m,
    );
    const again = await careers(['webhooks', 'delete', String(id)]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`error: no webhook endpoint with id ${id}`);
  });

  it('refuses http URLs, unknown event types and a missing encryption key with one line each', async () => {
    const http = await careers([
      'webhooks',
      'create',
      '--tenant',
      'acme',
      '--url',
      'http://hooks.example.com/x',
      '--events',
      '*',
    ]);
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/https/);
    const unknown = await careers([
      'webhooks',
      'create',
      '--tenant',
      'acme',
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'vacancy.exploded',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/event_types\.0/);
    const noKey = await careers(
      ['webhooks', 'create', '--tenant', 'acme', '--url', 'https://hooks.example.com/x', '--events', '*'],
      { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: undefined },
    );
    expect(noKey.code).toBe(1);
    expect(noKey.stderr.trim()).toMatch(/^error: WEBHOOK_SECRET_KEY is not set/);
    const usage = await careers(['webhooks', 'create', '--tenant', 'acme']);
    expect(usage.code).toBe(2);
  });

  it('refuses an 11th endpoint of a tenant, and test events beyond 10 a minute, with one line each', async () => {
    await kyselyOf(orm.em.fork())
      .insertInto('tenants')
      .values([{ id: 2, slug: 'busy', name: 'Busy' }])
      .execute();
    const made = [];
    for (let i = 0; i < 10; i++)
      made.push(
        await createWebhookEndpoint(serviceContext(orm.em.fork(), 2), {
          url: `https://hooks.example.com/${i}`,
          eventTypes: ['*'],
        }),
      );
    const eleventh = await careers([
      'webhooks',
      'create',
      '--tenant',
      'busy',
      '--url',
      'https://hooks.example.com/11',
      '--events',
      '*',
    ]);
    expect(eleventh.code).toBe(1);
    expect(eleventh.stderr.trim()).toBe(
      'error: The given data was invalid. A tenant may have at most 10 webhook endpoints; delete one first.',
    );
    expect(
      await kyselyOf(orm.em.fork()).selectFrom('webhook_endpoints').select('id').where('tenant_id', '=', 2).execute(),
    ).toHaveLength(10);

    const id = made[0]!.endpoint.id;
    for (let i = 0; i < 10; i++) await sendTestEvent(serviceContext(orm.em.fork(), 2), { id });
    const tooMany = await careers(['webhooks', 'test', String(id)]);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr.trim()).toMatch(
      new RegExp(
        `^error: too many test events and replays for webhook endpoint ${id} \\(10 a minute\\); try again in \\d+ s$`,
      ),
    );
  });
});
