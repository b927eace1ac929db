import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import {
  AppError,
  type TFieldErrors,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  checkAnswers,
  toApplicationResponse,
  type TNewDocument,
  requestHash,
  decodeBase64Strict,
} from '@careers/core/bench';
import { JsonScanner } from '../../../apps/api/src/rest/json-scanner.ts';
import type { ReferenceAuth, TCaller } from './auth.ts';
import { errorAnswer, type TAnswer, type TRequest } from './http.ts';
import { onlyParams } from './sql.ts';

const BODY_LIMIT_BYTES = 40 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const RATE_LIMIT = 10;
const WINDOW_SECONDS = 60;
const OPERATION = 'applications.create';
const VISIBLE = `status = 'published' and 'api' = any(channels) and published_at <= now() and (ends_at is null or ends_at > now())`;

/** The body, with the same streaming checks as the product (media type, 40 MB, JSON depth and value count). */
function readBody(req: IncomingMessage): Promise<{ text: string; tooDeep: boolean }> {
  return new Promise((resolve, reject) => {
    const encoding = req.headers['content-encoding'];
    if (encoding && encoding.toLowerCase() !== 'identity') return reject(new AppError('UNSUPPORTED_MEDIA_TYPE'));
    const scanner = new JsonScanner({ maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES });
    const chunks: Buffer[] = [];
    let received = 0;
    let verdict: string | undefined;
    req.on('data', (chunk: Buffer) => {
      if (verdict) return;
      received += chunk.length;
      verdict = received > BODY_LIMIT_BYTES ? 'too-large' : scanner.write(chunk);
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      verdict ??= scanner.end();
      if (verdict === 'malformed') return reject(new AppError('MALFORMED_JSON'));
      if (verdict === 'too-large' || verdict === 'too-many-values') return reject(new AppError('PAYLOAD_TOO_LARGE'));
      resolve({ text: Buffer.concat(chunks).toString('utf8'), tooDeep: verdict === 'too-deep' });
    });
  });
}

/** Counts the request in the key's 60-second window (one statement): its headers, and whether it is over the limit. */
async function countRequest(
  pool: Pool,
  caller: TCaller,
): Promise<{ headers: Record<string, string>; exceeded: boolean }> {
  const { rows } = await pool.query(
    `insert into rate_limit_windows as w (bucket, window_start, hits) values ($1, statement_timestamp(), 1)
     on conflict (bucket) do update set
       window_start = case when w.window_start <= statement_timestamp() - make_interval(secs => $2) then statement_timestamp() else w.window_start end,
       hits = case when w.window_start <= statement_timestamp() - make_interval(secs => $2) then 1 else w.hits + 1 end
     returning w.hits, ceil(extract(epoch from w.window_start) + $2)::int as reset_at, extract(epoch from statement_timestamp())::float8 as now`,
    [`${caller.keyId}:${OPERATION}`, WINDOW_SECONDS],
  );
  const { hits, reset_at: resetAt, now } = rows[0];
  const headers = {
    'X-RateLimit-Limit': String(RATE_LIMIT),
    'X-RateLimit-Remaining': String(Math.max(0, RATE_LIMIT - hits)),
  };
  if (hits <= RATE_LIMIT) return { headers, exceeded: false };
  const retryAfter = Math.min(WINDOW_SECONDS, Math.max(1, Math.ceil(resetAt - now)));
  return {
    headers: { ...headers, 'Retry-After': String(retryAfter), 'X-RateLimit-Reset': String(resetAt) },
    exceeded: true,
  };
}

