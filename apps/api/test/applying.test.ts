import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, PDF_MIME } from '@careers/core/testing';
import { installJobQueues } from '@careers/core/operations';
import { FIXTURE_DIR, PEOPLE } from '../../../packages/core/test/fixtures/resumes/generate.ts';
import { startTestApi, validatedFetch, type TResponse, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { applicationBody, base64Of, keyRing, keys, query, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * "Applying like the best job boards" (CONTRACT): `validate_only` dry runs, duplicate applications rejected
 * exactly (also across two API processes), and application questions with strictly checked answers.
 */
let api: TTestApi;
let databaseUrl: string;
const s = suffix();
const writers = keys(100, 60, [
  'applications:write',
  'candidates:write',
  'candidates:read',
  'vacancies:read',
  'articles:read',
]);
const nextKey = keyRing(writers);
// Keys of their own for the tests that count a window from its start.
const [dryKey, limitKey] = keys(200, 2, ['applications:write']).map((k) => k);
const rejectWriters = keys(300, 20, ['applications:write']);
const nextRejectKey = keyRing(rejectWriters);
const USER = 7001;
const OPEN = `open-${s}`;
const CLOSED = `closed-${s}`;
const ASKING = `asking-${s}`;
const STRICT = `strict-${s}`;
const STRICT_TENANT = `strict-${s}`;

const QUESTIONS = [
  { key: 'motivation', label: { en: 'Why us?', nl: 'Waarom wij?' }, type: 'textarea', required: true, max_length: 20 },
  { key: 'nickname', label: { de: 'Spitzname', fr: 'Surnom' }, type: 'text' },
  { key: 'years', label: { en: 'Years of experience' }, type: 'number', required: true },
  { key: 'relocate', label: { en: 'Willing to relocate?' }, type: 'boolean', required: true },
  {
    key: 'notice_period',
    label: { en: 'Notice period', nl: 'Opzegtermijn' },
    type: 'single_select',
    required: false,
    options: [
      { value: 'none', label: { en: 'None', nl: 'Geen' } },
      { value: 'one_month', label: { en: 'One month', nl: 'Een maand' } },
    ],
  },
  {
    key: 'languages',
    label: { en: 'Languages' },
    type: 'multi_select',
    required: true,
    options: [
      { value: 'en', label: { en: 'English' } },
      { value: 'nl', label: { en: 'Dutch' } },
      { value: 'de', label: { en: 'German' } },
    ],
  },
];
const GOOD_ANSWERS = {
  motivation: ' Great team ',
  years: 4.5,
  relocate: false,
  notice_period: 'one_month',
  languages: ['nl', 'en'],
};

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await installJobQueues(databaseUrl);
  await seed(databaseUrl, {
    tenants: [
      tenant(`acme-${s}`, {
        default_language: 'nl',
        api_keys: [...writers, dryKey!, limitKey!].map((k) => ({ ...k, name: `key ${k.id}` })),
        users: [{ id: USER, name: 'Ada', email: `ada.${s}@acme.example`, role: 'recruiter' }],
        vacancies: [
          vacancy(1, OPEN),
          vacancy(2, CLOSED, { accepts_applications: false }),
          vacancy(3, ASKING, { questions: QUESTIONS }),
          vacancy(4, `draft-${s}`, { status: 'draft', questions: QUESTIONS }),
        ],
      }),
      tenant(STRICT_TENANT, {
        duplicate_applications: 'reject',
        api_keys: rejectWriters.map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [vacancy(10, STRICT), vacancy(11, `strict-other-${s}`)],
      }),
    ],
  });
  api = await startTestApi(databaseUrl);
});
afterAll(async () => api?.close());

