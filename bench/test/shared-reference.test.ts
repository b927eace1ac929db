import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchEnvironment, type TBenchEnvironment, type TReferenceProcess } from '../src/harness.ts';
import {
  benchDocument,
  COMPARISON_NAMES,
  comparisons,
  readBenchData,
  type TBenchRequest,
  type TComparison,
} from '../src/compare/requests.ts';
import { startSharedReference } from '../src/shared-reference.ts';

/**
 * The budgets count against `../shared/reference-server`, so it must answer the same data as the API for what
 * `pnpm bench` asks: the same statuses, totals, ids and counts (its JSON is the seed's shape, without the later
 * fields, so whole bodies are not compared).
 */
const ASKED = 3;
const document = benchDocument(600, 10);

let environment: TBenchEnvironment;
let reference: TReferenceProcess;
let scenarios: TComparison[];

beforeAll(async () => {
  environment = await startBenchEnvironment(document);
  reference = await startSharedReference(environment.databaseUrl, document);
  scenarios = comparisons(await readBenchData(environment.databaseUrl));
});

afterAll(async () => {
  await reference?.stop();
  await environment?.stop();
});

async function ask(baseUrl: string, request: TBenchRequest) {
  const response = await fetch(baseUrl.replace(/\/v1$/, '') + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type TItem = { id: number; count?: number; vacancy_count?: number };
const ids = (items: unknown) => (items as TItem[]).map((item) => item.id);

/** What both servers must agree on, by the shape of the answer. */
function comparable(body: Record<string, unknown>): unknown {
  const data = body.data;
  if (Array.isArray(data)) {
    const meta = body.meta as { total: number; current_page: number; last_page: number };
    return {
      ids: ids(data),
      counts: (data as TItem[]).map((item) => item.vacancy_count),
      total: meta.total,
      page: meta.current_page,
      last: meta.last_page,
    };
  }
  const object = data as Record<string, unknown>;
  // Facets: every group's ids and counts, in order.
  if (object && 'job_types' in object && Array.isArray(object.job_types) && !('slug' in object)) {
    return Object.fromEntries(
      ['locations', 'departments', 'job_types', 'experience_levels', 'education_levels', 'tags', 'languages'].map(
        (group) => [
          group,
          ((object[group] ?? []) as Array<TItem & { code?: string }>).map((item) => [item.id ?? item.code, item.count]),
        ],
      ),
    );
  }
  // A vacancy, or an application (its vacancy).
  const vacancy = (('vacancy' in object ? object.vacancy : object) ?? {}) as Record<string, unknown>;
  return { id: vacancy.id, slug: vacancy.slug, title: vacancy.title };
}

describe('the shared reference answers the data the API answers', () => {
  for (const name of COMPARISON_NAMES) {
    it(name, async () => {
      const scenario = scenarios.find((candidate) => candidate.name === name)!;
      for (let n = 0; n < Math.min(ASKED, scenario.distinct); n++) {
        // A scenario whose reference is asked something else (q: the substring search): both are asked that.
        const request = scenario.referenceRequest?.(n) ?? scenario.request(n);
        const api = await ask(environment.baseUrl, request);
        // A write is asked with another request (each creates its own application); a read with the same one.
        const shared = await ask(
          reference.baseUrl,
          request.method === 'POST' ? (scenario.referenceRequest ?? scenario.request)(n + ASKED) : request,
        );
        expect(api.status, JSON.stringify(api.body).slice(0, 300)).toBe(name === 'post-applications' ? 201 : 200);
        expect(shared.status, JSON.stringify(shared.body).slice(0, 300)).toBe(api.status);
        expect(comparable(shared.body)).toEqual(comparable(api.body));
      }
    });
  }
});