type TDocumentInput = { filename: string; mimeType: string; content: Buffer };
type TInput = {
  vacancy: number | string;
  candidate: { givenName: string; familyName: string; email: string; linkedinUrl: string | null; phone: string | null };
  documents: Array<TDocumentInput & { type: TNewDocument['type']; position: number }>;
  privacyPolicyAccepted: boolean;
  consents: { processing: boolean; talentPool: boolean };
  tracking: { ip: string | null; userAgent: string | null; referrer: string | null };
  answers: Record<string, unknown> | null | undefined;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;

/** Hand-written validation of the body (the fields of CONTRACT); every invalid field in one 422. */
function validate(body: unknown): TInput {
  const errors: TFieldErrors = {};
  const fail = (path: string, message: string) => {
    errors[path] = [message];
    return null;
  };
  const object = (value: unknown, path: string, required: boolean): Record<string, unknown> | null => {
    if (value === undefined || value === null) return required ? fail(path, `The ${path} field is required.`) : null;
    return typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : fail(path, `The ${path} must be an object.`);
  };
  const text = (value: unknown, path: string, max: number, required: boolean): string | null => {
    if (value === undefined || value === null) return required ? fail(path, `The ${path} field is required.`) : null;
    if (typeof value !== 'string' || value.includes('\0') || !value.isWellFormed())
      return fail(path, `The ${path} must be a string.`);
    const trimmed = value.trim();
    if (trimmed.length > max) return fail(path, `The ${path} must not be greater than ${max} characters.`);
    return trimmed === '' ? (required ? fail(path, `The ${path} field is required.`) : null) : trimmed;
  };
  const url = (value: unknown, path: string) => {
    const link = text(value, path, 2048, false);
    return link === null || (/^https?:\/\/\S+$/i.test(link) && URL.canParse(link))
      ? link
      : fail(path, `The ${path} must be a valid URL.`);
  };
  const root = object(body, 'body', true) ?? {};
  const reference = root.vacancy;
  const vacancy =
    typeof reference === 'number' && Number.isInteger(reference)
      ? reference
      : typeof reference === 'string' && reference.trim() !== ''
        ? reference.trim()
        : fail('vacancy', 'The vacancy field is required.');
  const person = object(root.candidate, 'candidate', true) ?? {};
  const email = text(person.email, 'candidate.email', 255, true);
  if (email !== null && !EMAIL.test(email))
    fail('candidate.email', 'The candidate.email must be a valid email address.');
  const documents: TInput['documents'] = [];
  const files = object(root.documents, 'documents', false) ?? {};
  const document = (value: unknown, path: string, type: TNewDocument['type'], position: number) => {
    const file = object(value, path, false);
    if (!file) return;
    const filename = text(file.filename, `${path}.filename`, 255, true);
    const mimeType = text(file.mime_type, `${path}.mime_type`, 255, true);
    if (mimeType !== null && !MIME_TYPE.test(mimeType))
      fail(`${path}.mime_type`, `The ${path}.mime_type format is invalid.`);
    const content =
      typeof file.content === 'string' && file.content.length <= (MAX_DOCUMENT_BYTES / 3) * 4 + 4
        ? decodeBase64Strict(file.content)
        : undefined;
    if (!content || content.length > MAX_DOCUMENT_BYTES)
      fail(`${path}.content`, `The ${path}.content must be valid base64 of at most 10 MB.`);
    if (filename !== null && mimeType !== null && content)
      documents.push({ type, position, filename, mimeType, content });
  };
  document(files.resume, 'documents.resume', 'resume', 0);
  document(files.cover_letter, 'documents.cover_letter', 'cover_letter', 0);
  const additional = files.additional ?? [];
  if (!Array.isArray(additional) || additional.length > 5)
    fail('documents.additional', 'The documents.additional must be an array of at most 5.');
  else additional.forEach((file, index) => document(file, `documents.additional.${index}`, 'additional', index));
  const accepted = root.privacy_policy_accepted ?? false;
  if (typeof accepted !== 'boolean')
    fail('privacy_policy_accepted', 'The privacy_policy_accepted field must be true or false.');
  const consents = object(root.consents, 'consents', false) ?? {};
  const consent = (value: unknown, field: string) => {
    if (value !== undefined && value !== null && typeof value !== 'boolean')
      fail(field, `The ${field} field must be true or false.`);
    return value === true;
  };
  const tracking = object(root.tracking, 'tracking', false) ?? {};
  const ip = text(tracking.ip_address, 'tracking.ip_address', 45, false);
  if (ip !== null && isIP(ip) === 0) fail('tracking.ip_address', 'The tracking.ip_address must be a valid IP address.');
  const answers = root.answers;
  if (answers !== undefined && answers !== null && (typeof answers !== 'object' || Array.isArray(answers)))
    fail('answers', 'The answers must be an object.');
  const input: TInput = {
    vacancy: vacancy ?? '',
    candidate: {
      givenName: text(person.given_name, 'candidate.given_name', 255, true) ?? '',
      familyName: text(person.family_name, 'candidate.family_name', 255, true) ?? '',
      email: email ?? '',
      linkedinUrl: url(person.linkedin_url, 'candidate.linkedin_url'),
      phone:
        text(person.mobile_phone, 'candidate.mobile_phone', 64, false) ??
        text(person.fixed_phone, 'candidate.fixed_phone', 64, false),
    },
    documents,
    privacyPolicyAccepted: accepted === true,
    consents: {
      processing: consent(consents.processing, 'consents.processing'),
      talentPool: consent(consents.talent_pool, 'consents.talent_pool'),
    },
    tracking: {
      ip,
      userAgent: text(tracking.user_agent, 'tracking.user_agent', 1024, false),
      referrer: url(tracking.referrer, 'tracking.referrer'),
    },
    answers: answers as TInput['answers'],
  };
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return input;
}

/** The visible vacancy the body names: an integer is an id; a string a slug, or (digits) an id when no slug matches. */
async function findVacancy(client: PoolClient, caller: TCaller, reference: number | string) {
  const { rows } = await client.query(
    `select id, slug, title, accepts_applications, questions from vacancies
     where tenant_id = $1 and ${VISIBLE} and (slug = $2 or id = $3) order by slug = $2 desc limit 1`,
    [
      caller.tenantId,
      typeof reference === 'string' ? reference : null,
      typeof reference === 'number' || /^\d{1,9}$/.test(reference) ? Number(reference) : null,
    ],
  );
  return rows[0];
}

/** Everything after validation, on one connection inside the caller's transaction: checks, then the writes. */
async function submit(client: PoolClient, caller: TCaller, input: TInput): Promise<TAnswer> {
  const vacancy = await findVacancy(client, caller, input.vacancy);
  if (!vacancy) throw new AppError('VACANCY_NOT_FOUND');
  const checked = checkAnswers(vacancy.questions ?? [], input.answers);
  if (Object.keys(checked.errors).length > 0) throw AppError.validation(checked.errors);
  if (!vacancy.accepts_applications) throw new AppError('VACANCY_CLOSED');
  const { candidate } = input;
  if (caller.duplicateApplications === 'reject') {
    await client.query(
      `select pg_advisory_xact_lock(hashtextextended('application:' || $1::text || ':' || $2::text || ':' || lower($3::text), 0))`,
      [caller.tenantId, vacancy.id, candidate.email],
    );
    const { rows } = await client.query(
      `select a.id from applications a join candidates c on c.id = a.candidate_id
       where a.tenant_id = $1 and c.tenant_id = $1 and a.vacancy_id = $2 and lower(c.email) = lower($3) order by a.id limit 1`,
      [caller.tenantId, vacancy.id, candidate.email],
    );
    if (rows[0]) throw new AppError('DUPLICATE_APPLICATION', { applicationId: rows[0].id });
  }
  let candidateId: number | undefined;
  for (let attempt = 0; candidateId === undefined && attempt < 5; attempt++) {
    const slug = `${`${candidate.givenName}-${candidate.familyName}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 200)}-${randomBytes(4).toString('hex')}`;
    const { rows } = await client.query(
      `with found as (select id from candidates where tenant_id = $1 and lower(email) = lower($2) order by id limit 1),
       made as (insert into candidates (tenant_id, slug, first_name, last_name, email, phone, linkedin_url, status)
         select $1, $3, $4, $5, $2, $6, $7, 'potential' where not exists (select from found) on conflict do nothing returning id)
       select id from found union all select id from made`,
      [
        caller.tenantId,
        candidate.email,
        slug,
        candidate.givenName,
        candidate.familyName,
        candidate.phone,
        candidate.linkedinUrl,
      ],
    );
    candidateId = rows[0]?.id;
  }
  if (candidateId === undefined) throw new Error('could not find or create the candidate');
  const values: unknown[] = [
    caller.tenantId,
    vacancy.id,
    candidateId,
    caller.keyId,
    input.privacyPolicyAccepted,
    input.tracking.ip,
    input.tracking.userAgent,
  ];
  values.push(
    input.tracking.referrer,
    JSON.stringify(checked.answers),
    input.consents.processing,
    input.consents.talentPool,
  );
  const documentRows = input.documents.map((document) => {
    const at = values.length;
    values.push(
      document.type,
      document.position,
      document.filename,
      document.mimeType,
      document.content.length,
      document.content,
    );
    return `($${at + 1}::text, $${at + 2}::int, $${at + 3}::text, $${at + 4}::text, $${at + 5}::int, $${at + 6}::bytea)`;
  });
  const { rows } = await client.query(
    `with a as (insert into applications (tenant_id, vacancy_id, candidate_id, api_key_id, privacy_policy_accepted, privacy_policy_accepted_at,
         tracking_ip_address, tracking_user_agent, tracking_referrer, answers, consent_processing, consent_talent_pool)
       values ($1, $2, $3, $4, $5, case when $5 then now() end, $6, $7, $8, $9::jsonb, $10, $11) returning id, created_at),
     ${
       documentRows.length > 0
         ? `d as (insert into documents (tenant_id, application_id, type, position, filename, mime_type, size, content)
       select $1, a.id, f.type, f.position, f.filename, f.mime_type, f.size, f.content from a, (values ${documentRows.join(', ')}) as f(type, position, filename, mime_type, size, content)),`
         : ''
     }
     e as (insert into events (tenant_id, type, object, object_id, data)
       select $1, 'application.created', 'application', a.id::text, jsonb_build_object('id', a.id, 'vacancy_id', $2::int, 'candidate_id', $3::int) from a)
     select id, created_at from a`,
    values,
  );
  const body = toApplicationResponse({
    application: rows[0],
    vacancy,
    candidate: {
      id: candidateId,
      first_name: candidate.givenName,
      last_name: candidate.familyName,
      email: candidate.email,
    },
    documents: input.documents,
    privacyPolicyAccepted: input.privacyPolicyAccepted,
    // The benchmark's tenants set no privacy policy version.
    consents: { processing: input.consents.processing, talentPool: input.consents.talentPool, policyVersion: null },
    answers: checked.answers,
  });
  return { status: 201, body };
}

/** Claims an Idempotency-Key in the transaction; a committed record of an earlier request is replayed instead. */
async function claim(client: PoolClient, caller: TCaller, key: string, hash: string): Promise<TAnswer | undefined> {
  const same = [caller.keyId, OPERATION, key];
  await client.query(
    `delete from idempotency_records where api_key_id = $1 and operation = $2 and key = $3 and expires_at <= now()`,
    same,
  );
  const inserted = await client.query(
    `insert into idempotency_records (api_key_id, operation, key, request_hash, expires_at) values ($1, $2, $3, $4, now() + interval '24 hours')
     on conflict (api_key_id, operation, key) do nothing returning id`,
    [...same, hash],
  );
  if (inserted.rows.length > 0) return undefined;
  const { rows } = await client.query(
    `select request_hash, response_status, response_body, response_headers from idempotency_records where api_key_id = $1 and operation = $2 and key = $3`,
    same,
  );
  const record = rows[0];
  if (record.request_hash !== hash)
    throw AppError.validation({
      idempotency_key: ['The idempotency key has already been used with a different request.'],
    });
  return {
    status: record.response_status,
    body: JSON.parse(record.response_body),
    headers: { ...record.response_headers, 'Idempotent-Replayed': 'true' },
  };
}

/** POST /applications: key, body, rate limit, validation, then one transaction (with the idempotency record, if asked). */
export async function createApplication(pool: Pool, auth: ReferenceAuth, request: TRequest): Promise<TAnswer> {
  onlyParams(request.query, []);
  const caller = await auth.authenticate(request.req.headers.authorization, 'applications:write');
  const read = await readBody(request.req);
  const rate = await countRequest(pool, caller);
  const withRate = (answer: TAnswer): TAnswer => ({ ...answer, headers: { ...answer.headers, ...rate.headers } });
  if (rate.exceeded) return withRate(errorAnswer(new AppError('TOO_MANY_ATTEMPTS')));
  let body: unknown;
  try {
    if (read.tooDeep)
      throw AppError.validation({ body: [`The body must not be nested more than ${MAX_JSON_DEPTH} levels deep.`] });
    body = JSON.parse(read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text || '{}');
  } catch (error) {
    return withRate(errorAnswer(error instanceof AppError ? error : new AppError('MALFORMED_JSON')));
  }
  const idempotencyKey = request.req.headers['idempotency-key'] as string | undefined;
  if (idempotencyKey !== undefined && !/^[\x20-\x7e]{1,255}$/.test(idempotencyKey)) {
    return withRate(
      errorAnswer(
        AppError.validation({ idempotency_key: ['The idempotency key must be 1 to 255 printable ASCII characters.'] }),
      ),
    );
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    const replayed =
      idempotencyKey === undefined ? undefined : await claim(client, caller, idempotencyKey, requestHash(body));
    let answer: TAnswer;
    try {
      answer = replayed ?? (await submit(client, caller, validate(body)));
    } catch (error) {
      answer = errorAnswer(error);
    }
    // Successes and business answers (400, 404, 409) are kept for a replay; validation and server errors are not.
    const kept = answer.status < 500 && answer.status !== 422 && answer.status !== 429;
    if (idempotencyKey !== undefined && kept && !replayed) {
      await client.query(
        `update idempotency_records set response_status = $4, response_body = to_jsonb($5::text), response_headers = '{}'::jsonb
         where api_key_id = $1 and operation = $2 and key = $3`,
        [caller.keyId, OPERATION, idempotencyKey, answer.status, JSON.stringify(answer.body)],
      );
    }
    await client.query(answer.status < 300 || (idempotencyKey !== undefined && kept) ? 'commit' : 'rollback');
    return withRate(answer);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
