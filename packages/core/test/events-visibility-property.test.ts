import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDatabase } from './support/database.ts';

/**
 * Whatever sequence of hand-written changes a vacancy goes through (with the scheduled job running in between):
 * its published / unpublished events alternate, starting with published; `updated` only while it is visible; and
 * after each statement the last announcement matches what the API shows.
 */
let client: pg.Client;

const visibleSql = `select coalesce(status = 'published' and 'api' = any(channels) and published_at <= now() and (ends_at is null or ends_at > now()), false) as visible from vacancies where id = $1`;

const OPERATIONS = {
  status: fc
    .constantFrom('draft', 'published', 'unpublished')
    .map((v) => `update vacancies set status = '${v}' where id = $1`),
  channels: fc
    .constantFrom(`array['api']`, `array['website']`, `array['api','website']`, `array[]::text[]`)
    .map((v) => `update vacancies set channels = ${v} where id = $1`),
  published: fc
    .constantFrom(`now() - interval '1 hour'`, `now() + interval '1 hour'`, 'null')
    .map((v) => `update vacancies set published_at = ${v} where id = $1`),
  ends: fc
    .constantFrom(`now() - interval '1 hour'`, `now() + interval '1 hour'`, 'null')
    .map((v) => `update vacancies set ends_at = ${v} where id = $1`),
  title: fc
    .string({ minLength: 1, maxLength: 5 })
    .map((v) => `update vacancies set title = 't-${v.replace(/'/g, '')}' where id = $1`),
  views: fc.constant(`update vacancies set views_count = views_count + 1 where id = $1`),
  tagAdd: fc.constant(`insert into vacancy_tags (vacancy_id, tag_id) values ($1, 1) on conflict do nothing`),
  tagRemove: fc.constant(`delete from vacancy_tags where vacancy_id = $1`),
  job: fc.constant('select careers_announce_time_passing()'),
};

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`insert into tenants (id, slug, name) values (1, 'acme', 'Acme')`);
  await client.query(`insert into tags (id, tenant_id, name) values (1, 1, '"tag"')`);
});
afterAll(async () => client?.end());

describe('vacancy visibility events', () => {
  it('alternate published / unpublished, record updates only while visible, and follow every change', async () => {
    let id = 5000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(...Object.values(OPERATIONS)), { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        async (operations, deleteAtEnd) => {
          id += 1;
          await client.query(
            `insert into vacancies (id, tenant_id, slug, title, language, status, channels, published_at) values ($1, 1, $2, 'T', 'en', 'draft', array['api'], now() - interval '1 day')`,
            [id, `v-${id}`],
          );
          for (const operation of operations) {
            const params = operation.includes('$1') ? [id] : [];
            await client.query(operation, params);
            const visible = (await client.query(visibleSql, [id])).rows[0].visible as boolean;
            const announced =
              (
                await client.query(
                  `select visible from announced_visibilities where object = 'vacancy' and object_id = $1`,
                  [id],
                )
              ).rows[0]?.visible ?? false;
            expect(announced, operation).toBe(visible);
          }
          const visibleBeforeDelete = (await client.query(visibleSql, [id])).rows[0].visible as boolean;
          if (deleteAtEnd) await client.query('delete from vacancies where id = $1', [id]);
          const { rows } = await client.query(
            `select type, data->>'reason' as reason from events where object = 'vacancy' and object_id = $1 order by position`,
            [String(id)],
          );
          let visible = false;
          for (const event of rows as Array<{ type: string; reason: string | null }>) {
            if (event.type === 'vacancy.published') expect(visible).toBe(false), (visible = true);
            else if (event.type === 'vacancy.unpublished') expect(visible).toBe(true), (visible = false);
            else expect(event.type === 'vacancy.updated' && visible).toBe(true);
          }
          const stillVisible = deleteAtEnd
            ? false
            : ((await client.query(visibleSql, [id])).rows[0].visible as boolean);
          expect(visible).toBe(stillVisible);
          // Deleting a visible vacancy unpublishes it with the reason `deleted`.
          if (deleteAtEnd && visibleBeforeDelete)
            expect(rows.at(-1)).toEqual({ type: 'vacancy.unpublished', reason: 'deleted' });
        },
      ),
      { numRuns: 60 },
    );
  });
});
