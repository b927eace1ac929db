import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { TOrm } from '../src/db/orm.ts';
import { startJobDatabase, type TJobDatabase } from './support/job-database.ts';
import { createLogger } from '../src/lib/logger.ts';
import { AppError } from '../src/lib/errors.ts';
import { createBoss } from '../src/jobs/boss.ts';
import type { JobSender } from '../src/jobs/sender.ts';
import { processResumeJob } from '../src/jobs/process-resume.job.ts';
import { acceptResume, type TAcceptResume } from '../src/modules/resumes/resume-intake.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { EXHAUSTED_ERROR, markResumeExhausted, processResume } from '../src/modules/resumes/process-resume.ts';
import { candidateSlugBase } from '../src/modules/resumes/resume-candidate.ts';
import { DOC_MIME, DOCX_MIME, PDF_MIME } from '../src/modules/resumes/resume-file.ts';
import { FIXTURE_DIR, PEOPLE, buildDocx, buildPdf } from './fixtures/resumes/generate.ts';

const log = createLogger('resume-pipeline-test');
let url: string;
let orm: TOrm;
let sender: JobSender;
let boss: PgBoss;
let client: pg.Client;
let db: TJobDatabase;

const ACME = 1;
const GLOBEX = 2;
/** Users of acme: 11, 12, 13; of globex: 21. */
const USERS = { ada: 11, bob: 12, cy: 13, globex: 21 };

function fixture(file: string): Buffer {
  return readFileSync(join(FIXTURE_DIR, file));
}

function tenant(id: number, slug: string, users: Array<{ id: number; name: string }>, candidates: unknown[] = []) {
  return {
    id,
    slug,
    name: slug.toUpperCase(),
    default_language: 'en',
    api_keys: [],
    users: users.map((user) => ({
      id: user.id,
      name: user.name,
      email: `${user.name.toLowerCase()}@${slug}.example`,
      role: 'recruiter',
    })),
    candidates,
  };
}

beforeAll(async () => {
  db = await startJobDatabase(
    {
      tenants: [
        tenant(
          ACME,
          'acme',
          [
            { id: USERS.ada, name: 'Ada' },
            { id: USERS.bob, name: 'Bob' },
            { id: USERS.cy, name: 'Cy' },
          ],
          [
            // Stored with capitals: the resume's lower-cased email must still find it.
            {
              id: 500,
              slug: 'kim-existing',
              user_id: USERS.cy,
              first_name: 'Kim',
              last_name: 'Existing',
              email: 'Kim.Existing@Example.com',
              phone: '+31101234567',
              status: 'active_mediation',
            },
          ],
        ),
        tenant(
          GLOBEX,
          'globex',
          [{ id: USERS.globex, name: 'Gail' }],
          [
            {
              id: 600,
              slug: 'jane-elsewhere',
              user_id: USERS.globex,
              first_name: 'Jane',
              last_name: 'Elsewhere',
              email: PEOPLE.pdf.expected.email,
              status: 'potential',
            },
          ],
        ),
      ],
    },
    log,
  );
  ({ url, orm, sender, client } = db);
  boss = createBoss(url, { role: 'sender' });
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await db?.close();
});

async function upload(
  resume: Omit<Partial<TAcceptResume>, 'content'> & { content: Uint8Array; mimeType: string },
): Promise<string> {
  return acceptResume(
    { ...serviceContext(orm.em.fork(), ACME), services: { jobs: sender } },
    {
      userId: USERS.ada,
      filename: 'resume',
      createIntake: false,
      ...resume,
      content: Buffer.from(resume.content),
    },
  );
}

async function run(processingId: string, tenantId = ACME) {
  return processResume(orm, { processingId, tenantId }, { log });
}

async function processing(id: string) {
  const { rows } = await client.query(
    'select status, candidate_id, intake_id, error, attempts, user_id, size, filename, mime_type from resume_processings where id = $1',
    [id],
  );
  return rows[0] as
    | {
        status: string;
        candidate_id: number | null;
        intake_id: number | null;
        error: string | null;
        attempts: number;
        user_id: number;
        size: number;
        filename: string;
        mime_type: string;
      }
    | undefined;
}

async function candidate(id: number) {
  const { rows } = await client.query('select * from candidates where id = $1', [id]);
  const users = await client.query('select user_id from candidate_users where candidate_id = $1 order by user_id', [
    id,
  ]);
  return { ...rows[0], user_ids: users.rows.map((row: { user_id: number }) => row.user_id) };
}

