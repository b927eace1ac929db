import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import type { TTenantDocument, TTenantDocumentTenant } from '../src/modules/tenants/import/tenant-document.schema.ts';
import { readAllEventsAfter } from '../src/modules/events/events.jobs.service.ts';

/**
 * Re-importing is a merge that ends where a first import of the new document ends: importing document A and then
 * B (which names every record of A, changed or not, and maybe more) leaves the same rows as importing B alone —
 * ids kept — and records exactly the events that the differences between A and B call for.
 */

type TVacancy = NonNullable<TTenantDocumentTenant['vacancies']>[number];
type TArticle = NonNullable<TTenantDocumentTenant['articles']>[number];
type TEvent = [type: string, id: string, reason?: string];

const HOUR = 3_600_000;
const past = new Date(Date.now() - 1_000 * HOUR).toISOString();
const future = new Date(Date.now() + 1_000 * HOUR).toISOString();
const lastYear = new Date(Date.now() - 9_000 * HOUR).toISOString();

const ZERO_TO = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const vacancy = (id: number): fc.Arbitrary<TVacancy> =>
  fc.record({
    id: fc.constant(id),
    slug: fc.constantFrom(`v-${id}`, `v-${id}-renamed`),
    title: fc.constantFrom('Engineer', 'Nurse', 'Chef'),
    summary: fc.constantFrom(null, '<p>One</p>', '<p>Two\tlines\nand a \\ backslash</p>'),
    language: fc.constantFrom('en', 'nl'),
    status: fc.constantFrom('draft', 'published', 'unpublished'),
    channels: fc.constantFrom(['api'], ['website'], ['api', 'website']),
    accepts_applications: fc.boolean(),
    published_at: fc.constantFrom(null, past, future),
    ends_at: fc.constantFrom(null, past, future),
    created_at: fc.constant(lastYear),
    views_count: fc.nat(3),
    canonical_url: fc.constantFrom(null, `https://jobs.example/v/${id}`),
    location_id: fc.constantFrom(null, 1, 2),
    job_type_ids: fc.subarray([1, 2, 3]),
    tag_ids: fc.subarray([1, 2, 3]),
    compensation: fc.constantFrom(null, { min: 100, max: 200, currency: 'EUR', period: 'month' as const }),
  });

const translation = (title: string) => ({ title, excerpt: null, body_html: `<p>${title}</p>` });

const article = (id: number): fc.Arbitrary<TArticle> =>
  fc.record({
    id: fc.constant(id),
    slug: fc.constant(`a-${id}`),
    type: fc.constant('news' as const),
    status: fc.constantFrom('draft', 'published'),
    is_featured: fc.boolean(),
    views_count: fc.nat(3),
    published_at: fc.constantFrom(null, past),
    expires_at: fc.constantFrom(null, past, future),
    created_at: fc.constant(lastYear),
    tag_ids: fc.subarray([1, 2, 3]),
    translations: fc
      .record({
        en: fc.constantFrom('Hello', 'Hi'),
        nl: fc.constantFrom('Hallo', 'Hoi', null),
        de: fc.constantFrom('Hallo', null),
      })
      .map((t) =>
        Object.fromEntries(
          Object.entries(t).flatMap(([language, title]) => (title === null ? [] : [[language, translation(title)]])),
        ),
      ),
  });

