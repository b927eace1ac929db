import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { missingBinaries } from '../src/binaries.ts';
import { startCluster, startUnits, TENANT_KEY, type TCluster } from '../src/cluster.ts';
import { runLoad, send, type TLoadReport, type TRequestSpec } from '../src/load.ts';
import { startProxy, type TProxy } from '../src/proxy.ts';
import { apiErrors, reportFigures } from '../src/report.ts';
import { startApi, type TUnit } from '../src/units.ts';

/**
 * Issue #17 on real servers: a PostgreSQL 15 primary, a streaming replica that applies commits 300 ms late
 * (always behind, so reading it where the primary is needed would show), PgBouncer 1.18 in transaction pooling in
 * front of both, three API processes and two workers. The scenarios run in order on the one cluster.
 */
const missing = missingBinaries();
const APPLY_DELAY_MS = 300;
/** Every unit renders links from this address, so answers of different processes compare byte for byte. */
const PUBLIC_URL = 'https://api.careers.test';
const LOAD_CONNECTIONS = 8;
/** How long the proxy sends a process no new connection before its SIGTERM. */
const DEREGISTRATION_MS = 300;

type TJson = Record<string, any>;

describe.skipIf(missing)(`a primary, a replica and PgBouncer${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let cluster: TCluster;
  let units: Awaited<ReturnType<typeof startUnits>>;
  let apis: TUnit[];
  let reference: TUnit;
  let proxy: TProxy;
  let slugs: string[] = [];
  let readMix: () => TRequestSpec;
  let writeSeq = 0;

  const baseOf = (unit: TUnit) => `http://127.0.0.1:${unit.port}`;
  const get = async (unit: TUnit, path: string, key = TENANT_KEY): Promise<{ status: number; json: TJson }> => {
    const response = await send(baseOf(unit), { path, key });
    return { status: response.status, json: JSON.parse(response.body) as TJson };
  };
  const post = async (
    unit: TUnit,
    path: string,
    body: unknown,
    key: string,
  ): Promise<{ status: number; json: TJson }> => {
    const response = await send(baseOf(unit), { method: 'POST', path, body, key });
    return { status: response.status, json: JSON.parse(response.body) as TJson };
  };
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const writerKey = () => pick(cluster.writerKeys);

  /**
   * A canonical-URL report that the load notes when it is acknowledged (to check none is lost). Reports to one vacancy
   * go one at a time: two concurrent ones may commit in another order than their answers arrive. A report that failed
   * may or may not have been stored, so it is noted as possible.
   */
  const canonicalWrite = (writes: TCanonicalWrites): TRequestSpec => {
    // The load has far fewer connections than there are vacancies: a free one is found at once.
    let free = pick(slugs);
    while (writes.inFlight.has(free)) free = pick(slugs);
    writes.inFlight.add(free);
    const url = `https://careers.bench.example/jobs/${free}/${++writeSeq}`;
    return {
      method: 'POST',
      path: `/v1/vacancies/${free}/canonical-url`,
      body: { url },
      key: writerKey(),
      onAnswer: (response) => {
        if (response.status === 200) writes.acknowledged.set(free, url);
      },
      onSettled: (answered) => {
        writes.inFlight.delete(free);
        if (!answered) writes.possible.set(free, [...(writes.possible.get(free) ?? []), url]);
      },
    };
  };

  /** Runs load through the proxy while `during` does its work; returns what the load saw. */
  const underLoad = async (next: () => TRequestSpec, during: () => Promise<void>): Promise<TLoadReport> => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const load = runLoad(proxy.url, LOAD_CONNECTIONS, next, finished);
    try {
      await during();
    } finally {
      finish();
    }
    return load;
  };

  beforeAll(async () => {
    cluster = await startCluster({ vacancies: 3000, replicaApplyDelayMs: APPLY_DELAY_MS, writerKeys: 6 });
    units = await startUnits(cluster, { apis: 3, workers: 2 }, { PUBLIC_URL });
    apis = units.apis;
    // The reference answers from the primary alone (no DATABASE_READ_URL).
    const { DATABASE_READ_URL: _replica, ...primaryOnly } = cluster.apiEnv;
    reference = await startApi('reference', { ...primaryOnly, PUBLIC_URL });
    proxy = await startProxy(apis.map((api) => api.port));
    for (const page of [1, 2, 3, 4, 5]) {
      const list = await get(reference, `/v1/vacancies?per_page=100&page=${page}`);
      slugs.push(
        ...(list.json.data as TJson[]).filter((v) => v.accepts_applications !== false).map((v) => v.slug as string),
      );
    }
    const facets = (await get(reference, '/v1/vacancies/facets')).json.data as Record<string, Array<{ id: number }>>;
    const locations = (facets.locations ?? []).map((entry) => entry.id);
    // Cache keys the processes have not seen: most reads of the mix are computed, not served from memory.
    readMix = () => {
      const roll = Math.random();
      const path =
        roll < 0.35
          ? `/v1/vacancies?page=${1 + Math.floor(Math.random() * 60)}&per_page=${pick([10, 20, 25])}`
          : roll < 0.55
            ? `/v1/vacancies/facets?language=${pick(['en', 'nl'])}&location_id=${pick(locations)}`
            : roll < 0.85
              ? `/v1/vacancies/${pick(slugs)}`
              : `/v1/locations?include_vacancy_count=true&page=${1 + Math.floor(Math.random() * 4)}`;
      return { path, key: TENANT_KEY };
    };
  });

  afterAll(async () => {
    await proxy?.close();
    await reference?.stop();
    await units?.stop();
    await cluster?.stop();
  });

  it('answers reads through the replica exactly as the primary does (lists, facets, details, locations)', async () => {
    await cluster.replicaCaughtUp();
    const facets = (await get(reference, '/v1/vacancies/facets')).json.data as Record<string, Array<{ id: number }>>;
    const jobType = facets.job_types?.[0]?.id;
    const tag = facets.tags?.[3]?.id;
    const location = facets.locations?.[0]?.id;
    const paths = [
      '/v1/vacancies',
      '/v1/vacancies?page=7&per_page=50',
      '/v1/vacancies?sort=title&sort_direction=asc&per_page=100',
      `/v1/vacancies?job_types[]=${jobType}&tags[]=${tag}`,
      `/v1/vacancies?location_id=${location}&language=nl`,
      '/v1/vacancies?search=engineer',
      '/v1/vacancies/facets',
      `/v1/vacancies/facets?location_id=${location}`,
      `/v1/vacancies/facets?tags[]=${tag}&language=en`,
      ...slugs.slice(0, 12).map((slug) => `/v1/vacancies/${slug}`),
      '/v1/locations',
      '/v1/locations?include_vacancy_count=true',
      '/v1/locations?include_vacancy_count=true&page=2',
    ];
    const scansBefore = await vacancyScans(cluster);
    for (const [i, path] of paths.entries()) {
      const viaReplica = await get(apis[i % apis.length] as TUnit, path);
      const fromPrimary = await get(reference, path);
      expect(viaReplica.status, path).toBe(200);
      expect(withoutViews(viaReplica.json), path).toEqual(withoutViews(fromPrimary.json));
    }
    // The replica did the work: its vacancy table was read (statistics reach the view within ~10 s).
    await expect
      .poll(async () => (await vacancyScans(cluster)) - scansBefore, { timeout: 15_000, interval: 500 })
      .toBeGreaterThanOrEqual(paths.length);
  });

  it('shows a canonical URL reported on one API process at once on the others, although the replica is behind', async () => {
    for (let i = 0; i < 12; i++) {
      const slug = slugs[100 + i] as string;
      const url = `https://careers.bench.example/jobs/${slug}/read-your-writes`;
      const writer = apis[i % 3] as TUnit;
      const stored = await post(writer, `/v1/vacancies/${slug}/canonical-url`, { url }, writerKey());
      expect(stored.status).toBe(200);
      for (const reader of apis.filter((api) => api !== writer)) {
        const detail = await get(reader, `/v1/vacancies/${slug}`);
        expect(detail.json.data?.url, `${slug} via ${reader.name}`).toBe(url);
        const listed = await get(reader, `/v1/vacancies?per_page=100&page=2`);
        for (const vacancy of listed.json.data as TJson[]) if (vacancy.slug === slug) expect(vacancy.url).toBe(url);
      }
    }
  });

  it('finds an application posted on one API process at once on another', async () => {
    for (let i = 0; i < 6; i++) {
      const email = `ryw.${i}.${Date.now()}@example.org`;
      const applied = await post(
        apis[i % 3] as TUnit,
        '/v1/applications',
        { vacancy: slugs[200 + i], candidate: { given_name: 'Ada', family_name: `Lovelace ${i}`, email } },
        cluster.writerKeys[i % cluster.writerKeys.length] as string,
      );
      expect(applied.status, JSON.stringify(applied.json)).toBe(201);
      const candidate = await get(apis[(i + 1) % 3] as TUnit, `/v1/candidates/${applied.json.data.candidate.id}`);
      expect(candidate.status).toBe(200);
      expect(candidate.json.data.email).toBe(email);
    }
  });

  it('falls back to the primary within seconds when the replica stops, without a failed request', async () => {
    let stoppedAt = 0;
    const report = await underLoad(readMix, async () => {
      await sleep(2_000);
      stoppedAt = Date.now();
      await cluster.replica!.stop();
      await sleep(6_000);
      await cluster.replica!.start();
      await sleep(4_000);
    });
    reportFigures('replica stop', {
      requests: report.requests,
      failures: report.failures.length,
      maxLatencyMs: report.maxLatencyMs,
      rate: report.rate,
      statuses: report.statuses,
    });
    expect(stoppedAt).toBeGreaterThan(0);
    expect(report.failures).toEqual([]);
    expect(report.maxLatencyMs).toBeLessThan(5_000);
    expect(report.requests).toBeGreaterThan(100);
  });

  it('recovers from a PgBouncer restart without losing an acknowledged write', async () => {
    const writes = canonicalWrites();
    let window = { from: 0, to: 0 };
    const report = await underLoad(
      () => (Math.random() < 0.2 ? canonicalWrite(writes) : readMix()),
      async () => {
        await sleep(2_000);
        window.from = Date.now();
        await cluster.bouncer.stop();
        await cluster.bouncer.start();
        window.to = Date.now();
        await sleep(5_000);
      },
    );
    const failuresAfterWindow = report.failureTimes.filter((t) => report.startedAt + t > window.to + 3_000);
    reportFigures('pgbouncer restart', {
      requests: report.requests,
      failures: report.failures.length,
      restartMs: window.to - window.from,
      firstFailures: report.failures.slice(0, 3),
      statuses: report.statuses,
      apiErrors: apiErrors(apis),
    });
    // Issue #32: no failed request. A connection refused while it is down sent nothing; a statement its shutdown cut
    // runs again when it may (a read in a transaction of its own, a write whose COMMIT was not sent: fresh-connection.ts).
    expect(report.failures).toEqual([]);
    expect(failuresAfterWindow).toEqual([]);
    expect(writes.acknowledged.size).toBeGreaterThan(10);
    expect(lostWrites(writes, await storedUrls(cluster, [...writes.acknowledged.keys()]))).toEqual([]);
    for (const worker of units.workers) expect(worker.exited(), worker.name).toBe(false);
  });

  it('restarts the API processes one at a time under load without a failed request', async () => {
    const writes = canonicalWrites();
    const exitCodes: Array<number | null> = [];
    const report = await underLoad(
      () => (Math.random() < 0.1 ? canonicalWrite(writes) : readMix()),
      async () => {
        await sleep(1_000);
        for (const api of apis) {
          // As a load balancer deregisters a target before stopping it: a connection accepted but whose request has
          // not arrived yet counts as idle, and SIGTERM's close ends it (the client sees a hang-up it cannot retry).
          proxy.leave(api.port);
          await sleep(DEREGISTRATION_MS);
          exitCodes.push(await api.stop());
          await api.restart();
          proxy.join(api.port);
          await sleep(500);
        }
      },
    );
    reportFigures('rolling restart', {
      requests: report.requests,
      failures: report.failures.length,
      refusedRetries: proxy.refusedRetries(),
      rate: report.rate,
      statuses: report.statuses,
    });
    expect(exitCodes).toEqual([0, 0, 0]);
    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(100);
    expect(lostWrites(writes, await storedUrls(cluster, [...writes.acknowledged.keys()]))).toEqual([]);
    // Three stops and starts of a process each: 60–66 s at load 16–20 here, so 120 s was too tight on a crowded machine.
  }, 240_000);
});

