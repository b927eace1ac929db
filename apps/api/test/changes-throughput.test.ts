import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

/**
 * Feed read throughput through HTTP (limit=1000 over 100 000 entries). A measurement, not a check of behaviour:
 * run with MEASURE_CHANGES=1 (`MEASURE_CHANGES=1 pnpm exec vitest run test/changes-throughput.test.ts`).
 */
const KEY = 'ck_test_changes_throughput_0001';
const ENTRIES = 100_000;

let api: TTestApi;
let databaseUrl: string;

describe.runIf(process.env.MEASURE_CHANGES === '1')('GET /changes throughput', () => {
  beforeAll(async () => {
    const url = await createTestDatabase();
    databaseUrl = url;
    api = await startTestApi(url);
    await importTenantDocument(
      { em: api.services.orm.em },
      {
        tenants: [
          {
            id: 1,
            slug: 'acme',
            name: 'Acme',
            default_language: 'en',
            api_keys: [{ id: 1, name: 'k', key: KEY, scopes: ['vacancies:read', 'articles:read'], revoked: false }],
          },
        ],
      },
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const started = performance.now();
    // In batches of 10 000 transactions' worth, as writers would.
    for (let i = 0; i < ENTRIES; i += 10_000) {
      await client.query(`insert into events (tenant_id, type, object, object_id, slug, data)
        select 1, 'vacancy.updated', 'vacancy', (g % 5000)::text, 'vacancy-' || (g % 5000), jsonb_build_object('id', g % 5000) from generate_series(1, 10000) g`);
    }
    console.info(`recorded ${ENTRIES} events in ${Math.round(performance.now() - started)} ms`);
    await client.query('analyze events');
    await client.end();
  }, 300_000);
  afterAll(async () => api?.close());

  it('commits small event-writing transactions from 8 clients (they share the commit-order lock)', async () => {
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        return client;
      }),
    );
    const perClient = 250;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = 0; i < perClient; i++) {
          await client.query('begin');
          await client.query(
            `insert into events (tenant_id, type, object, object_id, data) values (1, 'application.created', 'application', $1, '{}')`,
            [`${c}-${i}`],
          );
          await client.query('commit');
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `committed ${clients.length * perClient} one-event transactions in ${seconds.toFixed(2)} s: ${Math.round((clients.length * perClient) / seconds)} transactions/s`,
    );
    await Promise.all(clients.map((client) => client.end()));
  }, 300_000);

  it('reads 100 000 entries with limit=1000', async () => {
    const started = performance.now();
    let cursor = '';
    let seen = 0;
    for (;;) {
      const response = await fetch(`${api.baseUrl}/changes?limit=1000${cursor ? `&after=${cursor}` : ''}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      const body = (await response.json()) as { data: unknown[]; next_cursor: string; has_more: boolean };
      seen += body.data.filter((entry) => (entry as { object: string }).object === 'vacancy').length;
      cursor = body.next_cursor;
      if (!body.has_more) break;
    }
    const seconds = (performance.now() - started) / 1000;
    expect(seen).toBe(ENTRIES);
    console.info(`read ${seen} entries in ${seconds.toFixed(2)} s: ${Math.round(seen / seconds)} entries/s`);
  }, 300_000);
});
