import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hashApiKey } from '@careers/core/testing';
import { installJobQueues } from '@careers/core/operations';
// Brings in the types of what the global setup provides to createTestDatabase (erased at run time).
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { seed } from './support/seed.ts';
import { query, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * Everything an API process logs at debug level during a set of requests that carry secrets and personal data
 * (issue 7): no plaintext API key, password, document content or query string reaches the log, and every line
 * of a request carries its request id.
 */

const s = suffix();
const fresh = () => randomBytes(16).toString('hex');
const KEY = `ck_live_${fresh()}`;
const WRONG_KEY = `ck_live_${fresh()}`;
const PASSWORD = `Pw-${fresh()}-secret`;
const SEARCH_MARKER = `searchmarker${fresh()}`;
const DOC_MARKER = `DOCUMENT-MARKER-${fresh()}`;
const RESUME_MARKER = `RESUME-MARKER-${fresh()}`;
const IDEMPOTENCY_KEY = `idem-${fresh()}`;
const SLUG = `logging-engineer-${s}`;
const USER_ID = 500 + (randomBytes(1)[0] ?? 0);
const EMAIL = `jane.${fresh()}@example.org`;
const PHONE = `+31${String(randomBytes(4).readUInt32BE(0)).padStart(9, '7').slice(0, 9)}`;

/** Distinctive file contents: the marker text repeated, as a client would send it (base64). */
const documentText = `%PDF-1.4\n${`${DOC_MARKER} Lebenslauf vertraulich\n`.repeat(40)}`;
const DOCUMENT_BASE64 = Buffer.from(documentText).toString('base64');
const resumeText = `%PDF-1.4\n${`${RESUME_MARKER} Jane Doe jane.doe@example.org\n`.repeat(40)}`;
const RESUME_BASE64 = Buffer.from(resumeText).toString('base64');

let api: TApiProcess;
let output = '';
const sent: Array<{ id: string; status: number }> = [];

type TLine = Record<string, unknown> & { msg?: string; request_id?: string };

async function request(
  id: string,
  path: string,
  init: { method?: string; key?: string; authorization?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'x-request-id': id, ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.authorization) headers.authorization = init.authorization;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(api.baseUrl + path, { method: init.method ?? 'GET', headers, body: init.body });
  await response.text();
  expect(response.headers.get('x-request-id')).toBe(id);
  sent.push({ id, status: response.status });
  return response.status;
}

function applicationBody(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    vacancy: SLUG,
    candidate: { given_name: 'Jane', family_name: 'Doe', email: EMAIL, mobile_phone: PHONE },
    documents: {
      resume: { filename: 'cv.pdf', content: DOCUMENT_BASE64, mime_type: 'application/pdf' },
      cover_letter: { filename: 'letter.pdf', content: DOCUMENT_BASE64, mime_type: 'application/pdf' },
    },
    ...extra,
  });
}