/** The canonical-URL reports of a load: the last acknowledged per vacancy, the failed ones, those in flight. */
type TCanonicalWrites = { acknowledged: Map<string, string>; possible: Map<string, string[]>; inFlight: Set<string> };

function canonicalWrites(): TCanonicalWrites {
  return { acknowledged: new Map(), possible: new Map(), inFlight: new Set() };
}

/**
 * Vacancies whose stored URL is neither the last acknowledged report nor one of the failed reports (which may have been
 * stored without an answer reaching the client): acknowledged writes that were lost.
 */
function lostWrites(
  writes: TCanonicalWrites,
  stored: Map<string, string>,
): Array<{ slug: string; acknowledged: string; stored: string | undefined }> {
  return [...writes.acknowledged]
    .filter(
      ([slug, url]) =>
        stored.get(slug) !== url && !(writes.possible.get(slug) ?? []).includes(stored.get(slug) as string),
    )
    .map(([slug, url]) => ({ slug, acknowledged: url, stored: stored.get(slug) }));
}

/** Views are counted by every detail read and flushed in batches: the one field two reads may rightly differ in. */
function withoutViews(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutViews);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'views_count')
        .map(([key, v]) => [key, withoutViews(v)]),
    );
  return value;
}

/** The canonical URLs stored on the primary for these vacancies (what "no acknowledged write lost" is about). */
async function storedUrls(cluster: TCluster, slugs: string[]): Promise<Map<string, string>> {
  const list = slugs.map((slug) => `'${slug.replaceAll("'", "''")}'`).join(',');
  const rows =
    slugs.length === 0
      ? []
      : await cluster.primary.sql(`select slug, canonical_url from vacancies where slug in (${list})`);
  return new Map(rows.map((row) => [row.slug as string, row.canonical_url as string]));
}

/** Scans of the vacancy table on the replica so far (only the API reads it there). */
async function vacancyScans(cluster: TCluster): Promise<number> {
  const [row] = await cluster.replica!.sql(
    `select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_user_tables where relname = 'vacancies'`,
  );
  return Number(row?.scans ?? 0);
}
