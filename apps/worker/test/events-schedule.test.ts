import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { createLogger } from '@careers/core';
import { createBoss, ensureQueues, jobDefinitions } from '@careers/core/worker';
import { startEventSchedule } from '../src/events-schedule.ts';
import { TENANT_ID, startPipeline, type TPipeline } from './support/pipeline.ts';

let pipeline: TPipeline;
const bosses: PgBoss[] = [];
const schedules: Array<{ stop: () => void }> = [];
const log = createLogger('events-schedule-test');
log.level = 'silent';

beforeAll(async () => {
  pipeline = await startPipeline();
  // Two workers: the announcement is still recorded once.
  for (let i = 0; i < 2; i++) {
    const boss = createBoss(pipeline.url, { role: 'worker', superviseIntervalSeconds: 1 });
    await boss.start();
    await ensureQueues(boss, jobDefinitions);
    bosses.push(boss);
    schedules.push(
      await startEventSchedule({
        orm: pipeline.orm,
        boss,
        log,
        announceEverySeconds: 1,
        retentionDays: 30,
        sweepEverySeconds: 3600,
        pollingIntervalSeconds: 0.5,
      }),
    );
  }
});
afterAll(async () => {
  for (const schedule of schedules) schedule.stop();
  for (const boss of bosses) await boss.stop({ graceful: true, timeout: 5000 });
  await pipeline?.close();
});

describe('the scheduled event jobs', () => {
  it('announce a vacancy whose published_at passes, then its end, once each, within seconds', async () => {
    await pipeline.sql.query(
      `insert into vacancies (id, tenant_id, slug, title, language, status, channels, published_at, ends_at)
      values (7001, $1, 'timed', 'Timed', 'en', 'published', array['api'], now() + interval '1 second', now() + interval '3 seconds')`,
      [TENANT_ID],
    );
    const events = async () =>
      (
        await pipeline.sql.query(
          `select type, data->>'reason' as reason from events where object = 'vacancy' and object_id = '7001' order by position`,
        )
      ).rows;
    const started = Date.now();
    while ((await events()).length < 2 && Date.now() - started < 15_000)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await events()).toEqual([
      { type: 'vacancy.published', reason: null },
      { type: 'vacancy.unpublished', reason: 'ended' },
    ]);
    // Announced within a few seconds of ends_at (3 s after insertion), not only at the next minute.
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await events()).toHaveLength(2);
  });
});

describe('the scheduled privacy sweep', () => {
  it("erases, from two workers, a candidate whose only application passed the tenant's retention, once", async () => {
    await pipeline.sql.query(`update tenants set privacy = '{"retention_days": 30}' where id = $1`, [TENANT_ID]);
    await pipeline.sql.query(
      `insert into vacancies (id, tenant_id, slug, title, language, status, channels) values (7002, $1, 'retained', 'Retained', 'en', 'draft', array['api'])`,
      [TENANT_ID],
    );
    const { rows } = await pipeline.sql.query<{ id: number }>(
      `insert into candidates (tenant_id, slug, first_name, last_name, email, created_at) values ($1, 'swept', 'Old', 'Applicant', 'old.applicant@example.org', now() - interval '90 days') returning id`,
      [TENANT_ID],
    );
    const candidateId = rows[0]!.id;
    await pipeline.sql.query(
      `insert into applications (tenant_id, vacancy_id, candidate_id, created_at) values ($1, 7002, $2, now() - interval '60 days')`,
      [TENANT_ID, candidateId],
    );
    // The schedule's first slot already ran (with nothing to do): a new slot's job, as the next hour would send it.
    await bosses[0]!.send('privacy.sweep', {});
    const left = async () =>
      (await pipeline.sql.query(`select count(*)::int as n from candidates where id = $1`, [candidateId])).rows[0]
        .n as number;
    const started = Date.now();
    while ((await left()) > 0 && Date.now() - started < 15_000)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await left()).toBe(0);
    const erased = await pipeline.sql.query(
      `select data from events where type = 'candidate.erased' and object_id = $1`,
      [String(candidateId)],
    );
    expect(erased.rows).toEqual([{ data: { id: candidateId } }]);
  });
});
