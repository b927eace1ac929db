import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createLogger, openOrm, type TOrm } from '@careers/core';
import { createTestDatabase, JobSender, acceptResume, serviceContext, type TAcceptResume } from '@careers/core/testing';
import { installJobQueues, importTenantDocument } from '@careers/core/operations';
// Brings in the types of what the global setup provides to createTestDatabase (erased at run time).
import { FIXTURE_DIR } from '../../../../packages/core/test/fixtures/resumes/generate.ts';

export { PEOPLE, buildDocx, buildPdf } from '../../../../packages/core/test/fixtures/resumes/generate.ts';

export const TENANT_ID = 7;
export const USER_ID = 70;

export type TPipeline = {
  url: string;
  orm: TOrm;
  sql: pg.Client;
  upload: (
    resume: Omit<Partial<TAcceptResume>, 'content'> & { content: Uint8Array; mimeType: string },
  ) => Promise<string>;
  processing: (id: string) => Promise<TProcessingRow | undefined>;
  waitForStatus: (id: string, statuses: string[], timeoutMs?: number) => Promise<TProcessingRow>;
  count: (query: string, values?: unknown[]) => Promise<number>;
  close: () => Promise<void>;
};

export type TProcessingRow = {
  status: string;
  candidate_id: number | null;
  intake_id: number | null;
  error: string | null;
  attempts: number;
};

export function fixture(file: string): Buffer {
  return readFileSync(join(FIXTURE_DIR, file));
}

/** A fresh database with pg-boss installed (as `careers migrate` does) and one tenant with one user. */
export async function startPipeline(): Promise<TPipeline> {
  const url = await createTestDatabase();
  await installJobQueues(url);
  const orm = await openOrm(url);
  await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          id: TENANT_ID,
          slug: 'initech',
          name: 'Initech',
          users: [{ id: USER_ID, name: 'Peter', email: 'peter@initech.example', role: 'recruiter' }],
        },
      ],
    },
  );
  const log = createLogger('worker-test');
  const sender = new JobSender(url, (error) => log.error({ err: error }, 'sender error'));
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();

  const processing = async (id: string) => {
    const { rows } = await sql.query(
      'select status, candidate_id, intake_id, error, attempts from resume_processings where id = $1',
      [id],
    );
    return rows[0] as TProcessingRow | undefined;
  };
  return {
    url,
    orm,
    sql,
    upload: (resume) =>
      acceptResume(
        { ...serviceContext(orm.em.fork(), TENANT_ID), services: { jobs: sender } },
        {
          userId: USER_ID,
          filename: 'resume',
          createIntake: false,
          ...resume,
          content: Buffer.from(resume.content),
        },
      ),
    processing,
    waitForStatus: async (id, statuses, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await processing(id);
        if (row && statuses.includes(row.status)) return row;
        if (Date.now() > deadline)
          throw new Error(`processing ${id} still ${row?.status ?? 'missing'} after ${timeoutMs} ms`);
        await sleep(100);
      }
    },
    count: async (query, values = []) => {
      const { rows } = await sql.query(`select count(*)::int as n from (${query}) x`, values);
      return (rows[0] as { n: number }).n;
    },
    close: async () => {
      await sql.end();
      await sender.close();
      await orm.close();
    },
  };
}
