import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  createTestDatabase,
  startWebhookReceiver,
  type TWebhookReceiver,
  type TReceivedWebhook,
} from '@careers/core/testing';
import { importTenantDocument, createWebhookEndpoint, serviceContext } from '@careers/core/operations';
import { announceTimePassing, type TWebhookRunner } from '@careers/core/worker';
import { startTestWebhookRunner } from './support/webhook-runner.ts';
import { startTestApi, type TTestApi } from './support/api.ts';

// The receiver is plain http on 127.0.0.1: allowed for this test process only.
process.env.WEBHOOK_ALLOW_INSECURE_LOCAL = '1';

const FEED_KEY = 'ck_test_webhooks_feed_key_00001';
const APPLY_KEY = 'ck_test_webhooks_apply_key_0002';
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * 24 * 3600 * 1000).toISOString();

type TVacancy = { id: number; slug: string; title: string; status?: string; published_at?: string };
const VACANCIES: TVacancy[] = [
  { id: 1, slug: 'engineer', title: 'Engineer' },
  { id: 2, slug: 'designer', title: 'Designer' },
  { id: 3, slug: 'scheduled', title: 'Scheduled', published_at: ago(-3) },
];
const document = (vacancies: TVacancy[]) => ({
  tenants: [
    {
      id: 1,
      slug: 'acme',
      name: 'Acme',
      default_language: 'en',
      api_keys: [
        { id: 1, name: 'feed', key: FEED_KEY, scopes: ['vacancies:read', 'articles:read'], revoked: false },
        { id: 2, name: 'apply', key: APPLY_KEY, scopes: ['applications:write'], revoked: false },
      ],
      vacancies: vacancies.map((v) => ({
        language: 'en',
        status: 'published',
        channels: ['api'],
        published_at: ago(3),
        ends_at: null,
        ...v,
      })),
    },
  ],
});

let api: TTestApi;
let sql: pg.Client;
let receiver: TWebhookReceiver;
let runner: TWebhookRunner;
let secret: string;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  api = await startTestApi(databaseUrl);
  await importTenantDocument({ em: api.services.orm.em }, document(VACANCIES));
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  receiver = await startWebhookReceiver();
  ({ secret } = await createWebhookEndpoint(serviceContext(api.services.orm.em.fork(), 1), {
    url: receiver.url,
    eventTypes: ['*'],
  }));
  runner = startTestWebhookRunner(api);
});
afterAll(async () => {
  await runner?.stop(1000);
  await receiver?.close();
  await sql?.end();
  await api?.close();
});

type TEntry = { event_id: string; type: string; slug: string | null; id: number };

async function feed(after?: string): Promise<{ entries: TEntry[]; cursor: string }> {
  const entries: TEntry[] = [];
  let cursor = after;
  for (;;) {
    const response = await api.get(`/changes?limit=2${cursor ? `&after=${cursor}` : ''}`, FEED_KEY);
    expect(response.status, response.text).toBe(200);
    entries.push(...response.body.data);
    cursor = response.body.next_cursor;
    if (!response.body.has_more) return { entries, cursor: cursor! };
  }
}

/** Waits for a webhook of this type (and slug), verifies it with standardwebhooks and returns its body. */
async function webhook(
  type: string,
  slug?: string,
): Promise<{
  request: TReceivedWebhook;
  body: { id: string; type: string; tenant: string; data: Record<string, unknown> };
}> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const request = receiver.received.find((r) => {
      const body = JSON.parse(r.body);
      return body.type === type && (slug === undefined || body.data.slug === slug);
    });
    if (request) {
      const body = new Webhook(secret).verify(request.body, request.headers) as {
        id: string;
        type: string;
        tenant: string;
        data: Record<string, unknown>;
      };
      expect(request.headers['webhook-id']).toBe(body.id);
      return { request, body };
    }
    if (Date.now() > deadline)
      throw new Error(
        `no ${type} ${slug ?? ''} webhook; got ${receiver.received.map((r) => JSON.parse(r.body).type).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('events delivered as signed webhooks and listed in the change feed', () => {
  it('an application, a renaming and a drafting re-import and a passing published_at each arrive signed, and the feed lists them in commit order', async () => {
    const { cursor: start } = await feed();

    const applied = await api.post(
      '/applications',
      {
        vacancy: 'engineer',
        candidate: { given_name: 'Jo', family_name: 'Doe', email: 'jo@example.org' },
        privacy_policy_accepted: true,
      },
      APPLY_KEY,
    );
    expect(applied.status, applied.text).toBe(201);
    const application = await webhook('application.created');
    expect(application.body).toMatchObject({ tenant: 'acme', data: { id: applied.body.data.id } });

    await importTenantDocument(
      { em: api.services.orm.em },
      document([{ ...VACANCIES[0]!, title: 'Senior engineer' }, VACANCIES[1]!, VACANCIES[2]!]),
    );
    await importTenantDocument(
      { em: api.services.orm.em },
      document([{ ...VACANCIES[0]!, title: 'Senior engineer' }, { ...VACANCIES[1]!, status: 'draft' }, VACANCIES[2]!]),
    );
    await sql.query(`update vacancies set published_at = now() + interval '300 milliseconds' where id = 3`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await announceTimePassing({ em: api.services.orm.em.fork() });

    const renamed = await webhook('vacancy.updated', 'engineer');
    const drafted = await webhook('vacancy.unpublished', 'designer');
    const published = await webhook('vacancy.published', 'scheduled');
    expect(renamed.body.data).toMatchObject({ id: 1, slug: 'engineer' });
    expect(drafted.body.data).toMatchObject({ id: 2, slug: 'designer' });

    const { entries } = await feed(start);
    expect(entries.map((e) => `${e.type} ${e.slug}`)).toEqual([
      'vacancy.updated engineer',
      'vacancy.unpublished designer',
      'vacancy.published scheduled',
    ]);
    expect(entries.map((e) => e.event_id)).toEqual([renamed.body.id, drafted.body.id, published.body.id]);
  });
});
