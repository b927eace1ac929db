import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase, decodeBase64Strict } from '@careers/core/testing';
import { startTestApi, validatedFetch, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { startApiProcess } from './support/processes.ts';
import {
  applicationBody,
  base64Of,
  keyRing,
  keys,
  query,
  rateHeaders,
  suffix,
  tenant,
  vacancy,
} from './support/write-fixtures.ts';

const MB = 1024 * 1024;
let api: TTestApi;
let databaseUrl: string;
const writers = keys(100, 40, ['applications:write']);
const nextKey = keyRing(writers);
const readOnly = keys(200, 1, ['vacancies:read'])[0]!;
const legacy = keys(201, 1, ['*'])[0]!;
const otherTenantKey = keys(300, 1, ['applications:write'])[0]!;
const disabledTenantKey = keys(400, 1, ['applications:write'])[0]!;
const s = suffix();
const slugs = {
  open: `backend-${s}`,
  digits: '777',
  closed: `closed-${s}`,
  draft: `draft-${s}`,
  unpublished: `unpublished-${s}`,
  websiteOnly: `website-only-${s}`,
  future: `future-${s}`,
  ended: `ended-${s}`,
  neverPublished: `never-${s}`,
  otherTenant: `other-${s}`,
};
const EXISTING_EMAIL = `Grace.Hopper.${s}@Example.org`;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  await seed(databaseUrl, {
    tenants: [
      tenant(`acme-${s}`, {
        api_keys: [...writers, readOnly, legacy].map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [
          vacancy(777, slugs.open, { title: 'Senior Backend Engineer' }),
          vacancy(778, slugs.digits, { title: 'Digits as slug' }),
          vacancy(779, slugs.closed, { accepts_applications: false }),
          vacancy(780, slugs.draft, { status: 'draft' }),
          vacancy(781, slugs.unpublished, { status: 'unpublished' }),
          vacancy(782, slugs.websiteOnly, { channels: ['website'] }),
          vacancy(783, slugs.future, { published_at: future }),
          vacancy(784, slugs.ended, { ends_at: past }),
          vacancy(785, slugs.neverPublished, { published_at: null }),
        ],
        candidates: [
          {
            id: 50,
            slug: `grace-${s}`,
            user_id: null,
            first_name: 'Grace',
            last_name: 'Hopper',
            email: EXISTING_EMAIL,
            status: 'active_mediation',
          },
        ],
      }),
      tenant(`globex-${s}`, {
        api_keys: [{ ...otherTenantKey, name: 'other' }],
        vacancies: [vacancy(900, slugs.otherTenant)],
        candidates: [
          {
            id: 60,
            slug: `grace-${s}`,
            user_id: null,
            first_name: 'G',
            last_name: 'H',
            email: `shared.${s}@example.org`,
            status: 'potential',
          },
        ],
      }),
      tenant(`initech-${s}`, {
        api_enabled: false,
        api_keys: [{ ...disabledTenantKey, name: 'off' }],
        vacancies: [vacancy(950, `off-${s}`)],
      }),
    ],
  });
  api = await startTestApi(databaseUrl);
});
afterAll(async () => api?.close());

const post = (body: unknown, key = nextKey(), headers: Record<string, string> = {}) =>
  api.post('/applications', body, key, headers);

async function expect422(body: unknown, errors: Record<string, string[]>) {
  const response = await post(body);
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual({ message: 'The given data was invalid.', errors });
}

