import { sql, type Compilable } from 'kysely';
import { StatementTemplate } from '../../db/fast-path/index.ts';
import type { TDb } from '../../db/kysely.ts';
import { publishedOnApi } from '../vacancies/vacancy-visibility.ts';

/** The tables whose rows carry live fields the content cache lays over cached answers. */
export type TViewCountedTable = 'vacancies' | 'articles';

/**
 * Fields that change on their own, often, and are not content changes (the triggers ignore updates of only
 * these): a row's view counter and, for vacancies, the canonical URL career sites report. They are read fresh
 * with every version instead of being cached.
 */
export type TLiveFields = { views_count: number; canonical_url?: string | null };

/** Answers of rows with only a view counter live (articles) with the live counts laid over them. */
export function withLiveViews<T extends { id: number; views_count: number }>(
  items: readonly T[],
  live: Map<number, TLiveFields> | undefined,
): T[] {
  if (!live) return items as T[];
  return items.map((item) => {
    const views = live.get(item.id)?.views_count;
    return views === undefined || views === item.views_count ? item : { ...item, views_count: views };
  });
}

export type TContentState = { version: string; live: Record<TViewCountedTable, Map<number, TLiveFields>> };

type TLiveRows = Array<[number, number, (string | null)?]>;

/** The live fields of `ids` in `table` as JSON rows (both tables have `id` and `views_count`; the tenant scope applies to either). */
function liveRowsOf(db: TDb, table: TViewCountedTable, ids: number[]) {
  const counted = `${table} as counted` as 'vacancies as counted';
  const fields = table === 'vacancies' ? sql`, ${sql.ref('counted.canonical_url')}` : sql``;
  return db
    .selectFrom(counted)
    .select(
      sql<TLiveRows>`coalesce(json_agg(json_build_array(${sql.ref('counted.id')}, ${sql.ref('counted.views_count')}${fields})), '[]'::json)`.as(
        'live',
      ),
    )
    .where(sql.ref('counted.id'), '=', sql<number>`any(${ids}::int[])`);
}

/** Every read of the content cache sends it (one per batch): built, scoped and compiled once, prepared where allowed. */
const contentState = new StatementTemplate<
  Record<TViewCountedTable, readonly number[]>,
  { version: string; vacancies_live: TLiveRows; articles_live: TLiveRows }
>(
  (db, arg) =>
    db.selectFrom('tenants').select([
      sql<string>`${sql.ref('tenants.xmin')}::text`.as('version'),
      liveRowsOf(
        db,
        'vacancies',
        arg((ids) => [...ids.vacancies]),
      ).as('vacancies_live'),
      liveRowsOf(
        db,
        'articles',
        arg((ids) => [...ids.articles]),
      ).as('articles_live'),
    ]) as unknown as Compilable<{ version: string; vacancies_live: TLiveRows; articles_live: TLiveRows }>,
);

/**
 * The tenant's content version and the live fields of the given rows, in one round trip.
 * The version is the tenant row's `xmin`: the content triggers (see the content-version migration) update that
 * row in every transaction that changes the tenant's public content, and so does any change of its settings.
 */
export async function readContentState(
  db: TDb,
  tenantId: number,
  ids: Record<TViewCountedTable, readonly number[]>,
): Promise<TContentState> {
  const [row] = await contentState.execute(db, ids, tenantId);
  const live = (rows: TLiveRows | undefined) =>
    new Map(
      (rows ?? []).map(([id, views_count, canonical_url]): [number, TLiveFields] => [
        id,
        canonical_url === undefined ? { views_count } : { views_count, canonical_url },
      ]),
    );
  return {
    version: row?.version ?? '',
    live: { vacancies: live(row?.vacancies_live), articles: live(row?.articles_live) },
  };
}

type TBatch = { ids: Record<TViewCountedTable, Set<number>>; result: Promise<TContentState>; start: () => void };

type TTenantReads = { inFlight: boolean; lastStart: number; timer?: NodeJS.Timeout; next?: TBatch };

