import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.ts';
import { openOrm, type TOrm } from '../src/db/orm.ts';
import { createLogger } from '../src/lib/logger.ts';
import { installJobQueues } from '../src/jobs/install.ts';
import { JobSender } from '../src/jobs/sender.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { acceptResume } from '../src/modules/resumes/resume-intake.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { EXHAUSTED_ERROR, markResumeExhausted, processResume } from '../src/modules/resumes/process-resume.ts';
import { PDF_MIME } from '../src/modules/resumes/resume-file.ts';
import { submitApplication } from '../src/modules/applications/application.service.ts';
import { ZCreateApplicationInput } from '../src/modules/applications/application.schema.ts';
import { readAllEventsAfter } from '../src/modules/events/events.jobs.service.ts';
import { buildPdf } from './fixtures/resumes/generate.ts';

const log = createLogger('events-writers-test');
log.level = 'silent';
let url: string;
let orm: TOrm;
let sender: JobSender;
let cursor = 0;

async function newEvents() {
  const rows = await readAllEventsAfter({ em: orm.em.fork() }, { after: cursor, limit: 1000 });
  if (rows.length > 0) cursor = rows.at(-1)!.position;
  return rows.map((r) => ({ type: r.type, object: r.object, id: r.object_id, tenant: r.tenant, data: r.data }));
}

beforeAll(async () => {
  url = await createTestDatabase();
  await installJobQueues(url);
  orm = await openOrm(url);
  await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          id: 1,
          slug: 'acme',
          name: 'Acme',
          default_language: 'en',
          api_keys: [
            {
              id: 5,
              name: 'Site',
              key: 'ck_test_events_writers_key_0123456789',
              scopes: ['applications:write'],
              revoked: false,
            },
          ],
          users: [{ id: 11, name: 'Ada', email: 'ada@acme.example', role: 'recruiter' }],
          vacancies: [
            {
              id: 1,
              slug: 'engineer',
              title: 'Engineer',
              language: 'en',
              status: 'published',
              channels: ['api'],
              published_at: '2025-01-01T00:00:00Z',
            },
          ],
        },
      ],
    },
  );
  sender = new JobSender(url, (error) => log.error({ err: error }, 'sender error'));
  await newEvents();
});
afterAll(async () => {
  await sender?.close();
  await orm?.close();
});

const upload = async (content: Uint8Array) =>
  acceptResume(
    { ...serviceContext(orm.em.fork(), 1), services: { jobs: sender } },
    { userId: 11, filename: 'resume.pdf', mimeType: PDF_MIME, createIntake: false, content: Buffer.from(content) },
  );

describe('events of applications, candidates and resumes', () => {
  it("application.created, in the application's transaction", async () => {
    const input = ZCreateApplicationInput.parse({
      vacancy: 'engineer',
      candidate: { given_name: 'Jo', family_name: 'Doe', email: 'jo@example.org' },
      privacy_policy_accepted: true,
    });
    const { em, db } = serviceContext(orm.em.fork(), 1);
    const { data: submitted } = await submitApplication(
      {
        em,
        db,
        tenant: { id: 1, privacy: { require_processing_consent: false, policy_version: null } },
        apiKey: { id: 5 },
      },
      input,
    );
    expect(await newEvents()).toEqual([
      {
        type: 'application.created',
        object: 'application',
        id: String(submitted.id),
        tenant: 'acme',
        data: { id: submitted.id, vacancy_id: 1, candidate_id: submitted.candidate.id },
      },
    ]);
  });

  it('candidate.created, then candidate.updated, from processed resumes', async () => {
    const lines = ['Noor Haddad', 'noor.haddad@example.org', 'Tel: 020 765 4321'];
    const first = await upload(await buildPdf(lines));
    const created = await processResume(orm, { processingId: first, tenantId: 1 }, { log });
    expect(created).toMatchObject({ status: 'completed', createdCandidate: true });
    const second = await upload(await buildPdf(lines));
    await processResume(orm, { processingId: second, tenantId: 1 }, { log });
    const candidateId = (created as { candidateId: number }).candidateId;
    expect(await newEvents()).toEqual([
      {
        type: 'candidate.created',
        object: 'candidate',
        id: String(candidateId),
        tenant: 'acme',
        data: { id: candidateId, resume_id: first },
      },
      {
        type: 'candidate.updated',
        object: 'candidate',
        id: String(candidateId),
        tenant: 'acme',
        data: { id: candidateId, resume_id: second },
      },
    ]);
  });

  it('resume.failed when a resume cannot be read, and when its retries are used up', async () => {
    const corrupt = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 7)]));
    expect(await processResume(orm, { processingId: corrupt, tenantId: 1 }, { log })).toMatchObject({
      status: 'failed',
    });
    const stuck = await upload(await buildPdf(['Sam Stuck', 'sam@example.org']));
    expect(await markResumeExhausted(orm, { processingId: stuck, tenantId: 1 })).toBe(true);
    expect(await markResumeExhausted(orm, { processingId: stuck, tenantId: 1 })).toBe(false);
    expect(await newEvents()).toEqual([
      {
        type: 'resume.failed',
        object: 'resume',
        id: corrupt,
        tenant: 'acme',
        data: { id: corrupt, error: 'The PDF could not be read.' },
      },
      {
        type: 'resume.failed',
        object: 'resume',
        id: stuck,
        tenant: 'acme',
        data: { id: stuck, error: EXHAUSTED_ERROR },
      },
    ]);
  });
});
