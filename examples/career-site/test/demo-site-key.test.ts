import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import {
  importTenantDocument,
  buildDemoDocument,
  DEMO_PUBLISHABLE_KEY,
  ensureDemoSiteKey,
} from '@careers/core/operations';
import { createCareersClient } from '@careers/client';
import { startTestApi, type TTestApi } from '../../../apps/api/test/support/api.ts';

/** The publishable key `pnpm start` gives the example site: created once, then moved to the site's current origin. */
let api: TTestApi;

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, buildDemoDocument());
});
afterAll(async () => api?.close());

function fromOrigin(origin: string) {
  return createCareersClient({
    baseUrl: api.baseUrl,
    apiKey: DEMO_PUBLISHABLE_KEY,
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set('origin', origin);
      return fetch(new Request(request, { headers }));
    },
  });
}

async function countOf(origin: string): Promise<number | string> {
  try {
    return (await fromOrigin(origin).get('/vacancies', { params: { query: { per_page: 1 } } })).meta.total;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('the demo career site key', () => {
  it('reads acme from the site origin only, and follows the origin when the port changes', async () => {
    expect(await ensureDemoSiteKey(api.services.orm, 'http://127.0.0.1:3002')).toBe(true);
    expect(await countOf('http://127.0.0.1:3002')).toBeGreaterThan(0);
    expect(await countOf('http://127.0.0.1:4000')).toBe('ORIGIN_NOT_ALLOWED');

    expect(await ensureDemoSiteKey(api.services.orm, 'http://127.0.0.1:4000')).toBe(true);
    await expect.poll(() => countOf('http://127.0.0.1:4000'), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => countOf('http://127.0.0.1:3002'), { timeout: 10_000 }).toBe('ORIGIN_NOT_ALLOWED');
    const keys = await api.services.orm.em
      .fork()
      .execute(`select kind, scopes, origins from api_keys where name = 'Demo career site (browser)'`);
    expect(keys).toEqual([
      {
        kind: 'publishable',
        scopes: ['vacancies:read', 'locations:read', 'team:read', 'articles:read', 'applications:write'],
        origins: ['http://127.0.0.1:4000'],
      },
    ]);
  });
});
