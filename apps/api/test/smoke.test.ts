import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, hashApiKey } from '@careers/core/testing';
import { startTestApi, type TTestApi } from './support/api.ts';

let api: TTestApi;
const KEY = 'ck_test_smoke_key_0123456789';

beforeAll(async () => {
  const url = await createTestDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`insert into tenants (id, slug, name) values (1, 'acme', 'Acme')`);
  await client.query(
    `insert into api_keys (tenant_id, name, key_hash, start, scopes) values (1, 'k', $1, 'ck_test', '{vacancies:read}')`,
    [hashApiKey(KEY)],
  );
  await client.end();
  api = await startTestApi(url);
});
afterAll(async () => api?.close());

describe('smoke', () => {
  it('health', async () => {
    const ok = await api.get('/health', KEY);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'authenticated', tenant: 'acme' });
    const no = await api.get('/health');
    expect(no.status).toBe(401);
    expect(no.body).toEqual({ message: 'Unauthenticated.' });
    const unknown = await api.get('/nope', KEY);
    expect(unknown.status).toBe(404);
    const post = await api.post('/health', {}, KEY);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    const doc = await api.get('/openapi.json');
    expect(doc.body.openapi).toMatch(/^3\.1/);
  });
});