/** One record per id of `ids`, each drawn at random. */
const recordsOf = <T>(ids: number[], of: (id: number) => fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  ids.length === 0 ? fc.constant([]) : fc.tuple(...ids.map(of));

/** A (a subset of the pools) and B (every id of A, each record drawn again, plus maybe new ones). */
const documents = fc
  .record({
    vacancyIds: fc.subarray(ZERO_TO(6)),
    moreVacancyIds: fc.subarray(ZERO_TO(6)),
    articleIds: fc.subarray(ZERO_TO(3)),
    moreArticleIds: fc.subarray(ZERO_TO(3)),
  })
  .chain(({ vacancyIds, moreVacancyIds, articleIds, moreArticleIds }) => {
    const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
    return fc.record({
      a: fc.record({ vacancies: recordsOf(vacancyIds, vacancy), articles: recordsOf(articleIds, article) }),
      b: fc.record({
        vacancies: recordsOf(union(vacancyIds, moreVacancyIds), vacancy),
        articles: recordsOf(union(articleIds, moreArticleIds), article),
      }),
    });
  });

function tenantDocument(content: { vacancies: TVacancy[]; articles: TArticle[] }): TTenantDocument {
  return {
    tenants: [
      {
        id: 1,
        slug: 'prop',
        name: 'Prop',
        created_at: lastYear,
        locations: [
          { id: 1, slug: 'ams', name: 'Amsterdam', created_at: lastYear },
          { id: 2, slug: 'ber', name: 'Berlin', created_at: lastYear },
        ],
        job_types: ZERO_TO(3).map((id) => ({ id, name: { en: `Type ${id}` } })),
        tags: ZERO_TO(3).map((id) => ({ id, name: { en: `Tag ${id}` }, parent_id: null })),
        ...content,
      },
    ],
  };
}

// Visibility and reasons as CONTRACT.md defines them (the dates are far from now: no edge cases in time).
const isVisibleVacancy = (v: TVacancy) =>
  v.status === 'published' && v.channels.includes('api') && v.published_at === past && (v.ends_at ?? null) !== past;
const vacancyReason = (v: TVacancy) =>
  v.status !== 'published'
    ? v.status
    : !v.channels.includes('api')
      ? 'channel_removed'
      : v.ends_at === past
        ? 'ended'
        : 'unpublished';
const isVisibleArticle = (a: TArticle) =>
  a.status === 'published' && a.published_at === past && (a.expires_at ?? null) !== past;
const articleReason = (a: TArticle) =>
  a.status === 'draft' ? 'draft' : a.expires_at === past ? 'ended' : 'unpublished';

/** Public content of a record: everything but the live fields; link lists as sets. */
function content(record: TVacancy | TArticle): string {
  const { views_count: _views, ...rest } = record as TVacancy;
  const { canonical_url: _url, ...kept } = rest;
  const sorted = (ids: number[] | undefined) => [...new Set(ids ?? [])].sort();
  return JSON.stringify({
    ...kept,
    tag_ids: sorted(kept.tag_ids),
    job_type_ids: sorted((kept as TVacancy).job_type_ids),
  });
}

/** The events that going from `before` to `after` calls for, by object. */
function expectedEvents<T extends TVacancy | TArticle>(
  object: string,
  before: T[],
  after: T[],
  visible: (r: T) => boolean,
  reason: (r: T) => string,
): TEvent[] {
  const previous = new Map(before.map((r) => [r.id, r]));
  return after.flatMap((record): TEvent[] => {
    const old = previous.get(record.id);
    const [was, is] = [old !== undefined && visible(old), visible(record)];
    if (is && !was) return [[`${object}.published`, String(record.id)]];
    if (was && !is) return [[`${object}.unpublished`, String(record.id), reason(record)]];
    if (was && is && old && content(old) !== content(record)) return [[`${object}.updated`, String(record.id)]];
    return [];
  });
}

const STATE_QUERIES = {
  tenants: `select id, slug, name, created_at from tenants`,
  vacancies: `select * from vacancies`,
  vacancy_job_types: `select * from vacancy_job_types`,
  vacancy_tags: `select * from vacancy_tags`,
  articles: `select * from articles`,
  article_translations: `select tenant_id, article_id, language, title, excerpt, body_html, seo_title, seo_description from article_translations`,
  article_tags: `select * from article_tags`,
  announced_visibilities: `select * from announced_visibilities`,
};

/** Every row the import decides (serial ids of translations aside), as sorted text. */
async function state(orm: MikroORM): Promise<Record<string, string[]>> {
  const db = kyselyOf(orm.em.fork());
  const out: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(STATE_QUERIES)) {
    const { rows } = await sql<{ row: string }>`select row_to_json(t)::text as row from (${sql.raw(query)}) t`.execute(
      db,
    );
    out[name] = rows.map((r) => r.row).sort();
  }
  return out;
}

const sortEvents = (events: TEvent[]) =>
  [...events].sort((x, y) => (x.join() < y.join() ? -1 : x.join() > y.join() ? 1 : 0));

let merged: MikroORM;
let fresh: MikroORM;

beforeAll(async () => {
  [merged, fresh] = await Promise.all([openOrm(await createTestDatabase()), openOrm(await createTestDatabase())]);
});
afterAll(async () => Promise.all([merged?.close(true), fresh?.close(true)]));

async function lastPosition(orm: MikroORM): Promise<number> {
  const { rows } = await sql<{ p: number }>`select coalesce(max(position), 0)::int as p from events`.execute(
    kyselyOf(orm.em.fork()),
  );
  return rows[0]?.p ?? 0;
}

describe('re-importing a tenant document', () => {
  it('A then B gives the rows of B alone, ids kept, and records exactly the events of the differences', async () => {
    await fc.assert(
      fc.asyncProperty(documents, async ({ a, b }) => {
        // A tenant deleted takes its rows along (and records nothing): each run starts from an empty tenant.
        for (const orm of [merged, fresh]) await orm.em.fork().execute('delete from tenants');
        await importTenantDocument({ em: merged.em }, tenantDocument(a));
        const cursor = await lastPosition(merged);
        await importTenantDocument({ em: merged.em }, tenantDocument(b));
        await importTenantDocument({ em: fresh.em }, tenantDocument(b));

        const [mergedState, freshState] = await Promise.all([state(merged), state(fresh)]);
        expect(mergedState).toEqual(freshState);
        expect(mergedState.vacancies?.map((row) => (JSON.parse(row) as { id: number }).id).sort()).toEqual(
          b.vacancies.map((v) => v.id).sort(),
        );

        const events = await readAllEventsAfter({ em: merged.em.fork() }, { after: cursor, limit: 1_000 });
        const recorded = events.map(
          (e): TEvent => (e.data.reason ? [e.type, e.object_id, e.data.reason as string] : [e.type, e.object_id]),
        );
        const expected = [
          ...expectedEvents('vacancy', a.vacancies, b.vacancies, isVisibleVacancy, vacancyReason),
          ...expectedEvents('article', a.articles, b.articles, isVisibleArticle, articleReason),
        ];
        expect(sortEvents(recorded)).toEqual(sortEvents(expected));
      }),
      { numRuns: 40 },
    );
  });
});