/** The least time between two content-state queries of one tenant from one process, under load. */
const DEFAULT_SPACING_MS = 1;

/**
 * Reads content states for concurrent requests of one tenant with as few queries as exactness allows: a request
 * never uses a query that was sent before it asked (it could miss a change committed in between), so every request
 * joins the next query not yet sent. One query of a tenant is in flight at a time, and under load the next one
 * starts at least `spacingMs` after the previous one started: the requests of that moment share it. Alone, a
 * request's query is sent at once (unless another was sent less than `spacingMs` before).
 */
export class ContentStateReader {
  readonly #tenants = new Map<number, TTenantReads>();
  readonly #spacingMs: number;

  constructor(options: { spacingMs?: number } = {}) {
    this.#spacingMs = options.spacingMs ?? DEFAULT_SPACING_MS;
  }

  read(
    db: TDb,
    tenantId: number,
    viewCounts?: { table: TViewCountedTable; ids: readonly number[] },
  ): Promise<TContentState> {
    let tenant = this.#tenants.get(tenantId);
    if (!tenant) {
      tenant = { inFlight: false, lastStart: Number.NEGATIVE_INFINITY };
      this.#tenants.set(tenantId, tenant);
    }
    const batch = tenant.next ?? (tenant.next = this.#batch(db, tenantId, tenant));
    if (viewCounts) for (const id of viewCounts.ids) batch.ids[viewCounts.table].add(id);
    this.#schedule(tenant);
    return batch.result;
  }

  /** Starts the tenant's next batch now, or when its spacing has passed, unless a query is in flight. */
  #schedule(tenant: TTenantReads): void {
    if (tenant.inFlight || tenant.timer || !tenant.next) return;
    const wait = tenant.lastStart + this.#spacingMs - performance.now();
    if (wait <= 0) {
      tenant.next.start();
      return;
    }
    tenant.timer = setTimeout(() => {
      tenant.timer = undefined;
      tenant.next?.start();
    }, wait);
  }

  #batch(db: TDb, tenantId: number, tenant: TTenantReads): TBatch {
    const ids = { vacancies: new Set<number>(), articles: new Set<number>() };
    let start!: () => void;
    const result = new Promise<void>((resolve) => (start = resolve)).then(() => {
      tenant.inFlight = true;
      tenant.lastStart = performance.now();
      tenant.next = undefined;
      const query = readContentState(db, tenantId, { vacancies: [...ids.vacancies], articles: [...ids.articles] });
      const done = () => {
        tenant.inFlight = false;
        // The entry stays (a few numbers per tenant): its last start spaces the next query.
        this.#schedule(tenant);
      };
      void query.then(done, done);
      return query;
    });
    return { ids, result, start };
  }
}

/**
 * Milliseconds until the next moment a vacancy or an article of the tenant becomes visible or stops being visible
 * by time alone (its `published_at`, `ends_at` or `expires_at` passes), or null when none is ahead. Cached answers
 * must not outlive it.
 */
export async function msUntilNextVisibilityChange(db: TDb): Promise<number | null> {
  const nextVacancy = (column: 'published_at' | 'ends_at') =>
    db
      .selectFrom('vacancies as v')
      .select(sql<Date>`min(${sql.ref(`v.${column}`)})`.as('at'))
      .where(publishedOnApi('v'))
      .where(sql.ref(`v.${column}`), '>', sql<Date>`now()`);
  const nextArticle = (column: 'published_at' | 'expires_at') =>
    db
      .selectFrom('articles as a')
      .select(sql<Date>`min(${sql.ref(`a.${column}`)})`.as('at'))
      .where('a.status', '=', 'published')
      .where(sql.ref(`a.${column}`), '>', sql<Date>`now()`);
  const row = await db
    .selectFrom('tenants')
    .select(
      sql<
        number | null
      >`extract(epoch from least((${nextVacancy('published_at')}), (${nextVacancy('ends_at')}), (${nextArticle('published_at')}), (${nextArticle('expires_at')})) - now()) * 1000`.as(
        'ms',
      ),
    )
    .executeTakeFirst();
  return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
}
