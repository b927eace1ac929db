import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { kyselyOf } from '../src/db/kysely.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import type { TTenantDocument } from '../src/modules/tenants/import/tenant-document.schema.ts';
import { buildDemoDocument } from '../src/demo/demo-tenant.ts';
import { readAllEventsAfter } from '../src/modules/events/events.jobs.service.ts';
import { announceTimePassing } from '../src/modules/events/events.jobs.service.ts';

let orm: MikroORM;
let document: TTenantDocument;
let cursor = 0;

const db = () => kyselyOf(orm.em.fork());
const run = (query: string) => sql.raw(query).execute(db());

/** The events committed since the last call: [type, object id, reason?]. */
async function newEvents(): Promise<Array<[string, string, string?]>> {
  const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 100_000 });
  if (rows.length > 0) cursor = rows.at(-1)!.position;
  return rows.map((r) => (r.data.reason ? [r.type, r.object_id, r.data.reason as string] : [r.type, r.object_id]));
}

const acme = () => document.tenants[0]!;
const visibleVacancy = () =>
  acme().vacancies!.find(
    (v) => v.status === 'published' && v.channels.includes('api') && v.ends_at === null && v.published_at !== null,
  )!;

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  document = buildDemoDocument();
  await importTenantDocument({ em: orm.em }, document);
});
afterAll(async () => orm?.close());

describe('vacancy and article events', () => {
  it('an import announces the visible vacancies and articles, and only those', async () => {
    const events = await newEvents();
    const visible = (
      await run(
        `select count(*)::int as n from vacancies where status = 'published' and 'api' = any(channels) and published_at <= now() and (ends_at is null or ends_at > now())`,
      )
    ).rows[0] as { n: number };
    expect(events.filter(([type]) => type === 'vacancy.published')).toHaveLength(visible.n);
    expect(events.filter(([type]) => type === 'article.published').length).toBeGreaterThan(0);
    expect(events.every(([type]) => type.endsWith('.published'))).toBe(true);
  });

  it('a re-import that changes nothing records nothing', async () => {
    await importTenantDocument({ em: orm.em }, document);
    expect(await newEvents()).toEqual([]);
  });

  it('a re-import that renames one vacancy and drafts another records updated and unpublished (draft)', async () => {
    const renamed = visibleVacancy();
    renamed.title = `${renamed.title} (renamed)`;
    const drafted = acme().vacancies!.filter(
      (v) => v.status === 'published' && v.channels.includes('api') && v.ends_at === null && v.id !== renamed.id,
    )[0]!;
    drafted.status = 'draft';
    await importTenantDocument({ em: orm.em }, document);
    // One statement: its visibility transitions are recorded before its updates.
    expect(await newEvents()).toEqual([
      ['vacancy.unpublished', String(drafted.id), 'draft'],
      ['vacancy.updated', String(renamed.id)],
    ]);
  });

  it('hand-written SQL: content, live fields, channels, links, deletion', async () => {
    const id = visibleVacancy().id;
    await run(
      `update vacancies set views_count = views_count + 5, canonical_url = 'https://x.example/v' where id = ${id}`,
    );
    expect(await newEvents()).toEqual([]);
    await run(`update vacancies set summary = 'new summary' where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.updated', String(id)]]);
    await run(
      `insert into vacancy_tags (vacancy_id, tag_id) select ${id}, t.id from tags t where t.tenant_id = 1 and t.id not in (select tag_id from vacancy_tags where vacancy_id = ${id}) limit 1`,
    );
    expect(await newEvents()).toEqual([['vacancy.updated', String(id)]]);
    // Several statements in one transaction: one update.
    await run(
      `begin; update vacancies set offer = 'o1' where id = ${id}; update vacancies set offer = 'o2' where id = ${id}; delete from vacancy_job_types where vacancy_id = ${id}; commit;`,
    );
    expect(await newEvents()).toEqual([['vacancy.updated', String(id)]]);
    await run(`update vacancies set channels = array['website'] where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.unpublished', String(id), 'channel_removed']]);
    // Not visible: changes record nothing.
    await run(`update vacancies set summary = 'hidden change' where id = ${id}`);
    expect(await newEvents()).toEqual([]);
    await run(`update vacancies set channels = array['api', 'website'] where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.published', String(id)]]);
    await run(`update vacancies set status = 'unpublished' where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.unpublished', String(id), 'unpublished']]);
    await run(`update vacancies set status = 'published' where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.published', String(id)]]);
    await run(`delete from applications where vacancy_id = ${id}; delete from vacancies where id = ${id}`);
    expect(await newEvents()).toEqual([['vacancy.unpublished', String(id), 'deleted']]);
  });

  it('a vacancy created visible, then given tags in the same transaction, is one published event', async () => {
    await run(`begin;
      insert into vacancies (id, tenant_id, slug, title, language, status, channels, published_at) values (9001, 1, 'fresh', 'Fresh', 'en', 'published', array['api'], now() - interval '1 minute');
      insert into vacancy_tags (vacancy_id, tag_id) select 9001, id from tags where tenant_id = 1 limit 2;
      commit;`);
    const events = await newEvents();
    expect(events).toEqual([['vacancy.published', '9001']]);
    const [row] = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor - 1, limit: 1 });
    expect(row).toMatchObject({ tenant: 'acme', slug: 'fresh', data: { id: 9001, slug: 'fresh' } });
  });

  it('articles: translation changes are updates, drafting and expiry unpublish', async () => {
    const { rows } = await run(
      `select a.id from articles a where a.status = 'published' and a.published_at <= now() and a.expires_at is null order by a.id limit 1`,
    );
    const id = (rows[0] as { id: number }).id;
    await run(`update articles set views_count = views_count + 1 where id = ${id}`);
    await run(`update article_translations set title = title where article_id = ${id}`);
    expect(await newEvents()).toEqual([]);
    await run(`update article_translations set title = title || '!' where article_id = ${id}`);
    expect(await newEvents()).toEqual([['article.updated', String(id)]]);
    await run(`update articles set status = 'draft' where id = ${id}`);
    expect(await newEvents()).toEqual([['article.unpublished', String(id), 'draft']]);
    await run(`update articles set status = 'published', expires_at = now() + interval '1 second' where id = ${id}`);
    expect(await newEvents()).toEqual([['article.published', String(id)]]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await announceTimePassing({ em: orm.em.fork() })).toBe(1);
    expect(await newEvents()).toEqual([['article.unpublished', String(id), 'ended']]);
  });

  it('time passing: published_at and ends_at announce once, by the scheduled job', async () => {
    await run(`insert into vacancies (id, tenant_id, slug, title, language, status, channels, published_at, ends_at)
      values (9002, 1, 'soon', 'Soon', 'en', 'published', array['api'], now() + interval '1 second', now() + interval '2 seconds')`);
    expect(await newEvents()).toEqual([]);
    expect(await announceTimePassing({ em: orm.em.fork() })).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await announceTimePassing({ em: orm.em.fork() })).toBe(1);
    expect(await announceTimePassing({ em: orm.em.fork() })).toBe(0);
    expect(await newEvents()).toEqual([['vacancy.published', '9002']]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // A writer noticing the passing first (any content change) announces it instead; the job then has nothing to do.
    await run(`update vacancies set title = 'Soon, ended' where id = 9002`);
    expect(await announceTimePassing({ em: orm.em.fork() })).toBe(0);
    expect(await newEvents()).toEqual([['vacancy.unpublished', '9002', 'ended']]);
  });
});