async function count(sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await client.query(`select count(*)::int as n from (${sql}) x`, values);
  return (rows[0] as { n: number }).n;
}

describe('POST /candidates storage: resume, record and job in one transaction', () => {
  it('commits the record (queued, with the bytes) and the job (id = processing id, ids only in the payload)', async () => {
    const bytes = fixture(PEOPLE.pdf.file);
    const id = await upload({ content: bytes, mimeType: PDF_MIME, filename: 'jane.pdf', createIntake: true });
    expect(await processing(id)).toMatchObject({
      status: 'queued',
      candidate_id: null,
      intake_id: null,
      error: null,
      attempts: 0,
      size: bytes.byteLength,
      filename: 'jane.pdf',
      mime_type: PDF_MIME,
    });
    const { rows } = await client.query('select content, create_intake from resume_processings where id = $1', [id]);
    expect(Buffer.compare(rows[0].content, bytes)).toBe(0);
    expect(rows[0].create_intake).toBe(true);
    const jobs = await boss.findJobs(processResumeJob.name, { id });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.data).toEqual({ processingId: id, tenantId: ACME });
    expect(jobs[0]).toMatchObject({
      state: 'created',
      deadLetter: processResumeJob.deadLetter,
      retryLimit: processResumeJob.queue.retryLimit,
    });
  });

  it('rolls back the record when the job cannot be written, and reports PROCESSING_FAILED', async () => {
    const before = await count('select 1 from resume_processings');
    const jobsBefore = (await boss.findJobs(processResumeJob.name)).length;
    await client.query(
      `create or replace function fail_job_insert() returns trigger language plpgsql as $$ begin raise exception 'job table unavailable'; end $$`,
    );
    // pgboss.job is partitioned per queue table: a trigger on it covers every partition.
    try {
      await client.query(
        'create trigger fail_job_insert before insert on pgboss.job for each row execute function fail_job_insert()',
      );
      const error = await upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(500);
      expect((error as AppError).toBody()).toEqual({
        message: 'An unexpected error occurred while processing the resume.',
        error: 'PROCESSING_FAILED',
      });
    } finally {
      await client.query('drop trigger if exists fail_job_insert on pgboss.job');
    }
    expect(await count('select 1 from resume_processings')).toBe(before);
    expect((await boss.findJobs(processResumeJob.name)).length).toBe(jobsBefore);
  });

  it('runs the transaction again when a switchover ends its session after the record was written: stored once, queued once', async () => {
    const before = await count('select 1 from resume_processings');
    // The first job insert ends its own session (what a fast shutdown does to every session); a sequence, because it
    // must remember across the rolled-back transaction.
    await client.query('create sequence if not exists end_session_once');
    await client.query(
      `create or replace function end_session_once() returns trigger language plpgsql as $$
       begin if nextval('end_session_once') = 1 then perform pg_terminate_backend(pg_backend_pid()); end if; return new; end $$`,
    );
    await client.query(
      'create trigger end_session_once before insert on pgboss.job for each row execute function end_session_once()',
    );
    try {
      const id = await upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME });
      expect((await client.query('select last_value from end_session_once')).rows[0].last_value).toBe('2');
      expect(await processing(id)).toMatchObject({ status: 'queued' });
      expect(await boss.findJobs(processResumeJob.name, { id })).toHaveLength(1);
      expect(await count('select 1 from resume_processings')).toBe(before + 1);
    } finally {
      await client.query('drop trigger end_session_once on pgboss.job');
      await client.query('drop sequence end_session_once');
    }
  });

  it('writes no job when the record cannot be written', async () => {
    const jobsBefore = (await boss.findJobs(processResumeJob.name)).length;
    const before = await count('select 1 from resume_processings');
    await client.query(
      `create or replace function fail_processing_insert() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`,
    );
    await client.query(
      'create trigger fail_processing_insert before insert on resume_processings for each row execute function fail_processing_insert()',
    );
    try {
      await expect(upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME })).rejects.toMatchObject({
        code: 'PROCESSING_FAILED',
      });
    } finally {
      await client.query('drop trigger fail_processing_insert on resume_processings');
    }
    expect(await count('select 1 from resume_processings')).toBe(before);
    expect((await boss.findJobs(processResumeJob.name)).length).toBe(jobsBefore);
  });
});

