import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { startBenchEnvironment, type TBenchEnvironment } from '../src/harness.ts';
import {
  benchDocument,
  COMPARISON_NAMES,
  comparisons,
  readBenchData,
  type TBenchRequest,
  type TComparison,
} from '../src/compare/requests.ts';
import { createReferenceServer, type TReferenceServer } from '../src/reference/server.ts';

/**
 * The yardstick is only fair if it answers what the API answers: for the first requests of every comparison
 * scenario, the same status and the same body (view counters, ids and times of new rows aside; keys in any order),
 * on a small generated tenant.
 */
const PUBLIC_URL = 'https://api.bench.test';
/** Requests asked per scenario (the first ones of its sequence). */
const ASKED = 3;

let environment: TBenchEnvironment;
let reference: TReferenceServer;
let referenceUrl: string;
let scenarios: TComparison[];

beforeAll(async () => {
  environment = await startBenchEnvironment(benchDocument(600, 10), { env: { PUBLIC_URL } });
  reference = createReferenceServer(environment.databaseUrl, { publicUrl: PUBLIC_URL });
  await new Promise<void>((resolve) => reference.server.listen(0, '127.0.0.1', resolve));
  referenceUrl = `http://127.0.0.1:${(reference.server.address() as AddressInfo).port}`;
  scenarios = comparisons(await readBenchData(environment.databaseUrl));
});

afterAll(async () => {
  await reference?.close();
  await environment?.stop();
});

async function ask(base: string, request: TBenchRequest) {
  const response = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    limit: response.headers.get('x-ratelimit-limit'),
    body: await response.json(),
  };
}

/** Fields that differ between two equal answers: view counters (counted by every read) and what a write creates. */
function withoutVolatile(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), function (key, field: unknown) {
    if (key === 'views_count') return '(volatile)';
    if (this && typeof this === 'object' && 'given_name' in this && (key === 'id' || key === 'email'))
      return '(new candidate)';
    if (key === 'created_at' && this && typeof this === 'object' && 'privacy_policy_accepted' in this) return '(now)';
    // Consents are given at the application's creation.
    if (key === 'given_at' && this && typeof this === 'object' && 'talent_pool' in this) return '(now)';
    if (key === 'id' && this && typeof this === 'object' && 'privacy_policy_accepted' in this)
      return '(new application)';
    return field;
  });
}

describe('the reference answers what the API answers', () => {
  for (const name of COMPARISON_NAMES) {
    it(name, async () => {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      expect(scenario).toBeDefined();
      for (let n = 0; n < Math.min(ASKED, scenario!.distinct); n++) {
        // A scenario whose reference is asked something else: that request is the one both must answer alike, and
        // the API's own request must find something (the ratio compares two searches that return pages).
        const own = scenario!.request(n);
        const request = scenario!.referenceRequest?.(n) ?? own;
        if (request !== own) {
          const answer = await ask(environment.baseUrl.replace(/\/v1$/, ''), own);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect((answer.body as { data: unknown[] }).data.length, own.path).toBeGreaterThan(0);
        }
        // A write is asked with two different requests (each creates its own application); a read with the same one.
        const api = await ask(environment.baseUrl.replace(/\/v1$/, ''), request);
        const ours = await ask(referenceUrl, request.method === 'POST' ? scenario!.request(n + ASKED) : request);
        expect(api.status, JSON.stringify(api.body)).toBe(scenario!.name === 'post-applications' ? 201 : 200);
        expect(ours.status, JSON.stringify(ours.body)).toBe(api.status);
        expect(withoutVolatile(ours.body)).toEqual(withoutVolatile(api.body));
        expect(ours.limit).toBe(api.limit);
        // Both compute an ETag for a read (the same work); the bytes may differ in key order, which JSON does not fix.
        if (request.method === 'GET')
          expect([ours.etag, api.etag]).toEqual([
            expect.stringMatching(/^W\/"[\w-]{27}"$/),
            expect.stringMatching(/^W\/"[\w-]{27}"$/),
          ]);
      }
    });
  }

  it('answers an unknown slug and a missing key as the API does', async () => {
    const detail = scenarios.find((candidate) => candidate.name === 'detail')!.request(0);
    for (const request of [
      { ...detail, path: '/v1/vacancies/no-such-vacancy' },
      { ...detail, headers: {} },
      { ...detail, headers: { authorization: 'Bearer ck_bench_no_such_key_0000000000' } },
    ]) {
      const api = await ask(environment.baseUrl.replace(/\/v1$/, ''), request);
      const ours = await ask(referenceUrl, request);
      expect([ours.status, ours.body]).toEqual([api.status, api.body]);
    }
  });
});
