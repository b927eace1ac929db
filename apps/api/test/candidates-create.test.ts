import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createLogger } from '@careers/core';
import {
  createTestDatabase,
  DOCX_MIME,
  ocrUnavailableReason,
  PDF_MIME,
  PNG_MIME,
  RESUME_CORPUS_DIR,
} from '@careers/core/testing';
import { installJobQueues } from '@careers/core/operations';
import { createBoss, processResumeJob, processResume } from '@careers/core/worker';
// Brings in the types of what the global setup provides to createTestDatabase (erased at run time).
import { FIXTURE_DIR, PEOPLE } from '../../../packages/core/test/fixtures/resumes/generate.ts';
import { startTestApi, type TTestApi } from './support/api.ts';
import { seed, tenantWithKeys } from './support/seed.ts';

const READ = 'ck_test_candidates_read_0001';
const WRITE_ONLY = 'ck_test_candidates_write_only';
const OTHER_TENANT = 'ck_test_globex_candidates_01';
/** POST /candidates allows 10 requests a minute per key: each test group takes fresh keys. */
const WRITE_KEYS = Array.from({ length: 13 }, (_, i) => `ck_test_candidates_write_${String(i).padStart(3, '0')}`);
const BOTH = ['candidates:read', 'candidates:write'];

const ACME_USER = 101;
const ACME_OTHER_USER = 102;
const GLOBEX_USER = 201;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ACCEPTED = 'Resume accepted for processing.';
const PROCESSING_FAILED = {
  message: 'An unexpected error occurred while processing the resume.',
  error: 'PROCESSING_FAILED',
};

let api: TTestApi;
let sql: pg.Client;
let boss: ReturnType<typeof createBoss>;
let acmeId: number;
let nextKey = 0;

function writeKey(): string {
  const key = WRITE_KEYS[nextKey++];
  if (!key) throw new Error('out of write keys');
  return key;
}

function resume(file: string, mimeType: string, filename = file) {
  return { filename, content: readFileSync(join(FIXTURE_DIR, file)).toString('base64'), mime_type: mimeType };
}

const PDF = resume(PEOPLE.pdf.file, PDF_MIME);

beforeAll(async () => {
  const url = await createTestDatabase();
  await installJobQueues(url);
  await seed(url, {
    tenants: [
      tenantWithKeys(
        'acme',
        [
          { id: 1, key: READ, scopes: ['candidates:read'] },
          { id: 2, key: WRITE_ONLY, scopes: ['candidates:write'] },
          ...WRITE_KEYS.map((key, i) => ({ id: 10 + i, key, scopes: BOTH })),
        ],
        {
          users: [
            { id: ACME_USER, name: 'Ada', email: 'ada@acme.example', role: 'recruiter' },
            { id: ACME_OTHER_USER, name: 'Bob', email: 'bob@acme.example', role: 'recruiter' },
          ],
        },
      ),
      tenantWithKeys('globex', [{ id: 50, key: OTHER_TENANT, scopes: BOTH }], {
        users: [{ id: GLOBEX_USER, name: 'Gail', email: 'gail@globex.example', role: 'recruiter' }],
        candidates: [
          {
            id: 900,
            slug: 'globex-person',
            user_id: GLOBEX_USER,
            first_name: 'Globex',
            last_name: 'Person',
            email: 'person@globex.example',
            status: 'potential',
          },
        ],
      }),
    ],
  });
  api = await startTestApi(url);
  sql = new pg.Client({ connectionString: url });
  await sql.connect();
  acmeId = (await sql.query(`select id from tenants where slug = 'acme'`)).rows[0].id;
  boss = createBoss(url, { role: 'sender' });
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await sql?.end();
  await api?.close();
});

async function counts(): Promise<{ records: number; jobs: number }> {
  const records = Number((await sql.query('select count(*) from resume_processings')).rows[0].count);
  return { records, jobs: (await boss.findJobs(processResumeJob.name)).length };
}