describe('POST /applications — success', () => {
  it('creates the application, a new candidate and the documents in one go, and answers 201 with the documented body', async () => {
    const resume = base64Of(50_000);
    const cover = base64Of(1234);
    const extra = [base64Of(1), base64Of(2), base64Of(3)];
    const email = `Jane.Doe+${suffix()}@Example.ORG`;
    const before = Date.now();
    const response = await post({
      vacancy: slugs.open,
      candidate: {
        given_name: '  Jäne ',
        family_name: "O'Doe",
        email,
        linkedin_url: 'https://www.linkedin.com/in/jane-doe',
        mobile_phone: '+31 6 12345678',
        fixed_phone: '020 123 4567',
      },
      documents: {
        resume: { filename: 'cv.pdf', content: resume.content, mime_type: 'application/pdf' },
        cover_letter: {
          filename: 'letter.docx',
          content: cover.content,
          mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        },
        additional: extra.map((file, index) => ({
          filename: `extra-${index}.txt`,
          content: file.content,
          mime_type: 'text/plain',
        })),
      },
      privacy_policy_accepted: true,
      tracking: {
        ip_address: '2001:db8::1',
        user_agent: 'Mozilla/5.0 (X11)',
        referrer: 'https://www.google.com/search?q=jobs',
      },
      unknown_field: 'ignored',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const data = response.body.data;
    expect(data).toEqual({
      id: expect.any(Number),
      vacancy: { id: 777, slug: slugs.open, title: 'Senior Backend Engineer' },
      candidate: { id: expect.any(Number), given_name: 'Jäne', family_name: "O'Doe", email },
      documents: [
        { type: 'resume', filename: 'cv.pdf', mime_type: 'application/pdf', size: 50_000 },
        {
          type: 'cover_letter',
          filename: 'letter.docx',
          mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          size: 1234,
        },
        { type: 'additional', filename: 'extra-0.txt', mime_type: 'text/plain', size: 1 },
        { type: 'additional', filename: 'extra-1.txt', mime_type: 'text/plain', size: 2 },
        { type: 'additional', filename: 'extra-2.txt', mime_type: 'text/plain', size: 3 },
      ],
      privacy_policy_accepted: true,
      consents: { processing: false, talent_pool: false, given_at: data.created_at, policy_version: null },
      answers: {},
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(data).sort()).toEqual([
      'answers',
      'candidate',
      'consents',
      'created_at',
      'documents',
      'id',
      'privacy_policy_accepted',
      'vacancy',
    ]);
    expect(Math.abs(new Date(data.created_at).getTime() - before)).toBeLessThan(60_000);

    const [application] = await query(databaseUrl, 'select * from applications where id = $1', [data.id]);
    expect(application).toMatchObject({
      vacancy_id: 777,
      candidate_id: data.candidate.id,
      api_key_id: expect.any(Number),
      privacy_policy_accepted: true,
      tracking_ip_address: '2001:db8::1',
      tracking_user_agent: 'Mozilla/5.0 (X11)',
      tracking_referrer: 'https://www.google.com/search?q=jobs',
    });
    expect(application!.privacy_policy_accepted_at).toBeInstanceOf(Date);
    const [candidate] = await query(databaseUrl, 'select * from candidates where id = $1', [data.candidate.id]);
    expect(candidate).toMatchObject({
      first_name: 'Jäne',
      last_name: "O'Doe",
      email,
      phone: '+31 6 12345678',
      linkedin_url: 'https://www.linkedin.com/in/jane-doe',
      status: 'potential',
    });
    expect(candidate!.slug).toMatch(/^jane-o-doe-[0-9a-f]{8}$/);
    expect(
      await query(databaseUrl, 'select * from candidate_users where candidate_id = $1', [data.candidate.id]),
    ).toEqual([]);
    const documents = await query(
      databaseUrl,
      'select type, position, filename, size, content from documents where application_id = $1 order by id',
      [data.id],
    );
    expect(documents.map((d) => [d.type, d.position, d.filename, d.size])).toEqual([
      ['resume', 0, 'cv.pdf', 50_000],
      ['cover_letter', 0, 'letter.docx', 1234],
      ['additional', 0, 'extra-0.txt', 1],
      ['additional', 1, 'extra-1.txt', 2],
      ['additional', 2, 'extra-2.txt', 3],
    ]);
    expect(Buffer.compare(documents[0]!.content, resume.bytes)).toBe(0);
    expect(Buffer.compare(documents[1]!.content, cover.bytes)).toBe(0);
    expect(Buffer.compare(documents[4]!.content, extra[2]!.bytes)).toBe(0);
  });

  it('accepts the minimal body: no documents, consent defaults to false, nothing tracked', async () => {
    const response = await post(applicationBody(slugs.open));
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.documents).toEqual([]);
    expect(response.body.data.privacy_policy_accepted).toBe(false);
    const [row] = await query(databaseUrl, 'select * from applications where id = $1', [response.body.data.id]);
    expect(row).toMatchObject({
      privacy_policy_accepted: false,
      privacy_policy_accepted_at: null,
      tracking_ip_address: null,
      tracking_user_agent: null,
      tracking_referrer: null,
    });
  });

  it('stores no consent time when privacy_policy_accepted is false; null optional fields count as absent', async () => {
    const response = await post(
      applicationBody(slugs.open, {
        privacy_policy_accepted: false,
        documents: { resume: null, cover_letter: null, additional: null },
        tracking: { ip_address: '203.0.113.9', user_agent: null, referrer: null },
      }),
    );
    expect(response.status, response.text).toBe(201);
    const [row] = await query(databaseUrl, 'select * from applications where id = $1', [response.body.data.id]);
    expect(row).toMatchObject({
      privacy_policy_accepted: false,
      privacy_policy_accepted_at: null,
      tracking_ip_address: '203.0.113.9',
    });
  });

  it('finds the vacancy by integer id, by slug, and tries a digit string as a slug before an id', async () => {
    const byId = await post(applicationBody(777));
    expect(byId.status, byId.text).toBe(201);
    expect(byId.body.data.vacancy).toEqual({ id: 777, slug: slugs.open, title: 'Senior Backend Engineer' });
    // "777" is the slug of vacancy 778, so the slug wins over id 777.
    const digitsSlug = await post(applicationBody('777'));
    expect(digitsSlug.body.data.vacancy).toEqual({ id: 778, slug: '777', title: 'Digits as slug' });
    // "778" is no slug: it names vacancy 778 by id.
    const digitsId = await post(applicationBody('778'));
    expect(digitsId.body.data.vacancy.id).toBe(778);
    // A JSON integer is always an id, never a slug.
    const intId = await post(applicationBody(778));
    expect(intId.body.data.vacancy.id).toBe(778);
  });

  it('reuses the tenant candidate with the same email (case-insensitive) and keeps its data, but echoes only what was submitted', async () => {
    const body = applicationBody(slugs.open, {
      candidate: { given_name: 'Other', family_name: 'Name', email: EXISTING_EMAIL.toUpperCase() },
    });
    const first = await post(body);
    expect(first.status, first.text).toBe(201);
    // The stored names (Grace Hopper) never come back: an email must not look a person up.
    expect(first.body.data.candidate).toEqual({
      id: 50,
      given_name: 'Other',
      family_name: 'Name',
      email: EXISTING_EMAIL.toUpperCase(),
    });
    expect(first.text).not.toMatch(/Grace|Hopper/);
    const second = await post({
      ...body,
      candidate: { ...(body.candidate as object), email: EXISTING_EMAIL.toLowerCase() },
    });
    expect(second.body.data.candidate.id).toBe(50);
    const [candidate] = await query(databaseUrl, 'select status, first_name from candidates where id = 50');
    expect(candidate).toEqual({ status: 'active_mediation', first_name: 'Grace' });
    expect(
      await query(databaseUrl, 'select count(*)::int as n from candidates where lower(email) = lower($1)', [
        EXISTING_EMAIL,
      ]),
    ).toEqual([{ n: 1 }]);
  });

  it("never matches another tenant's candidate", async () => {
    const response = await post(
      applicationBody(slugs.open, {
        candidate: { given_name: 'S', family_name: 'T', email: `shared.${s}@example.org` },
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body.data.candidate.id).not.toBe(60);
    const rows = await query(
      databaseUrl,
      'select tenant_id from candidates where lower(email) = lower($1) order by id',
      [`shared.${s}@example.org`],
    );
    expect(rows).toHaveLength(2);
  });

  it('creates one candidate when applications with the same new email arrive concurrently', async () => {
    const email = `race.${suffix()}@example.org`;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(applicationBody(slugs.open, { candidate: { given_name: 'Race', family_name: 'Condition', email } })),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((r) => r.body.data.candidate.id)).size).toBe(1);
    expect(await query(databaseUrl, 'select count(*)::int as n from candidates where email = $1', [email])).toEqual([
      { n: 1 },
    ]);
  });

  it('works with a legacy full-access key', async () => {
    const response = await post(applicationBody(slugs.open), legacy.key);
    expect(response.status).toBe(201);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const file = base64Of(10 * MB);
    const response = await post(
      applicationBody(slugs.open, {
        documents: { resume: { filename: 'big.pdf', content: file.content, mime_type: 'application/pdf' } },
      }),
    );
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(response.body.data.documents[0].size).toBe(10 * MB);
    const [row] = await query(
      databaseUrl,
      'select length(content) as n, md5(content) as md5 from documents where application_id = $1',
      [response.body.data.id],
    );
    expect(row).toEqual({
      n: 10 * MB,
      md5: (await import('node:crypto')).createHash('md5').update(file.bytes).digest('hex'),
    });
  });

  it('stores nothing when the write fails half-way: no candidate, application, document or event', async () => {
    const failing = `explode-${suffix()}.pdf`;
    await query(
      databaseUrl,
      `create function refuse_document_${s}() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$;
       create trigger refuse_document_${s} before insert on documents for each row when (new.filename = '${failing}') execute function refuse_document_${s}();`,
    );
    try {
      const email = `half.way.${suffix()}@example.org`;
      const events = await query(
        databaseUrl,
        "select count(*)::int as n from events where type = 'application.created'",
      );
      const good = { filename: 'fine.pdf', content: base64Of(2000).content, mime_type: 'application/pdf' };
      const response = await post(
        applicationBody(slugs.open, {
          candidate: { given_name: 'Half', family_name: 'Way', email },
          documents: { resume: good, additional: [good, { ...good, filename: failing }] },
        }),
      );
      expect(response.status, response.text).toBe(500);
      expect(response.body).toEqual({ message: 'Server Error.' });
      expect(await query(databaseUrl, 'select id from candidates where email = $1', [email])).toEqual([]);
      expect(
        await query(
          databaseUrl,
          'select d.id from documents d join applications a on a.id = d.application_id join candidates c on c.id = a.candidate_id where c.email = $1',
          [email],
        ),
      ).toEqual([]);
      expect(
        await query(databaseUrl, "select count(*)::int as n from events where type = 'application.created'"),
      ).toEqual(events);
    } finally {
      await query(databaseUrl, `drop trigger refuse_document_${s} on documents; drop function refuse_document_${s}();`);
    }
  });
});

describe('POST /applications — vacancy rules (after validation)', () => {
  const notFound = { message: 'Vacancy not found', error: 'VACANCY_NOT_FOUND' };

  it.each([
    ['unknown slug', `nope-${s}`],
    ['unknown id', 123456],
    ['id beyond the integer range', 99_999_999_999],
    ['negative id', -1],
    ['digits that are neither slug nor id', '987654'],
    ['draft', slugs.draft],
    ['unpublished', slugs.unpublished],
    ['not on the api channel', slugs.websiteOnly],
    ['published in the future', slugs.future],
    ['ended', slugs.ended],
    ['never published', slugs.neverPublished],
    ['invisible, by id', 780],
    ['invisible, by digit string id', '782'],
    ["another tenant's, by slug", slugs.otherTenant],
    ["another tenant's, by id", 900],
  ])('404 VACANCY_NOT_FOUND: %s', async (_name, ref) => {
    const before = await query(databaseUrl, 'select count(*)::int as n from applications');
    const response = await post(applicationBody(ref));
    expect(response.status, response.text).toBe(404);
    expect(response.body).toEqual(notFound);
    expect(await query(databaseUrl, 'select count(*)::int as n from applications')).toEqual(before);
  });

  it('400 VACANCY_CLOSED when the visible vacancy does not accept applications (by slug and by id)', async () => {
    for (const ref of [slugs.closed, 779]) {
      const response = await post(applicationBody(ref));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'This vacancy no longer accepts applications.',
        error: 'VACANCY_CLOSED',
      });
    }
  });

  it('reports validation errors before a missing vacancy', async () => {
    const response = await post({
      vacancy: `nope-${s}`,
      candidate: { given_name: 'A', family_name: 'B', email: 'not-an-email' },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({ 'candidate.email': ['The candidate.email must be a valid email address.'] });
  });
});

describe('POST /applications — validation (422)', () => {
  it('requires vacancy and candidate, and names a missing object on its own name', async () => {
    await expect422(
      {},
      { vacancy: ['The vacancy field is required.'], candidate: ['The candidate field is required.'] },
    );
    await expect422(
      { vacancy: null, candidate: null },
      { vacancy: ['The vacancy field is required.'], candidate: ['The candidate field is required.'] },
    );
  });

  it('requires given_name, family_name and email in candidate (empty or blank strings too)', async () => {
    await expect422(
      { vacancy: slugs.open, candidate: {} },
      {
        'candidate.given_name': ['The candidate.given name field is required.'],
        'candidate.family_name': ['The candidate.family name field is required.'],
        'candidate.email': ['The candidate.email field is required.'],
      },
    );
    await expect422(
      { vacancy: slugs.open, candidate: { given_name: '', family_name: '   ', email: '' } },
      {
        'candidate.given_name': ['The candidate.given name field is required.'],
        'candidate.family_name': ['The candidate.family name field is required.'],
        'candidate.email': ['The candidate.email field is required.'],
      },
    );
  });

  it('types JSON strictly', async () => {
    await expect422(applicationBody(slugs.open, { privacy_policy_accepted: 'true' }), {
      privacy_policy_accepted: ['The privacy policy accepted field must be true or false.'],
    });
    await expect422(applicationBody(slugs.open, { privacy_policy_accepted: 1 }), {
      privacy_policy_accepted: ['The privacy policy accepted field must be true or false.'],
    });
    await expect422(applicationBody(true), { vacancy: ['The vacancy must be a string or an integer.'] });
    await expect422(applicationBody(7.5), { vacancy: ['The vacancy must be a string or an integer.'] });
    await expect422(applicationBody(slugs.open, { candidate: 'Ada' }), {
      candidate: ['The candidate must be an object.'],
    });
    await expect422(
      applicationBody(slugs.open, { candidate: { given_name: 1, family_name: ['x'], email: 'a@b.example' } }),
      {
        'candidate.given_name': ['The candidate.given name must be a string.'],
        'candidate.family_name': ['The candidate.family name must be a string.'],
      },
    );
    await expect422(applicationBody(slugs.open, { documents: [] }), {
      documents: ['The documents must be an object.'],
    });
    await expect422(applicationBody(slugs.open, { tracking: 'x' }), { tracking: ['The tracking must be an object.'] });
  });

  it('checks email, URLs, phones and IP addresses', async () => {
    const candidate = { given_name: 'A', family_name: 'B', email: 'a@b.example' };
    for (const email of ['plainaddress', 'a@', '@b.example', 'a b@c.example', 'a@b']) {
      await expect422(
        { vacancy: slugs.open, candidate: { ...candidate, email } },
        { 'candidate.email': ['The candidate.email must be a valid email address.'] },
      );
    }
    for (const linkedin_url of [
      'linkedin.com/in/x',
      'ftp://linkedin.com/x',
      'javascript:alert(1)',
      'https://',
      'https://exa mple.com',
    ]) {
      await expect422(
        { vacancy: slugs.open, candidate: { ...candidate, linkedin_url } },
        {
          'candidate.linkedin_url': ['The candidate.linkedin url must be a valid URL.'],
        },
      );
    }
    await expect422(
      { vacancy: slugs.open, candidate: { ...candidate, mobile_phone: 612345678 } },
      {
        'candidate.mobile_phone': ['The candidate.mobile phone must be a string.'],
      },
    );
    await expect422(
      { vacancy: slugs.open, candidate: { ...candidate, fixed_phone: '1'.repeat(65) } },
      {
        'candidate.fixed_phone': ['The candidate.fixed phone must not be greater than 64 characters.'],
      },
    );
    await expect422(
      { vacancy: slugs.open, candidate: { ...candidate, given_name: 'x'.repeat(256) } },
      {
        'candidate.given_name': ['The candidate.given name must not be greater than 255 characters.'],
      },
    );
    for (const ip_address of ['999.1.1.1', '1.2.3', 'localhost', '2001:db8:::1']) {
      await expect422(
        { vacancy: slugs.open, candidate, tracking: { ip_address } },
        {
          'tracking.ip_address': ['The tracking.ip address must be a valid IP address.'],
        },
      );
    }
    await expect422(
      { vacancy: slugs.open, candidate, tracking: { referrer: 'not a url' } },
      { 'tracking.referrer': ['The tracking.referrer must be a valid URL.'] },
    );
    await expect422(
      { vacancy: slugs.open, candidate, tracking: { user_agent: 42 } },
      { 'tracking.user_agent': ['The tracking.user agent must be a string.'] },
    );
  });

  it('reports document fields on their dotted paths', async () => {
    const good = { filename: 'a.pdf', content: 'YWJj', mime_type: 'application/pdf' };
    await expect422(applicationBody(slugs.open, { documents: { resume: {} } }), {
      'documents.resume.filename': ['The documents.resume.filename field is required.'],
      'documents.resume.content': ['The documents.resume.content field is required.'],
      'documents.resume.mime_type': ['The documents.resume.mime type field is required.'],
    });
    await expect422(applicationBody(slugs.open, { documents: { cover_letter: { ...good, mime_type: 'pdf' } } }), {
      'documents.cover_letter.mime_type': ['The documents.cover letter.mime type format is invalid.'],
    });
    await expect422(
      applicationBody(slugs.open, { documents: { additional: [good, good, { ...good, content: 'YWJ!' }] } }),
      {
        'documents.additional.2.content': ['The documents.additional.2.content must be valid base64.'],
      },
    );
    await expect422(applicationBody(slugs.open, { documents: { additional: good } }), {
      'documents.additional': ['The documents.additional must be an array.'],
    });
  });

  it('allows at most 5 additional documents', async () => {
    const good = { filename: 'a.pdf', content: 'YWJj', mime_type: 'application/pdf' };
    const five = await post(applicationBody(slugs.open, { documents: { additional: Array(5).fill(good) } }));
    expect(five.status, five.text).toBe(201);
    expect(five.body.data.documents).toHaveLength(5);
    await expect422(applicationBody(slugs.open, { documents: { additional: Array(6).fill(good) } }), {
      'documents.additional': ['The documents.additional must not have more than 5 items.'],
    });
  });

  it.each([
    ['characters outside the alphabet', 'YW*j'],
    ['whitespace', 'YWJj\nYWJj'],
    ['a space', 'YW Jj'],
    ['URL-safe alphabet', 'ab-_'],
    ['missing padding', 'YQ'],
    ['length not a multiple of 4', 'YWJjZ'],
    ['too much padding', 'Y==='],
    ['padding in the middle', 'YQ==YQ=='],
    ['only padding', '===='],
    ['non-ASCII', 'YWJé'],
  ])('rejects invalid base64 (%s) on documents.resume.content', async (_name, content) => {
    await expect422(
      applicationBody(slugs.open, {
        documents: { resume: { filename: 'a.pdf', content, mime_type: 'application/pdf' } },
      }),
      {
        'documents.resume.content': ['The documents.resume.content must be valid base64.'],
      },
    );
  });

  it('rejects a file over 10 MB decoded', async () => {
    const file = base64Of(10 * MB + 1);
    await expect422(
      applicationBody(slugs.open, {
        documents: { cover_letter: { filename: 'big.pdf', content: file.content, mime_type: 'application/pdf' } },
      }),
      {
        'documents.cover_letter.content': [
          'The documents.cover letter.content must not be greater than 10240 kilobytes.',
        ],
      },
    );
  });

  it('answers a body that is not a JSON object with 422 errors.body', async () => {
    for (const body of ['[]', '"text"', '42', 'true']) {
      const response = await post(body);
      expect(response.status, body).toBe(422);
      expect(response.body).toEqual({
        message: 'The given data was invalid.',
        errors: { body: ['The body must be an object.'] },
      });
    }
  });

  it('answers malformed JSON with 400 and a body over 40 MB with 413, without rate-limit headers', async () => {
    const malformed = await post('{"vacancy": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body.' });
    expect(rateHeaders(malformed).limit).toBeNull();
    const huge = await post(JSON.stringify({ vacancy: slugs.open, padding: 'x'.repeat(40 * MB) }));
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: 'Payload too large.' });
    expect(rateHeaders(huge).limit).toBeNull();
  });

  it('property: any set of valid documents is stored byte for byte and reported with its decoded sizes', async () => {
    const zDoc = fc.record({
      filename: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim().length > 0),
      bytes: fc.uint8Array({ minLength: 0, maxLength: 3000 }),
      mime_type: fc.constantFrom('application/pdf', 'application/msword', 'text/plain', 'image/png'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.option(zDoc, { nil: undefined }),
        fc.array(zDoc, { maxLength: 5 }),
        async (resume, additional) => {
          const encode = (doc: { filename: string; bytes: Uint8Array; mime_type: string }) => ({
            filename: doc.filename,
            content: Buffer.from(doc.bytes).toString('base64'),
            mime_type: doc.mime_type,
          });
          // An empty file encodes to "", which is "required": those are expected to be refused.
          const all = [...(resume ? [resume] : []), ...additional];
          const response = await post(
            applicationBody(slugs.open, {
              documents: { resume: resume && encode(resume), additional: additional.map(encode) },
            }),
          );
          if (all.some((doc) => doc.bytes.length === 0)) {
            expect(response.status).toBe(422);
            return;
          }
          expect(response.status, response.text).toBe(201);
          expect(response.body.data.documents.map((d: { size: number }) => d.size)).toEqual(
            all.map((doc) => doc.bytes.length),
          );
          const stored = await query(
            databaseUrl,
            'select filename, content from documents where application_id = $1 order by id',
            [response.body.data.id],
          );
          expect(stored.map((row) => row.filename)).toEqual(all.map((doc) => doc.filename.trim()));
          stored.forEach((row, index) => expect(Buffer.compare(row.content, Buffer.from(all[index]!.bytes))).toBe(0));
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('strict base64 decoding', () => {
  const STRICT = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

  it('property: decodes exactly what a strict reference accepts, to the same bytes', () => {
    const alphabet = fc.constantFrom(...'ABCXYZabcxyz0189+/=-_ \n\t*é'.split(''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 24 }).map((chars) => chars.join('')),
        (text) => {
          const decoded = decodeBase64Strict(text);
          expect(decoded !== undefined).toBe(STRICT.test(text));
          if (decoded) expect(decoded.equals(Buffer.from(text, 'base64'))).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('property: round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decodeBase64Strict(Buffer.from(bytes).toString('base64'))?.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });
});

describe('POST /applications — keys and scopes', () => {
  it('401 without a valid key, 403 without the scope, 403 for a tenant without API access', async () => {
    const body = applicationBody(slugs.open);
    const none = await api.post('/applications', body);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Unauthenticated.' });
    const wrong = await post(body, 'ck_test_not_a_real_key_000000');
    expect(wrong.status).toBe(401);
    const scope = await post(body, readOnly.key);
    expect(scope.status).toBe(403);
    expect(scope.body).toEqual({
      message: 'This API key does not have the required scope: applications:write.',
      error: 'INSUFFICIENT_SCOPE',
      required_scope: 'applications:write',
    });
    expect(rateHeaders(scope).limit).toBeNull();
    const disabled = await post(body, disabledTenantKey.key);
    expect(disabled.status).toBe(403);
    expect(disabled.body).toEqual({ message: 'API access is not enabled for this tenant.' });
  });

  it('is documented in the OpenAPI document with 201 and its errors', async () => {
    const doc = await api.get('/openapi.json');
    const operation = doc.body.paths['/applications'].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '404', '422', '429']));
    expect(operation['x-required-scope']).toBe('applications:write');
  });
});

describe('POST /applications — atomicity', () => {
  it('a failure in the middle of the write leaves no application, no candidate and no document behind', async () => {
    await query(
      databaseUrl,
      `create or replace function fail_on_document() returns trigger language plpgsql as $$
       begin if new.filename = 'fail.pdf' then raise exception 'simulated storage failure'; end if; return new; end $$`,
    );
    await query(
      databaseUrl,
      'create trigger documents_fail before insert on documents for each row execute function fail_on_document()',
    );
    try {
      const email = `atomic.${suffix()}@example.org`;
      const counts = async () =>
        (
          await query(
            databaseUrl,
            'select (select count(*)::int from applications) a, (select count(*)::int from candidates) c, (select count(*)::int from documents) d',
          )
        )[0];
      const before = await counts();
      const ok = { filename: 'ok.pdf', content: base64Of(100).content, mime_type: 'application/pdf' };
      const response = await post(
        applicationBody(slugs.open, {
          candidate: { given_name: 'Atomic', family_name: 'Write', email },
          documents: { resume: ok, additional: [ok, { ...ok, filename: 'fail.pdf' }] },
        }),
      );
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ message: 'Server Error.' });
      expect(response.text).not.toMatch(/simulated|documents|insert/i);
      expect(await counts()).toEqual(before);
      expect(await query(databaseUrl, 'select id from candidates where email = $1', [email])).toEqual([]);
    } finally {
      await query(databaseUrl, 'drop trigger documents_fail on documents');
    }
  });
});

describe('POST /applications — memory', () => {
  it('handles a body of almost 40 MB in a separate API process; peak RSS is reported', async () => {
    const proc = await startApiProcess(databaseUrl);
    try {
      const idle = proc.rssKb();
      // Three documents of 9.9 MB each: ~39.6 MB of JSON.
      const files = [0, 1, 2].map(() => base64Of(Math.floor(9.9 * MB)));
      const body = JSON.stringify(
        applicationBody(slugs.open, {
          documents: {
            resume: { filename: 'a.pdf', content: files[0]!.content, mime_type: 'application/pdf' },
            cover_letter: { filename: 'b.pdf', content: files[1]!.content, mime_type: 'application/pdf' },
            additional: [{ filename: 'c.pdf', content: files[2]!.content, mime_type: 'application/pdf' }],
          },
        }),
      );
      expect(body.length).toBeLessThan(40 * MB);
      expect(body.length).toBeGreaterThan(39 * MB);
      const response = await validatedFetch(`${proc.baseUrl}/applications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${nextKey()}` },
        body,
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const peak = proc.peakRssKb();
      console.log(
        `[memory] 40 MB application body: idle RSS ${Math.round(idle / 1024)} MiB, peak RSS ${Math.round(peak / 1024)} MiB (body ${(body.length / MB).toFixed(1)} MiB)`,
      );
      // Body text + parsed strings + decoded files + one query buffer; far from a leak or a copy per step.
      expect(peak - idle).toBeLessThan(600 * 1024);
    } finally {
      await proc.stop();
    }
  });
});