describe('the resume job', () => {
  it.each([
    { kind: 'PDF', mime: PDF_MIME, person: PEOPLE.pdf },
    { kind: 'DOCX', mime: DOCX_MIME, person: PEOPLE.docx },
    { kind: 'legacy DOC', mime: DOC_MIME, person: PEOPLE.doc },
  ])('turns a $kind resume into a completed candidate', async ({ mime, person }) => {
    const id = await upload({ content: fixture(person.file), mimeType: mime, userId: USERS.bob });
    const outcome = await run(id);
    expect(outcome).toMatchObject({ status: 'completed', intakeId: null, createdCandidate: true });
    const record = await processing(id);
    expect(record).toMatchObject({ status: 'completed', intake_id: null, error: null, attempts: 1 });
    const created = await candidate(record!.candidate_id!);
    expect(created).toMatchObject({
      tenant_id: ACME,
      first_name: person.expected.firstName,
      last_name: person.expected.lastName,
      email: person.expected.email,
      phone: person.expected.phone,
      linkedin_url: person.expected.linkedinUrl,
      status: 'potential',
      needs_completion: false,
      slug: candidateSlugBase(person.expected.firstName, person.expected.lastName),
      user_ids: [USERS.bob],
    });
  });

  it('fails a PDF declared as DOCX with a readable error, creating nothing', async () => {
    const candidates = await count('select 1 from candidates');
    const id = await upload({ content: fixture(PEOPLE.pdf.file), mimeType: DOCX_MIME });
    expect(await run(id)).toEqual({
      status: 'failed',
      error: 'The file is not a DOCX document (detected: application/pdf).',
    });
    expect(await processing(id)).toMatchObject({
      status: 'failed',
      candidate_id: null,
      intake_id: null,
      error: 'The file is not a DOCX document (detected: application/pdf).',
    });
    expect(await count('select 1 from candidates')).toBe(candidates);
  });

  it('fails a corrupt PDF with a readable error, creating nothing', async () => {
    const candidates = await count('select 1 from candidates');
    const corrupt = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
    ]);
    const id = await upload({ content: corrupt, mimeType: PDF_MIME, createIntake: true });
    expect(await run(id)).toEqual({ status: 'failed', error: 'The PDF could not be read.' });
    expect(await processing(id)).toMatchObject({
      status: 'failed',
      error: 'The PDF could not be read.',
      candidate_id: null,
      intake_id: null,
    });
    expect(await count('select 1 from candidates')).toBe(candidates);
    expect(await count('select 1 from intakes')).toBe(0);
  });

  it('updates the candidate that already has the email (case-insensitive) and associates the second user', async () => {
    const lines = ['Kim Newname', 'Email: kim.existing@example.com', 'Mobile: +31 6 55512345'];
    const first = await upload({ content: await buildPdf(lines), mimeType: PDF_MIME, userId: USERS.ada });
    const second = await upload({ content: await buildDocx(lines), mimeType: DOCX_MIME, userId: USERS.bob });
    const before = await count('select 1 from candidates where tenant_id = $1', [ACME]);
    expect(await run(first)).toMatchObject({ status: 'completed', candidateId: 500, createdCandidate: false });
    expect(await run(second)).toMatchObject({ status: 'completed', candidateId: 500, createdCandidate: false });
    expect(await count('select 1 from candidates where tenant_id = $1', [ACME])).toBe(before);
    expect(await candidate(500)).toMatchObject({
      email: 'Kim.Existing@Example.com',
      first_name: 'Kim',
      last_name: 'Newname',
      phone: '+31655512345',
      status: 'active_mediation',
      slug: 'kim-existing',
      user_ids: [USERS.ada, USERS.bob, USERS.cy],
    });
  });

  it('creates one candidate for the same new email uploaded twice, associated with both users', async () => {
    const lines = ['Noor Haddad', 'noor.haddad@example.org', 'Tel: 020 765 4321'];
    const first = await upload({ content: await buildPdf(lines), mimeType: PDF_MIME, userId: USERS.ada });
    const second = await upload({ content: await buildPdf(lines), mimeType: PDF_MIME, userId: USERS.cy });
    // Processed at the same moment: the email lock lets one create and the other update.
    const [a, b] = await Promise.all([run(first), run(second)]);
    expect(a.status).toBe('completed');
    expect(b.status).toBe('completed');
    const ids = await client.query(`select id from candidates where lower(email) = 'noor.haddad@example.org'`);
    expect(ids.rows).toHaveLength(1);
    const id = (ids.rows[0] as { id: number }).id;
    expect(
      [a, b].map((outcome) => (outcome.status === 'completed' ? outcome.createdCandidate : undefined)).sort(),
    ).toEqual([false, true]);
    expect(await candidate(id)).toMatchObject({
      first_name: 'Noor',
      last_name: 'Haddad',
      phone: '+31207654321',
      user_ids: [USERS.ada, USERS.cy],
    });
  });

  it('does not match a candidate of another tenant with the same email', async () => {
    const id = await upload({ content: fixture(PEOPLE.pdf.file), mimeType: PDF_MIME, userId: USERS.cy });
    const outcome = await run(id);
    expect(outcome).toMatchObject({ status: 'completed' });
    const { candidate_id: candidateId } = (await processing(id))!;
    expect(candidateId).not.toBe(600);
    expect(await candidate(candidateId!)).toMatchObject({ tenant_id: ACME, email: PEOPLE.pdf.expected.email });
    expect(await candidate(600)).toMatchObject({
      tenant_id: GLOBEX,
      first_name: 'Jane',
      last_name: 'Elsewhere',
      user_ids: [USERS.globex],
    });
  });

  it('creates one intake with create_intake, even when the job runs twice or twice at once', async () => {
    const intakes = await count('select 1 from intakes');
    const candidates = await count('select 1 from candidates');
    const lines = ['Marta Kowalska', 'marta.kowalska@example.pl', '+48 22 123 45 67'];
    const id = await upload({
      content: await buildPdf(lines),
      mimeType: PDF_MIME,
      userId: USERS.bob,
      createIntake: true,
    });
    const [a, b] = await Promise.all([run(id), run(id)]);
    const again = await run(id);
    const outcomes = [a, b].map((outcome) => outcome.status).sort();
    expect(outcomes).toEqual(['completed', 'skipped']);
    expect(again).toEqual({ status: 'skipped', reason: 'finished' });
    expect(await count('select 1 from candidates')).toBe(candidates + 1);
    expect(await count('select 1 from intakes')).toBe(intakes + 1);
    const record = await processing(id);
    expect(record).toMatchObject({ status: 'completed' });
    const { rows } = await client.query('select tenant_id, candidate_id, user_id, status from intakes where id = $1', [
      record!.intake_id,
    ]);
    expect(rows[0]).toEqual({
      tenant_id: ACME,
      candidate_id: record!.candidate_id,
      user_id: USERS.bob,
      status: 'open',
    });
  });

  it('creates a candidate that needs completion from a resume without an email', async () => {
    const id = await upload({
      content: await buildDocx(['Tomás Ferreira', 'Warehouse lead', 'Telefoon: 010 123 4567']),
      mimeType: DOCX_MIME,
    });
    const outcome = await run(id);
    expect(outcome.status).toBe('completed');
    const created = await candidate((await processing(id))!.candidate_id!);
    expect(created).toMatchObject({
      first_name: 'Tomás',
      last_name: 'Ferreira',
      email: null,
      phone: '+31101234567',
      needs_completion: true,
      slug: 'tomas-ferreira',
    });
  });

  it('creates a candidate that needs completion, never named after a label, when no name can be read', async () => {
    const lines = [
      'Curriculum Vitae',
      'Personal details',
      'City: Kraków',
      'E-mail: info@labels.example',
      'Phone: +48 512 345 678',
    ];
    const id = await upload({ content: await buildDocx(lines), mimeType: DOCX_MIME });
    expect((await run(id)).status).toBe('completed');
    const created = await candidate((await processing(id))!.candidate_id!);
    expect(created).toMatchObject({
      first_name: 'Unknown',
      last_name: '',
      email: 'info@labels.example',
      phone: '+48512345678',
      needs_completion: true,
    });
  });

  it('gives every candidate a unique slug, also for namesakes', async () => {
    const ids: string[] = [];
    for (const email of ['p.jansen@example.com', 'piet.jansen@example.net', null]) {
      ids.push(
        await upload({ content: await buildPdf(['Piet Jansen', ...(email ? [email] : [])]), mimeType: PDF_MIME }),
      );
    }
    for (const id of ids) expect((await run(id)).status).toBe('completed');
    const { rows } = await client.query(
      `select slug from candidates where first_name = 'Piet' and last_name = 'Jansen' order by id`,
    );
    const slugs = rows.map((row: { slug: string }) => row.slug);
    expect(slugs).toHaveLength(3);
    expect(new Set(slugs).size).toBe(3);
    expect(slugs[0]).toBe('piet-jansen');
    for (const slug of slugs.slice(1)) expect(slug).toMatch(/^piet-jansen-[0-9a-f]{6}$/);
  });

  it('finds each person of a varied set of generated resumes (PDF and DOCX)', async () => {
    const firstNames = ['Amira', 'Lars', 'Chloé', 'Ravi', 'Sanne', 'Oluwaseun', 'Björn'];
    const lastNames = ['Bakker', 'Okafor', 'Lindqvist', 'Moreau', 'Patel', 'Visser'];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...firstNames),
        fc.constantFrom(...lastNames),
        fc.constantFrom('pdf', 'docx'),
        fc.boolean(),
        async (first, last, kind, withTitle) => {
          n++;
          const email = `${first
            .normalize('NFKD')
            .replace(/[^\x00-\x7f]/g, '')
            .toLowerCase()}.${n}@example.com`;
          const lines = [
            ...(withTitle ? ['Curriculum Vitae'] : []),
            `${first} ${last}`,
            `E-mail: ${email}`,
            'Phone: +31 30 765 43 21',
          ];
          const content = kind === 'pdf' ? await buildPdf(lines) : await buildDocx(lines);
          const id = await upload({ content, mimeType: kind === 'pdf' ? PDF_MIME : DOCX_MIME, userId: USERS.cy });
          const outcome = await run(id);
          expect(outcome.status).toBe('completed');
          const created = await candidate((await processing(id))!.candidate_id!);
          expect(created).toMatchObject({
            first_name: first,
            last_name: last,
            email,
            phone: '+31307654321',
            needs_completion: false,
          });
        },
      ),
      { numRuns: 12 },
    );
  });

  it('sees only its own tenant: a payload naming another tenant finds no record', async () => {
    const id = await upload({ content: fixture(PEOPLE.docx.file), mimeType: DOCX_MIME });
    expect(await run(id, GLOBEX)).toEqual({ status: 'skipped', reason: 'missing' });
    expect(await processing(id)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('throws (for pg-boss to retry) on a database failure, leaving no half-made candidate', async () => {
    const candidates = await count('select 1 from candidates');
    const id = await upload({
      content: await buildPdf(['Eva Novak', 'eva.novak@example.cz']),
      mimeType: PDF_MIME,
      createIntake: true,
    });
    await client.query(
      `create or replace function fail_intake_insert() returns trigger language plpgsql as $$ begin raise exception 'connection lost'; end $$`,
    );
    await client.query(
      'create trigger fail_intake_insert before insert on intakes for each row execute function fail_intake_insert()',
    );
    try {
      await expect(run(id)).rejects.toThrow(/connection lost/);
    } finally {
      await client.query('drop trigger fail_intake_insert on intakes');
    }
    // The candidate was written in the same transaction as the intake: rolled back with it.
    expect(await count('select 1 from candidates')).toBe(candidates);
    expect(await processing(id)).toMatchObject({ status: 'processing', candidate_id: null, attempts: 1 });
    // The retry completes it.
    expect(await run(id)).toMatchObject({ status: 'completed' });
    expect(await processing(id)).toMatchObject({ status: 'completed', attempts: 2 });
    expect(await count('select 1 from candidates')).toBe(candidates + 1);
  });

  it('marks an exhausted job failed, but never a completed one', async () => {
    const pending = await upload({ content: fixture(PEOPLE.docx.file), mimeType: DOCX_MIME });
    expect(await markResumeExhausted(orm, { processingId: pending, tenantId: ACME })).toBe(true);
    expect(await processing(pending)).toMatchObject({ status: 'failed', error: EXHAUSTED_ERROR });
    expect(await run(pending)).toEqual({ status: 'skipped', reason: 'finished' });

    const done = await upload({ content: fixture(PEOPLE.docx.file), mimeType: DOCX_MIME });
    await run(done);
    expect(await markResumeExhausted(orm, { processingId: done, tenantId: ACME })).toBe(false);
    expect(await processing(done)).toMatchObject({ status: 'completed', error: null });
  });
});

describe('candidateSlugBase', () => {
  it('is URL-friendly ASCII for any name', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (first, last) => {
        const slug = candidateSlugBase(first, last);
        expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(60);
      }),
    );
    expect(candidateSlugBase('Siobhán', "O'Connor")).toBe('siobhan-o-connor');
    expect(candidateSlugBase('Unknown', '')).toBe('unknown');
    expect(candidateSlugBase('张', '伟')).toBe('candidate');
  });
});