/** Row counts of every table (rate-limit windows aside: a dry run counts against the limit by design). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await query<{ schema: string; name: string }>(
    databaseUrl,
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') and table_name <> 'rate_limit_windows'`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of tables) {
    const [row] = await query<{ n: string }>(databaseUrl, `select count(*)::text as n from "${schema}"."${name}"`);
    counts[`${schema}.${name}`] = Number(row!.n);
  }
  return counts;
}

const resume = () => ({
  filename: 'cv.pdf',
  content: readFileSync(join(FIXTURE_DIR, PEOPLE.pdf.file)).toString('base64'),
  mime_type: PDF_MIME,
});

describe('validate_only', () => {
  it('runs every check of POST /applications and POST /candidates, answers 200 Valid., and stores nothing', async () => {
    const before = await rowCounts();
    const file = base64Of(1000);
    const application = applicationBody(ASKING, {
      answers: GOOD_ANSWERS,
      documents: { resume: { filename: 'cv.pdf', content: file.content, mime_type: 'application/pdf' } },
      privacy_policy_accepted: true,
    });
    const key = dryKey!;
    for (const flag of ['true', '1']) {
      const dry = await api.post(`/applications?validate_only=${flag}`, application, key.key, {
        'Idempotency-Key': `dry-${flag}-${s}`,
      });
      expect(dry.status, dry.text).toBe(200);
      expect(dry.body).toEqual({ message: 'Valid.' });
      expect(dry.headers.get('x-ratelimit-remaining')).toBe(flag === 'true' ? '9' : '8');
    }
    const candidate = await api.post(
      '/candidates?validate_only=true',
      { user_id: USER, resume: resume(), create_intake: true },
      nextKey(),
    );
    expect(candidate.status, candidate.text).toBe(200);
    expect(candidate.body).toEqual({ message: 'Valid.' });
    expect(await rowCounts()).toEqual(before);

    // The same bodies for real store what the dry run did not (the counting above can see a change).
    const real = await api.post('/applications?validate_only=false', application, key.key, {
      'Idempotency-Key': `dry-true-${s}`,
    });
    expect(real.status, real.text).toBe(201);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    const realCandidate = await api.post('/candidates?validate_only=0', { user_id: USER, resume: resume() }, nextKey());
    expect(realCandidate.status, realCandidate.text).toBe(202);
    const after = await rowCounts();
    for (const table of [
      'public.applications',
      'public.candidates',
      'public.documents',
      'public.resume_processings',
      'public.events',
      'public.idempotency_records',
    ]) {
      if (table in before) expect(after[table], table).toBeGreaterThan(before[table]!);
    }
  });

  it('answers what the real request would: 422, 404, 400, and 422 for a bad flag', async () => {
    const bad = await api.post(
      '/applications?validate_only=yes',
      applicationBody(OPEN, { candidate: { given_name: 'A' } }),
      nextKey(),
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['candidate.email', 'candidate.family_name', 'validate_only']);
    expect(bad.body.errors.validate_only).toEqual(['The validate only field must be true or false.']);
    const missing = await api.post('/applications?validate_only=true', applicationBody(`nope-${s}`), nextKey());
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('VACANCY_NOT_FOUND');
    const closed = await api.post('/applications?validate_only=true', applicationBody(CLOSED), nextKey());
    expect(closed.status).toBe(400);
    expect(closed.body.error).toBe('VACANCY_CLOSED');
    const unknownUser = await api.post(
      '/candidates?validate_only=true',
      { user_id: 999_999, resume: resume() },
      nextKey(),
    );
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body.errors).toEqual({ user_id: ['The selected user id is invalid.'] });
    // An unknown user is listed with the body's other errors.
    const both = await api.post(
      '/candidates?validate_only=true',
      { user_id: 999_999, resume: { ...resume(), mime_type: 'text/plain' } },
      nextKey(),
    );
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors).sort()).toEqual(['resume.mime_type', 'user_id']);
  });

  it('is taken from the query only: a body field of that name is ignored', async () => {
    const body = applicationBody(OPEN, { validate_only: true });
    const response = await api.post('/applications', body, nextKey());
    expect(response.status, response.text).toBe(201);
  });

  it('counts against the rate limit: the 11th request of a window is 429, dry or not', async () => {
    const key = limitKey!;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await api.post('/applications?validate_only=true', applicationBody(OPEN), key.key)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });
});

describe('duplicate_applications: "reject"', () => {
  it('answers 409 with the first application id for the same vacancy and email in any case; other vacancies and emails pass', async () => {
    const email = `Dup.${suffix()}@Example.org`;
    const first = await api.post(
      '/applications',
      applicationBody(STRICT, { candidate: { given_name: 'A', family_name: 'B', email } }),
      nextRejectKey(),
    );
    expect(first.status, first.text).toBe(201);
    const again = await api.post(
      '/applications',
      applicationBody(STRICT, { candidate: { given_name: 'C', family_name: 'D', email: email.toUpperCase() } }),
      nextRejectKey(),
    );
    expect(again.status, again.text).toBe(409);
    expect(again.body).toEqual({
      message: 'An application for this vacancy with this email already exists.',
      error: 'DUPLICATE_APPLICATION',
      application_id: first.body.data.id,
    });
    const dry = await api.post(
      '/applications?validate_only=true',
      applicationBody(STRICT, { candidate: { given_name: 'C', family_name: 'D', email } }),
      nextRejectKey(),
    );
    expect(dry.status).toBe(409);
    const other = await api.post(
      '/applications',
      applicationBody(`strict-other-${s}`, { candidate: { given_name: 'A', family_name: 'B', email } }),
      nextRejectKey(),
    );
    expect(other.status).toBe(201);
    expect((await api.post('/applications', applicationBody(STRICT), nextRejectKey())).status).toBe(201);
  });

  it('allows duplicates by default', async () => {
    const email = `twice.${suffix()}@example.org`;
    const body = () => applicationBody(OPEN, { candidate: { given_name: 'A', family_name: 'B', email } });
    expect((await api.post('/applications', body(), nextKey())).status).toBe(201);
    expect((await api.post('/applications', body(), nextKey())).status).toBe(201);
  });

  it('is exact under concurrency: identical applications at once through two API processes give one 201 and the rest 409', async () => {
    let processes: TApiProcess[] = [];
    try {
      processes = await Promise.all([startApiProcess(databaseUrl), startApiProcess(databaseUrl)]);
      for (let round = 0; round < 3; round++) {
        const email = `race.${suffix()}@example.org`;
        const responses = await Promise.all(
          Array.from({ length: 6 }, async (_, i) => {
            const target = processes[i % 2]!;
            const response = await validatedFetch(`${target.baseUrl}/applications`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${nextRejectKey()}` },
              body: JSON.stringify(
                applicationBody(STRICT, {
                  candidate: { given_name: 'R', family_name: 'C', email: i % 2 ? email : email.toUpperCase() },
                }),
              ),
            });
            const text = await response.text();
            return { status: response.status, headers: response.headers, text, body: JSON.parse(text) } as TResponse;
          }),
        );
        const created = responses.filter((r) => r.status === 201);
        const rejected = responses.filter((r) => r.status === 409);
        expect(created, responses.map((r) => r.text).join('\n')).toHaveLength(1);
        expect(rejected).toHaveLength(5);
        for (const r of rejected) expect(r.body.application_id).toBe(created[0]!.body.data.id);
        const stored = await query(
          databaseUrl,
          `select a.id from applications a join candidates c on c.id = a.candidate_id where lower(c.email) = lower($1)`,
          [email],
        );
        expect(stored).toHaveLength(1);
      }
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
    }
  }, 60_000);
});

describe('application questions', () => {
  it('stores valid answers of every type and echoes them', async () => {
    const response = await api.post(
      '/applications',
      applicationBody(ASKING, { answers: { ...GOOD_ANSWERS, nickname: null } }),
      nextKey(),
    );
    expect(response.status, response.text).toBe(201);
    const expected = {
      motivation: 'Great team',
      years: 4.5,
      relocate: false,
      notice_period: 'one_month',
      languages: ['nl', 'en'],
    };
    expect(response.body.data.answers).toEqual(expected);
    const [row] = await query(databaseUrl, 'select answers from applications where id = $1', [response.body.data.id]);
    expect(row!.answers).toEqual(expected);
  });

  it('refuses a missing required answer, a wrong type, an option not offered, a text too long and an unknown key, all at once', async () => {
    const response = await api.post(
      '/applications',
      applicationBody(ASKING, {
        answers: {
          motivation: 'x'.repeat(21),
          years: '4',
          relocate: 'yes',
          notice_period: 'two_months',
          languages: ['en', 'fr'],
          salary: 100,
        },
      }),
      nextKey(),
    );
    expect(response.status, response.text).toBe(422);
    expect(response.body.errors).toEqual({
      'answers.motivation': ['The answers.motivation must not be greater than 20 characters.'],
      'answers.years': ['The answers.years must be a number.'],
      'answers.relocate': ['The answers.relocate field must be true or false.'],
      'answers.notice_period': ['The selected answers.notice period is invalid.'],
      'answers.languages.1': ['The selected answers.languages.1 is invalid.'],
      'answers.salary': ['The answers.salary field is not a question of this vacancy.'],
    });
    const missing = await api.post(
      '/applications',
      applicationBody(ASKING, { answers: { motivation: '  ', languages: [] } }),
      nextKey(),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      'answers.motivation': ['The answers.motivation field is required.'],
      'answers.years': ['The answers.years field is required.'],
      'answers.relocate': ['The answers.relocate field is required.'],
      'answers.languages': ['The answers.languages field is required.'],
    });
    const none = await api.post('/applications', applicationBody(ASKING), nextKey());
    expect(Object.keys(none.body.errors).sort()).toEqual([
      'answers.languages',
      'answers.motivation',
      'answers.relocate',
      'answers.years',
    ]);
    const unknownOnOpen = await api.post(
      '/applications',
      applicationBody(OPEN, { answers: { anything: 1 } }),
      nextKey(),
    );
    expect(unknownOnOpen.body.errors).toEqual({
      'answers.anything': ['The answers.anything field is not a question of this vacancy.'],
    });
    const notObject = await api.post('/applications', applicationBody(OPEN, { answers: [1] }), nextKey());
    expect(notObject.body.errors).toEqual({ answers: ['The answers must be an object.'] });
  });

  it('lists the answer errors with the body errors in one 422', async () => {
    const response = await api.post(
      '/applications',
      {
        vacancy: ASKING,
        candidate: { given_name: '', family_name: 'X', email: 'not-an-email' },
        answers: { years: 'many' },
      },
      nextKey(),
    );
    expect(response.status, response.text).toBe(422);
    expect(Object.keys(response.body.errors).sort()).toEqual([
      'answers.languages',
      'answers.motivation',
      'answers.relocate',
      'answers.years',
      'candidate.email',
      'candidate.given_name',
    ]);
    // An invisible vacancy has no questions to check: only the body's errors.
    const hidden = await api.post(
      '/applications',
      { vacancy: `draft-${s}`, candidate: { given_name: '' }, answers: { years: 'many' } },
      nextKey(),
    );
    expect(Object.keys(hidden.body.errors).sort()).toEqual([
      'candidate.email',
      'candidate.family_name',
      'candidate.given_name',
    ]);
  });
});

describe('GET /vacancies/{slug}/application-form', () => {
  const form = (slug: string, language?: string) =>
    api.get(`/vacancies/${slug}/application-form${language === undefined ? '' : `?language=${language}`}`, nextKey());

  it('lists the standard fields first, then the questions in their order, labelled in the language asked for', async () => {
    const response = await form(ASKING, 'EN');
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.vacancy).toEqual({ id: 3, slug: ASKING });
    const fields = response.body.data.fields;
    expect(fields.map((f: { key: string }) => f.key)).toEqual([
      'candidate.given_name',
      'candidate.family_name',
      'candidate.email',
      'candidate.mobile_phone',
      'candidate.fixed_phone',
      'candidate.linkedin_url',
      'documents.resume',
      'documents.cover_letter',
      'privacy_policy_accepted',
      ...QUESTIONS.map((q) => q.key),
    ]);
    expect(fields.filter((f: { required: boolean }) => f.required).map((f: { key: string }) => f.key)).toEqual([
      'candidate.given_name',
      'candidate.family_name',
      'candidate.email',
      'motivation',
      'years',
      'relocate',
      'languages',
    ]);
    expect(fields[0]).toEqual({
      key: 'candidate.given_name',
      label: 'First name',
      type: 'text',
      required: true,
      max_length: 255,
    });
    expect(fields[2]).toMatchObject({ key: 'candidate.email', type: 'email', label: 'Email address' });
    expect(fields[6]).toEqual({ key: 'documents.resume', label: 'Resume', type: 'file', required: false });
    expect(fields[9]).toEqual({
      key: 'motivation',
      label: 'Why us?',
      type: 'textarea',
      required: true,
      max_length: 20,
    });
    expect(fields[11]).toEqual({ key: 'years', label: 'Years of experience', type: 'number', required: true });
    expect(fields[12]).toEqual({ key: 'relocate', label: 'Willing to relocate?', type: 'boolean', required: true });
    expect(fields[13]).toEqual({
      key: 'notice_period',
      label: 'Notice period',
      type: 'single_select',
      required: false,
      options: [
        { value: 'none', label: 'None' },
        { value: 'one_month', label: 'One month' },
      ],
    });
    expect(fields[14].type).toBe('multi_select');
  });

  it('falls back to the tenant default language (nl), then to the alphabetically first label', async () => {
    for (const language of ['nl', 'sv', undefined]) {
      const fields = (await form(ASKING, language)).body.data.fields;
      expect(fields[0].label, String(language)).toBe('Voornaam');
      expect(fields[8].label).toBe('Ik ga akkoord met de privacyverklaring');
      expect(fields[9].label).toBe('Waarom wij?');
      expect(fields[10].label).toBe('Spitzname'); // de before fr
      expect(fields[11].label).toBe('Years of experience'); // only en
      expect(fields[13].options).toEqual([
        { value: 'none', label: 'Geen' },
        { value: 'one_month', label: 'Een maand' },
      ]);
    }
    const german = (await form(ASKING, 'de')).body.data.fields;
    expect(german.slice(0, 3).map((f: { label: string }) => f.label)).toEqual([
      'Vorname',
      'Nachname',
      'E-Mail-Adresse',
    ]);
    for (const [language, label] of [
      ['fr', 'Prénom'],
      ['es', 'Nombre'],
      ['pl', 'Imię'],
    ]) {
      expect((await form(ASKING, language)).body.data.fields[0].label).toBe(label);
    }
  });

  it('has only the standard fields without questions; 404 for an invisible vacancy; 422 for a bad language', async () => {
    const open = await form(OPEN);
    expect(open.body.data.fields).toHaveLength(9);
    expect((await form(`draft-${s}`)).status).toBe(404);
    expect((await form(`nope-${s}`)).status).toBe(404);
    const bad = await form(ASKING, 'eng');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ language: ['The language must be 2 characters.'] });
  });
});

describe('every 422 of a GET lists every invalid field, unknown ids included', () => {
  const errorsOf = async (path: string) => {
    const response = await api.get(path, nextKey());
    expect(response.status, response.text).toBe(422);
    return response.body.errors;
  };

  it('GET /vacancies: a bad per_page, an unknown location_id and unknown or malformed taxonomy ids together', async () => {
    expect(await errorsOf('/vacancies?per_page=500&location_id=99999&job_types[]=424242&tags[]=x')).toEqual({
      per_page: ['The per page must not be greater than 100.'],
      location_id: ['The selected location id is invalid.'],
      'job_types.0': ['The selected job types.0 is invalid.'],
      'tags.0': ['The tags.0 must be an integer.'],
    });
    // The unknown id alone is still reported (after validation, as before).
    expect(await errorsOf('/vacancies?location_id[]=99999')).toEqual({
      'location_id.0': ['The selected location id.0 is invalid.'],
    });
  });

  it('GET /vacancies/facets, GET /articles and GET /candidates likewise', async () => {
    expect(await errorsOf('/vacancies/facets?language=eng&department_id[]=99999')).toEqual({
      language: ['The language must be 2 characters.'],
      'department_id.0': ['The selected department id.0 is invalid.'],
    });
    expect(await errorsOf('/articles?per_page=0&tags[]=99999')).toEqual({
      per_page: ['The per page must be at least 1.'],
      'tags.0': ['The selected tags.0 is invalid.'],
    });
    expect(await errorsOf('/candidates?user_id=99999&per_page=500')).toEqual({
      per_page: ['The per page must not be greater than 100.'],
      user_id: ['The selected user id is invalid.'],
    });
    expect(await errorsOf(`/candidates?user_id=${USER}&per_page=500`)).toEqual({
      per_page: ['The per page must not be greater than 100.'],
    });
  });
});