describe('POST /candidates', () => {
  it('answers 202 with a processing id; the record and its job exist', async () => {
    const response = await api.post(
      '/candidates',
      { user_id: ACME_USER, resume: PDF, create_intake: true },
      writeKey(),
    );
    expect(response.status).toBe(202);
    expect(Object.keys(response.body)).toEqual(['message', 'processing_id']);
    expect(response.body.message).toBe(ACCEPTED);
    expect(response.body.processing_id).toMatch(UUID);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
    const id = response.body.processing_id as string;
    const { rows } = await sql.query(
      'select tenant_id, user_id, status, filename, mime_type, size, create_intake from resume_processings where id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      tenant_id: acmeId,
      user_id: ACME_USER,
      status: 'queued',
      filename: PEOPLE.pdf.file,
      mime_type: PDF_MIME,
      size: readFileSync(join(FIXTURE_DIR, PEOPLE.pdf.file)).byteLength,
      create_intake: true,
    });
    const jobs = await boss.findJobs(processResumeJob.name, { id });
    expect(jobs.map((job) => job.data)).toEqual([{ processingId: id, tenantId: acmeId }]);
  });

  it('is followed through GET /candidates/processing/{id} to the candidate profile', async () => {
    const key = writeKey();
    const posted = await api.post(
      '/candidates',
      { user_id: ACME_OTHER_USER, resume: resume(PEOPLE.docx.file, DOCX_MIME), create_intake: true },
      key,
    );
    expect(posted.status).toBe(202);
    const id = posted.body.processing_id as string;

    const queued = await api.get(`/candidates/processing/${id}`, READ);
    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({
      data: {
        processing_id: id,
        status: 'queued',
        candidate_id: null,
        intake_id: null,
        error: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });

    // What the worker does with the job.
    await processResume(api.services.orm, { processingId: id, tenantId: acmeId }, { log: createLogger('api-test') });
    const done = await api.get(`/candidates/processing/${id.toUpperCase()}`, key);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      processing_id: id,
      status: 'completed',
      error: null,
      candidate_id: expect.any(Number),
      intake_id: expect.any(Number),
    });

    const profile = await api.get(`/candidates/${done.body.data.candidate_id}`, READ);
    expect(profile.status).toBe(200);
    const expected = PEOPLE.docx.expected;
    expect(profile.body).toEqual({
      data: {
        id: done.body.data.candidate_id,
        slug: 'pieter-jan-de-vries',
        first_name: expected.firstName,
        last_name: expected.lastName,
        email: expected.email,
        phone: expected.phone,
        linkedin_url: expected.linkedinUrl,
        status: 'potential',
        needs_completion: false,
        user_id: ACME_OTHER_USER,
        user_ids: [ACME_OTHER_USER],
        profile: {
          headline: 'Backend Developer',
          location: { city: 'Rotterdam', country_code: 'NL' },
          links: [{ type: 'linkedin', url: expected.linkedinUrl }],
          experience: [
            { title: 'Backend Developer', employer: 'Voorbeeld B.V.', start: '2020', end: null, current: true },
            { title: 'Software Engineer', employer: 'Proef & Co', start: '2016', end: '2020', current: false },
          ],
          education: [],
          skills: [],
          languages: [],
        },
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(profile.headers.get('etag')).toMatch(/^W\//);
  });

  it.skipIf(ocrUnavailableReason() !== null)(
    'accepts a scanned resume as a PNG and reads it by OCR into a candidate with a profile',
    async () => {
      const key = WRITE_KEYS[12]!;
      const scan = {
        filename: 'scan.png',
        content: readFileSync(join(RESUME_CORPUS_DIR, '27-inigo-etxeberria.scan.png')).toString('base64'),
        mime_type: PNG_MIME,
      };
      const posted = await api.post('/candidates', { user_id: ACME_USER, resume: scan }, key);
      expect(posted.status).toBe(202);
      const id = posted.body.processing_id as string;
      await processResume(api.services.orm, { processingId: id, tenantId: acmeId }, { log: createLogger('api-test') });
      const done = await api.get(`/candidates/processing/${id}`, READ);
      expect(done.body.data).toMatchObject({ status: 'completed', error: null });
      const candidate = await api.get(`/candidates/${done.body.data.candidate_id}`, READ);
      expect(candidate.body.data).toMatchObject({
        first_name: 'Íñigo',
        last_name: 'Etxeberria',
        email: 'ietxe@correo.example',
        phone: '+34944123456',
      });
      // OCR may miss a line; the position the scan shows first is read.
      expect(candidate.body.data.profile.experience[0]).toMatchObject({ start: '2016', end: null, current: true });
    },
    120_000,
  );

  it.each([
    [
      '47-siobhan-o-dubhghaill.docx',
      DOCX_MIME,
      { first_name: 'Siobhán', last_name: 'Ó Dubhghaill', email: 'siobhan.odh@example.ie', phone: '+353871234567' },
      'Clinical Nurse Manager',
    ],
    [
      '45-rhys-ap-gruffydd.pdf',
      PDF_MIME,
      { first_name: 'Rhys', last_name: 'ap Gruffydd', email: 'rhys.apgruffydd@example.co.uk', phone: '+447700900456' },
      null,
    ],
  ] as const)(
    'reads a reported failure (%s) through the worker into the right candidate',
    async (file, mime, expected, headline) => {
      const key = WRITE_KEYS[12]!;
      const upload = {
        filename: file,
        content: readFileSync(join(RESUME_CORPUS_DIR, file)).toString('base64'),
        mime_type: mime,
      };
      const posted = await api.post('/candidates', { user_id: ACME_USER, resume: upload }, key);
      expect(posted.status).toBe(202);
      const id = posted.body.processing_id as string;
      await processResume(api.services.orm, { processingId: id, tenantId: acmeId }, { log: createLogger('api-test') });
      const done = await api.get(`/candidates/processing/${id}`, READ);
      expect(done.body.data).toMatchObject({ status: 'completed', error: null });
      const candidate = await api.get(`/candidates/${done.body.data.candidate_id}`, READ);
      expect(candidate.body.data).toMatchObject({ ...expected, needs_completion: false });
      expect(candidate.body.data.profile.headline).toBe(headline);
    },
    60_000,
  );

  it('reports a file that is not its declared type through the processing status, not the POST', async () => {
    const posted = await api.post(
      '/candidates',
      { user_id: ACME_USER, resume: resume(PEOPLE.pdf.file, DOCX_MIME, 'cv.docx') },
      writeKey(),
    );
    expect(posted.status).toBe(202);
    const id = posted.body.processing_id as string;
    await processResume(api.services.orm, { processingId: id, tenantId: acmeId }, { log: createLogger('api-test') });
    const status = await api.get(`/candidates/processing/${id}`, READ);
    expect(status.body.data).toMatchObject({
      status: 'failed',
      candidate_id: null,
      intake_id: null,
      error: 'The file is not a DOCX document (detected: application/pdf).',
    });
  });

  it('accepts the MIME type in any case and a file of exactly 10 MB', async () => {
    const key = writeKey();
    const upper = await api.post(
      '/candidates',
      { user_id: ACME_USER, resume: { ...PDF, mime_type: 'Application/PDF' } },
      key,
    );
    expect(upper.status).toBe(202);
    const stored = await sql.query('select mime_type from resume_processings where id = $1', [
      upper.body.processing_id,
    ]);
    expect(stored.rows[0].mime_type).toBe(PDF_MIME);

    const tenMegabytes = Buffer.alloc(10 * 1024 * 1024, 7).toString('base64');
    const largest = await api.post(
      '/candidates',
      { user_id: ACME_USER, resume: { ...PDF, content: tenMegabytes } },
      key,
    );
    expect(largest.status).toBe(202);
    const size = await sql.query('select size from resume_processings where id = $1', [largest.body.processing_id]);
    expect(size.rows[0].size).toBe(10 * 1024 * 1024);
  });

  describe('validation (422)', () => {
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['user_id missing', { resume: PDF }, { user_id: ['The user id field is required.'] }],
      [
        'user_id as a string',
        { user_id: String(ACME_USER), resume: PDF },
        { user_id: ['The user id must be an integer.'] },
      ],
      ['user_id not whole', { user_id: 101.5, resume: PDF }, { user_id: ['The user id must be an integer.'] }],
      [
        'user_id of another tenant',
        { user_id: GLOBEX_USER, resume: PDF },
        { user_id: ['The selected user id is invalid.'] },
      ],
      ['user_id of nobody', { user_id: 999_999, resume: PDF }, { user_id: ['The selected user id is invalid.'] }],
      [
        'user_id beyond any id',
        { user_id: 99_999_999_999, resume: PDF },
        { user_id: ['The selected user id is invalid.'] },
      ],
      ['user_id negative', { user_id: -1, resume: PDF }, { user_id: ['The selected user id is invalid.'] }],
      ['resume missing', { user_id: ACME_USER }, { resume: ['The resume field is required.'] }],
      ['resume not an object', { user_id: ACME_USER, resume: 'cv.pdf' }, { resume: ['The resume must be an object.'] }],
      [
        'filename missing',
        { user_id: ACME_USER, resume: { ...PDF, filename: undefined } },
        { 'resume.filename': ['The resume.filename field is required.'] },
      ],
      [
        'filename too long',
        { user_id: ACME_USER, resume: { ...PDF, filename: `${'a'.repeat(252)}.pdf` } },
        { 'resume.filename': ['The resume.filename must not be greater than 255 characters.'] },
      ],
      [
        'content missing',
        { user_id: ACME_USER, resume: { ...PDF, content: undefined } },
        { 'resume.content': ['The resume.content field is required.'] },
      ],
      [
        'content empty',
        { user_id: ACME_USER, resume: { ...PDF, content: '' } },
        { 'resume.content': ['The resume.content field is required.'] },
      ],
      [
        'content not base64',
        { user_id: ACME_USER, resume: { ...PDF, content: 'not base64!' } },
        { 'resume.content': ['The resume.content must be valid base64.'] },
      ],
      [
        'content with line breaks',
        { user_id: ACME_USER, resume: { ...PDF, content: `${PDF.content.slice(0, 76)}\n${PDF.content.slice(76)}` } },
        { 'resume.content': ['The resume.content must be valid base64.'] },
      ],
      [
        'content without padding',
        { user_id: ACME_USER, resume: { ...PDF, content: 'YWJjZA' } },
        { 'resume.content': ['The resume.content must be valid base64.'] },
      ],
      [
        'content not canonical',
        { user_id: ACME_USER, resume: { ...PDF, content: 'YWJjZB==' } },
        { 'resume.content': ['The resume.content must be valid base64.'] },
      ],
      [
        'content padded inside',
        { user_id: ACME_USER, resume: { ...PDF, content: 'YQ==YWJj' } },
        { 'resume.content': ['The resume.content must be valid base64.'] },
      ],
      [
        'content not a string',
        { user_id: ACME_USER, resume: { ...PDF, content: 12 } },
        { 'resume.content': ['The resume.content must be a string.'] },
      ],
      [
        'mime_type not a resume type',
        { user_id: ACME_USER, resume: { ...PDF, mime_type: 'text/plain' } },
        { 'resume.mime_type': ['The selected resume.mime type is invalid.'] },
      ],
      [
        'mime_type missing',
        { user_id: ACME_USER, resume: { ...PDF, mime_type: undefined } },
        { 'resume.mime_type': ['The resume.mime type field is required.'] },
      ],
      [
        'create_intake as a string',
        { user_id: ACME_USER, resume: PDF, create_intake: 'true' },
        { create_intake: ['The create intake field must be true or false.'] },
      ],
      [
        'create_intake as a number',
        { user_id: ACME_USER, resume: PDF, create_intake: 1 },
        { create_intake: ['The create intake field must be true or false.'] },
      ],
      [
        'several fields at once',
        { user_id: 'x', resume: { filename: '', content: '%%%', mime_type: 'image/gif' } },
        {
          user_id: ['The user id must be an integer.'],
          'resume.filename': ['The resume.filename field is required.'],
          'resume.content': ['The resume.content must be valid base64.'],
          'resume.mime_type': ['The selected resume.mime type is invalid.'],
        },
      ],
      ['a body that is not an object', [1, 2], { body: ['The body must be an object.'] }],
    ];

    it.each(cases)('%s', async (_name, body, errors) => {
      // A fresh key per four cases keeps under the 10-a-minute limit.
      const key = WRITE_KEYS[4 + Math.floor(cases.findIndex(([name]) => name === _name) / 4)]!;
      const before = await counts();
      const response = await api.post('/candidates', body, key);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: 'The given data was invalid.', errors });
      expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      expect(await counts()).toEqual(before);
    });

    it('refuses a file one byte over 10 MB', async () => {
      const tooLarge = Buffer.alloc(10 * 1024 * 1024 + 1, 7).toString('base64');
      const response = await api.post(
        '/candidates',
        { user_id: ACME_USER, resume: { ...PDF, content: tooLarge } },
        WRITE_KEYS[10]!,
      );
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message: 'The given data was invalid.',
        errors: { 'resume.content': ['The resume.content must not be greater than 10240 kilobytes.'] },
      });
    });
  });

  it('answers 500 PROCESSING_FAILED and keeps neither record nor job when queueing fails', async () => {
    const before = await counts();
    await sql.query(
      `create or replace function refuse_job() returns trigger language plpgsql as $$ begin raise exception 'queue unavailable'; end $$`,
    );
    try {
      await sql.query(
        'create trigger refuse_job before insert on pgboss.job for each row execute function refuse_job()',
      );
      const key = WRITE_KEYS[11]!;
      const response = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, key);
      expect(response.status).toBe(500);
      expect(response.body).toEqual(PROCESSING_FAILED);
      expect(response.text).not.toMatch(/queue unavailable|pgboss/);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
      // With an Idempotency-Key too: the key's record is released along with everything else.
      const keyed = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, key, {
        'idempotency-key': 'upload-1',
      });
      expect(keyed.status).toBe(500);
      expect(keyed.body).toEqual(PROCESSING_FAILED);
    } finally {
      await sql.query('drop trigger if exists refuse_job on pgboss.job');
    }
    expect(await counts()).toEqual(before);
  });

  it('replays the first answer for a repeated Idempotency-Key, storing one resume', async () => {
    const key = WRITE_KEYS[11]!;
    const before = await counts();
    const first = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, key, {
      'idempotency-key': 'upload-2',
    });
    const again = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, key, {
      'idempotency-key': 'upload-2',
    });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await counts()).toEqual({ records: before.records + 1, jobs: before.jobs + 1 });
  });

  it('needs a key with candidates:write', async () => {
    expect((await api.post('/candidates', { user_id: ACME_USER, resume: PDF })).body).toEqual({
      message: 'Unauthenticated.',
    });
    const forbidden = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, READ);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({
      message: 'This API key does not have the required scope: candidates:write.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'candidates:write',
    });
  });

  it('allows 10 uploads a minute per key', async () => {
    const key = WRITE_ONLY;
    for (let i = 0; i < 10; i++) {
      const response = await api.post(
        '/candidates',
        { user_id: ACME_USER, resume: { ...PDF, mime_type: 'image/gif' } },
        key,
      );
      expect(response.status).toBe(422);
    }
    const limited = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, key);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /candidates/processing/{processing_id} and GET /candidates/{id}', () => {
  let acmeProcessing: string;

  beforeAll(async () => {
    const posted = await api.post('/candidates', { user_id: ACME_USER, resume: PDF }, WRITE_KEYS[11]!);
    acmeProcessing = posted.body.processing_id;
  });

  it("404s for an unknown id, an id that is not a UUID and another tenant's processing", async () => {
    for (const path of [
      '/candidates/processing/00000000-0000-4000-8000-000000000000',
      '/candidates/processing/not-a-uuid',
      '/candidates/processing/123',
    ]) {
      const response = await api.get(path, READ);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found.' });
    }
    expect((await api.get(`/candidates/processing/${acmeProcessing}`, OTHER_TENANT)).status).toBe(404);
    expect((await api.get(`/candidates/processing/${acmeProcessing}`, READ)).status).toBe(200);
  });

  it("404s for a non-integer id and another tenant's candidate", async () => {
    for (const path of [
      '/candidates/abc',
      '/candidates/1.5',
      '/candidates/99999999999',
      '/candidates/900',
      '/candidates/processing',
    ]) {
      const response = await api.get(path, READ);
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found.' });
    }
    const own = await api.get('/candidates/900', OTHER_TENANT);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({
      id: 900,
      slug: 'globex-person',
      email: 'person@globex.example',
      needs_completion: false,
      user_id: GLOBEX_USER,
      user_ids: [GLOBEX_USER],
    });
  });

  it('need candidates:read', async () => {
    for (const path of [`/candidates/processing/${acmeProcessing}`, '/candidates/900']) {
      const response = await api.get(path, WRITE_ONLY);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This API key does not have the required scope: candidates:read.',
        error: 'INSUFFICIENT_SCOPE',
        required_scope: 'candidates:read',
      });
    }
  });

  it('are documented in the OpenAPI document, with POST /candidates answering 202', async () => {
    const document = (await api.get('/openapi.json')).body;
    expect(Object.keys(document.paths['/candidates'].post.responses)).toContain('202');
    expect(
      document.paths['/candidates'].post.responses['202'].content['application/json'].schema.properties,
    ).toHaveProperty('processing_id');
    expect(document.paths['/candidates/processing/{processing_id}'].get.description).toMatch(/extension/);
    expect(document.paths['/candidates/{id}'].get.description).toMatch(/extension/);
  });
});