beforeAll(async () => {
  const url = await createTestDatabase();
  await installJobQueues(url);
  await seed(url, {
    tenants: [
      tenant(`logs-${s}`, {
        api_keys: [{ id: 1, name: 'Website', key: KEY, scopes: ['*'] }],
        users: [{ id: USER_ID, name: 'Lou Logger', email: `lou.${s}@logs.example`, role: 'admin', password: PASSWORD }],
        vacancies: [vacancy(41, SLUG)],
      }),
    ],
  });
  api = await startApiProcess(url, { LOG_LEVEL: 'debug' });

  expect(await request('logs-health', '/health', { key: KEY })).toBe(200);
  expect(await request('logs-wrong-key', '/health', { key: WRONG_KEY })).toBe(401);
  expect(await request('logs-wrong-scheme', '/health', { authorization: `Token ${KEY}` })).toBe(401);
  expect(
    await request('logs-search', `/vacancies?search=${SEARCH_MARKER}&password=${PASSWORD}&api_key=${KEY}`, {
      key: KEY,
    }),
  ).toBe(200);
  expect(await request('logs-detail', `/vacancies/${SLUG}?include_media=true`, { key: KEY })).toBe(200);
  expect(
    await request('logs-apply', '/applications', {
      method: 'POST',
      key: KEY,
      body: applicationBody({ password: PASSWORD }),
    }),
  ).toBe(201);
  const idempotent = {
    method: 'POST',
    key: KEY,
    body: applicationBody(),
    headers: { 'idempotency-key': IDEMPOTENCY_KEY },
  };
  expect(await request('logs-apply-idempotent', '/applications', idempotent)).toBe(201);
  expect(await request('logs-apply-replay', '/applications', idempotent)).toBe(201);
  const badBase64 = JSON.parse(applicationBody()) as { documents: { resume: { content: string } } };
  badBase64.documents.resume.content = `${DOCUMENT_BASE64.slice(0, 120)}!!${DOC_MARKER}`;
  expect(
    await request('logs-apply-invalid', '/applications', { method: 'POST', key: KEY, body: JSON.stringify(badBase64) }),
  ).toBe(422);
  expect(
    await request('logs-malformed', '/applications', {
      method: 'POST',
      key: KEY,
      body: `{"key":"${KEY}","password":"${PASSWORD}"`,
    }),
  ).toBe(400);
  const resume = {
    user_id: USER_ID,
    resume: { filename: 'cv.pdf', content: RESUME_BASE64, mime_type: 'application/pdf' },
  };
  expect(await request('logs-resume', '/candidates', { method: 'POST', key: KEY, body: JSON.stringify(resume) })).toBe(
    202,
  );
  // A queue that refuses the job: the resume cannot be queued, a 500 whose cause is logged.
  await query(
    url,
    `create function refuse_job() returns trigger language plpgsql as $$ begin raise exception 'queue unavailable (logs test)'; end $$`,
  );
  await query(url, 'create trigger refuse_job before insert on pgboss.job for each row execute function refuse_job()');
  expect(
    await request('logs-resume-failed', '/candidates', { method: 'POST', key: KEY, body: JSON.stringify(resume) }),
  ).toBe(500);
  await query(url, 'drop trigger refuse_job on pgboss.job');
  // Privacy: a query with the email, an export and an erasure, and a database error that quotes the email and phone.
  const [candidate] = await query(url, 'select id from candidates where lower(email) = lower($1)', [EMAIL]);
  expect(
    await request(
      'logs-candidates-email',
      `/candidates?user_id=${USER_ID}&email=${encodeURIComponent(EMAIL)}&search=${encodeURIComponent(PHONE)}`,
      { key: KEY },
    ),
  ).toBe(200);
  expect(await request('logs-export', `/candidates/${candidate!.id}/export`, { key: KEY })).toBe(200);
  await query(
    url,
    `create function refuse_candidate() returns trigger language plpgsql as $$ begin raise exception 'refused % %', new.email, new.phone; end $$`,
  );
  await query(
    url,
    'create trigger refuse_candidate before insert on candidates for each row execute function refuse_candidate()',
  );
  const other = JSON.parse(applicationBody()) as { candidate: { email: string } };
  other.candidate.email = `other.${EMAIL}`;
  expect(
    await request('logs-apply-refused', '/applications', { method: 'POST', key: KEY, body: JSON.stringify(other) }),
  ).toBe(500);
  await query(url, 'drop trigger refuse_candidate on candidates');
  expect(await request('logs-erase', `/candidates/${candidate!.id}`, { method: 'DELETE', key: KEY })).toBe(204);
  expect(await request('logs-unknown-path', `/no-such-path/${KEY}`, { key: KEY })).toBe(404);
  expect(await request('logs-livez', '/livez')).toBe(200);

  await api.stop();
  output = api.output();
}, 120_000);

afterAll(async () => {
  await api?.stop();
});

function lines(): TLine[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TLine);
}

describe('the logs of an API process', () => {
  it('are JSON lines, at debug level, covering every request', () => {
    const all = lines();
    expect(all.length).toBeGreaterThanOrEqual(sent.length);
    expect(all.some((line) => line.level === 20)).toBe(true);
    expect(all.some((line) => line.msg === 'stopped')).toBe(true);
  });

  it('contain no plaintext API key, password, document content, query string, or candidate email and phone', () => {
    const secrets = {
      key: KEY,
      'key without prefix': KEY.slice('ck_live_'.length),
      'wrong key': WRONG_KEY,
      'key hash': hashApiKey(KEY),
      password: PASSWORD,
      'document (base64)': DOCUMENT_BASE64,
      'document (base64, a middle part)': DOCUMENT_BASE64.slice(200, 240),
      'document (text)': DOC_MARKER,
      'resume (base64)': RESUME_BASE64,
      'resume (base64, a middle part)': RESUME_BASE64.slice(200, 240),
      'resume (text)': RESUME_MARKER,
      'search text': SEARCH_MARKER,
      email: EMAIL,
      'email (local part)': EMAIL.split('@')[0]!,
      phone: PHONE,
      'phone (digits)': PHONE.slice(1),
    };
    for (const [what, secret] of Object.entries(secrets))
      expect({ what, found: output.includes(secret) }).toEqual({ what, found: false });
    // The database's message quoted them: the line is there, censored.
    const refused = lines().find((line) => line.request_id === 'logs-apply-refused' && line.err !== undefined);
    expect((refused?.err as { message?: string } | undefined)?.message).toMatch(/refused \[email\] \[number\]/);
  });

  it('carry the request id on every line of a request, including the error of a failed one', () => {
    const all = lines();
    for (const { id, status } of sent) {
      const ofRequest = all.filter((line) => line.request_id === id);
      const completion = ofRequest.find((line) => line.res !== undefined);
      expect({ id, status: (completion?.res as { status?: number } | undefined)?.status }).toEqual({ id, status });
    }
    // No line about a request without the id: those with a request, response, tenant, key or error.
    const requestLines = all.filter((line) =>
      ['req', 'res', 'tenant', 'api_key_id', 'err'].some((field) => field in line),
    );
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.filter((line) => typeof line.request_id !== 'string')).toEqual([]);

    const failure = all.find((line) => line.request_id === 'logs-resume-failed' && line.msg === 'request failed');
    expect(failure).toMatchObject({ level: 50, code: 'PROCESSING_FAILED' });
    // The cause is there for operators (not for the client).
    expect(JSON.stringify(failure?.err)).toMatch(/queue unavailable \(logs test\)/);
  });
});
