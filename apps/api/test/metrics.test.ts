import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import { startMetricsServer, type TMetricsServer } from '@careers/core';
// Brings in the types of what the global setup provides to createTestDatabase (erased at run time).
import { networkInterfaces } from 'node:os';
import { startTestApi, type TTestApi } from './support/api.ts';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { apiEnv } from '../src/env.ts';
import { seed } from './support/seed.ts';
import { keys, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * GET /metrics (issue 7): request counts and latency per route template and status, 429s, key cache, pool — served on
 * the operations port (METRICS_PORT, 127.0.0.1 by default), never on the public one (issue 11).
 */

const READER = keys(1, 1, ['vacancies:read'])[0]!;
const WRITER = keys(2, 1, ['applications:write'])[0]!;
const SLUG = `data-analyst-${suffix()}`;
const UNKNOWN_SLUG = `no-such-vacancy-${suffix()}`;

let api: TTestApi;
let endpoint: TMetricsServer;

/** The value of one series in a Prometheus text exposition (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function metrics(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${endpoint.port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.text();
}

beforeAll(async () => {
  const url = await createTestDatabase();
  await seed(url, {
    tenants: [
      tenant(`metrics-${suffix()}`, {
        api_keys: [READER, WRITER].map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [vacancy(21, SLUG)],
      }),
    ],
  });
  api = await startTestApi(url);
  const started = await startMetricsServer(api.services.metrics, {
    port: 0,
    host: '127.0.0.1',
    log: api.services.log,
    name: 'API',
  });
  if (!started) throw new Error('metrics endpoint did not start');
  endpoint = started;
});

afterAll(async () => {
  await endpoint?.close();
  await api?.close();
});

describe('GET /metrics', () => {
  it('answers without a key, in the Prometheus text format', async () => {
    const text = await metrics();
    expect(text).toContain('# TYPE careers_http_requests_total counter');
    expect(text).toContain('# TYPE careers_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE careers_rate_limit_rejections_total counter');
    expect(text).toContain('# TYPE careers_resume_jobs_total counter');
  });

  it('counts requests and their latency per route template and status, never per raw URL', async () => {
    const before = await metrics();
    const series = (route: string, status: number, method = 'GET') =>
      `{method="${method}",route="${route}",status="${status}"}`;
    const detailOk = series('/v1/vacancies/{slug}', 200);
    const detailMissing = series('/v1/vacancies/{slug}', 404);

    for (let i = 0; i < 3; i++) expect((await api.get(`/vacancies/${SLUG}`, READER.key)).status).toBe(200);
    expect((await api.get(`/vacancies/${UNKNOWN_SLUG}`, READER.key)).status).toBe(404);
    expect((await api.get('/vacancies', undefined)).status).toBe(401);
    expect((await api.get(`/nothing-here/${UNKNOWN_SLUG}`, READER.key)).status).toBe(404);
    expect((await api.post('/health', {}, READER.key)).status).toBe(405);

    const after = await metrics();
    const delta = (name: string) => sample(after, name) - sample(before, name);
    expect(delta(`careers_http_requests_total${detailOk}`)).toBe(3);
    expect(delta(`careers_http_requests_total${detailMissing}`)).toBe(1);
    expect(delta(`careers_http_requests_total${series('/v1/vacancies', 401)}`)).toBe(1);
    expect(delta(`careers_http_requests_total${series('unmatched', 404)}`)).toBe(1);
    expect(delta(`careers_http_requests_total${series('/v1/health', 405, 'POST')}`)).toBe(1);
    expect(delta(`careers_http_request_duration_seconds_count${detailOk}`)).toBe(3);
    expect(
      sample(
        after,
        `careers_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/vacancies/{slug}",status="200"}`,
      ),
    ).toBe(sample(after, `careers_http_request_duration_seconds_count${detailOk}`));
    expect(sample(after, `careers_http_request_duration_seconds_sum${detailOk}`)).toBeGreaterThan(0);
    // Raw slugs would make a series per URL.
    expect(after).not.toContain(SLUG);
    expect(after).not.toContain(UNKNOWN_SLUG);
  });

  it('counts rate-limit rejections per operation', async () => {
    const before = sample(await metrics(), 'careers_rate_limit_rejections_total{operation="applications.create"}');
    // 10 a minute: an invalid body still uses budget (the limit is checked before validation).
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await api.post('/applications', {}, WRITER.key)).status);
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 422), 429, 429]);
    const after = await metrics();
    expect(sample(after, 'careers_rate_limit_rejections_total{operation="applications.create"}') - before).toBe(2);
    expect(sample(after, 'careers_http_requests_total{method="POST",route="/v1/applications",status="429"}')).toBe(2);
  });

  it('reports key-cache hits and misses and the database pool', async () => {
    const before = await metrics();
    const hits = () => sample(before, 'careers_api_key_cache_hits_total');
    const misses = () => sample(before, 'careers_api_key_cache_misses_total');
    const [beforeHits, beforeMisses] = [hits(), misses()];
    // Five verifications in quick succession: at least the later ones are cache hits (500 ms TTL).
    for (let i = 0; i < 5; i++) expect((await api.get('/health', READER.key)).status).toBe(200);
    const after = await metrics();
    const hitDelta = sample(after, 'careers_api_key_cache_hits_total') - beforeHits;
    const missDelta = sample(after, 'careers_api_key_cache_misses_total') - beforeMisses;
    expect(hitDelta + missDelta).toBe(5);
    expect(hitDelta).toBeGreaterThanOrEqual(1);
    // They are the verifier's own counters.
    expect(sample(after, 'careers_api_key_cache_hits_total')).toBe(api.services.keys.cacheHits);
    expect(sample(after, 'careers_api_key_cache_misses_total')).toBe(api.services.keys.cacheMisses);

    const total = sample(after, 'careers_db_pool_connections{state="total"}');
    const idle = sample(after, 'careers_db_pool_connections{state="idle"}');
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(10);
    expect(sample(after, 'careers_db_pool_connections{state="active"}')).toBe(total - idle);
    expect(sample(after, 'careers_db_pool_max_connections')).toBe(10);
    expect(after).toMatch(/^careers_db_pool_waiting_requests 0$/m);
  });

  it('reports content-cache hits, misses and size', async () => {
    const before = await metrics();
    const series = (text: string, result: string) =>
      sample(text, `careers_content_cache_requests_total{result="${result}"}`);
    // A query no other test asks: the first answer is computed, the next two come from the cache.
    for (let i = 0; i < 3; i++) expect((await api.get('/vacancies?per_page=7', READER.key)).status).toBe(200);
    const after = await metrics();
    expect(series(after, 'miss') - series(before, 'miss')).toBe(1);
    expect(series(after, 'hit') - series(before, 'hit')).toBe(2);
    expect(sample(after, 'careers_content_cache_bytes')).toBeGreaterThan(0);
    expect(sample(after, 'careers_content_cache_bytes')).toBe(api.services.content.size.bytes);
  });
});

describe('the operations port', () => {
  let apiProcess: TApiProcess | undefined;
  afterAll(async () => {
    await apiProcess?.stop();
  });

  it('listens on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(apiEnv({}).METRICS_HOST).toBe('127.0.0.1');
    expect(apiEnv({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '9999' })).toMatchObject({
      METRICS_HOST: '0.0.0.0',
      METRICS_PORT: 9999,
    });
  });

  it('serves /metrics apart from the public port, which answers 404 for it', async () => {
    apiProcess = await startApiProcess(await createTestDatabase());
    const publicRoot = apiProcess.baseUrl.replace(/\/v1$/, '');
    const onPublicPort = await fetch(`${publicRoot}/metrics`);
    expect(onPublicPort.status).toBe(404);
    expect(await onPublicPort.json()).toEqual({ message: 'Resource not found.' });
    const scraped = await fetch(apiProcess.metricsUrl);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toMatch(/^careers_http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
    // Only on the loopback interface: another address of this machine is refused.
    const other = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
    if (other) {
      const port = new URL(apiProcess.metricsUrl).port;
      await expect(fetch(`http://${other}:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    }
  });
});
