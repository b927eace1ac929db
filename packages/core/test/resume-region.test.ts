import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { TOrm } from '../src/db/orm.ts';
import { startJobDatabase, type TJobDatabase } from './support/job-database.ts';
import { tenantKysely } from '../src/db/kysely.ts';
import { createLogger } from '../src/lib/logger.ts';
import type { JobSender } from '../src/jobs/sender.ts';
import { acceptResume } from '../src/modules/resumes/resume-intake.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { processResume } from '../src/modules/resumes/process-resume.ts';
import { findTenantRegion } from '../src/modules/resumes/resumes.repository.ts';
import { RESUME_LIMITS_ERROR, ResumeLimitError } from '../src/modules/resumes/resume-sandbox.ts';
import { PDF_MIME } from '../src/modules/resumes/resume-file.ts';
import type { TParsedResume, TParseResumeOptions } from '../src/modules/resumes/resume-parse.ts';
import { EMPTY_PROFILE } from '../src/modules/resumes/resume-profile/profile.ts';
import { FIXTURE_DIR, PEOPLE } from './fixtures/resumes/generate.ts';

/** The tenant's region for phone numbers (passed to parseResume), and how processResume treats a stopped parse. */

const log = createLogger('resume-region-test');
let orm: TOrm;
let sender: JobSender;
let client: pg.Client;
let db: TJobDatabase;

const BELGIAN = 1;
const NOWHERE = 2;
const TIED = 3;
const FRENCH = 4;
const SCRATCH = 5;

function location(id: number, country_code: string | null) {
  return { id, slug: `site-${id}`, name: `Site ${id}`, country_code };
}

function tenant(id: number, locations: Array<ReturnType<typeof location>>) {
  return {
    id,
    slug: `tenant-${id}`,
    name: `Tenant ${id}`,
    users: [{ id: id * 10, name: 'Recruiter', email: `recruiter@tenant-${id}.example`, role: 'recruiter' }],
    locations,
  };
}

beforeAll(async () => {
  db = await startJobDatabase(
    {
      tenants: [
        // Codes are compared case-insensitively: be + BE outnumber nl.
        tenant(BELGIAN, [location(101, 'be'), location(102, 'BE'), location(103, 'nl'), location(104, null)]),
        tenant(NOWHERE, [location(201, null)]),
        tenant(TIED, [location(301, 'DE'), location(302, 'at')]),
        // Many French sites elsewhere do not make the other tenants French.
        tenant(
          FRENCH,
          [101, 102, 103, 104, 105].map((n) => location(300 + n, 'FR')),
        ),
        tenant(SCRATCH, []),
      ],
    },
    log,
  );
  ({ orm, sender, client } = db);
});

afterAll(async () => {
  await db?.close();
});

const regionOf = (tenantId: number) => findTenantRegion(tenantKysely(orm.em.fork(), tenantId));

describe("the tenant's region", () => {
  it("is the most common country of the tenant's own locations, upper case; ties go alphabetically; none is null", async () => {
    expect(await regionOf(BELGIAN)).toBe('BE');
    expect(await regionOf(TIED)).toBe('AT');
    expect(await regionOf(NOWHERE)).toBeNull();
    expect(await regionOf(SCRATCH)).toBeNull();
    expect(await regionOf(FRENCH)).toBe('FR');
  });

  it('agrees with a count of the codes, whatever the locations', async () => {
    const code = fc.constantFrom('nl', 'NL', 'be', 'DE', 'de', 'fr', null);
    await fc.assert(
      fc.asyncProperty(fc.array(code, { maxLength: 8 }), async (codes) => {
        await client.query('delete from locations where tenant_id = $1', [SCRATCH]);
        for (const [i, country] of codes.entries()) {
          await client.query(
            'insert into locations (id, tenant_id, slug, name, country_code) values ($1, $2, $3, $3, $4)',
            [900 + i, SCRATCH, `s-${i}`, country],
          );
        }
        const counts = new Map<string, number>();
        for (const country of codes)
          if (country) counts.set(country.toUpperCase(), (counts.get(country.toUpperCase()) ?? 0) + 1);
        const expected = [...counts].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]?.[0] ?? null;
        expect(await regionOf(SCRATCH)).toBe(expected);
      }),
      { numRuns: 25 },
    );
  });
});

describe('processResume and its parser', () => {
  async function upload(tenantId: number): Promise<string> {
    return acceptResume(
      { ...serviceContext(orm.em.fork(), tenantId), services: { jobs: sender } },
      {
        userId: tenantId * 10,
        filename: 'resume.pdf',
        createIntake: false,
        mimeType: PDF_MIME,
        content: readFileSync(join(FIXTURE_DIR, PEOPLE.pdf.file)),
      },
    );
  }

  async function row(id: string) {
    const { rows } = await client.query(
      'select status, error, attempts, candidate_id from resume_processings where id = $1',
      [id],
    );
    return rows[0] as { status: string; error: string | null; attempts: number; candidate_id: number | null };
  }

  const fields: TParsedResume = {
    firstName: 'Jane',
    lastName: 'Roe',
    email: 'jane.roe@example.com',
    phone: null,
    linkedinUrl: null,
    nameSource: 'line',
    profile: EMPTY_PROFILE,
  };

  it("passes the tenant's region as defaultRegion, and none when the tenant has no country", async () => {
    const seen: TParseResumeOptions[] = [];
    const parse = async (_bytes: Uint8Array, _kind: string, options: TParseResumeOptions) => {
      seen.push(options);
      return fields;
    };
    const belgian = await upload(BELGIAN);
    expect(await processResume(orm, { processingId: belgian, tenantId: BELGIAN }, { log, parse })).toMatchObject({
      status: 'completed',
    });
    const nowhere = await upload(NOWHERE);
    expect(await processResume(orm, { processingId: nowhere, tenantId: NOWHERE }, { log, parse })).toMatchObject({
      status: 'completed',
    });
    expect(seen.map((options) => options.defaultRegion)).toEqual(['BE', undefined]);
  });

  it('fails a resume whose parse was stopped at a limit, once, with the message for people', async () => {
    const id = await upload(TIED);
    const parse = async (): Promise<TParsedResume> => {
      throw new ResumeLimitError('memory');
    };
    expect(await processResume(orm, { processingId: id, tenantId: TIED }, { log, parse })).toEqual({
      status: 'failed',
      error: RESUME_LIMITS_ERROR,
    });
    expect(await row(id)).toEqual({ status: 'failed', error: RESUME_LIMITS_ERROR, attempts: 1, candidate_id: null });
  });

  it('throws anything else (for pg-boss to retry), leaving the resume processing', async () => {
    const id = await upload(TIED);
    const parse = async (): Promise<TParsedResume> => {
      throw new Error('the parse process could not start');
    };
    await expect(processResume(orm, { processingId: id, tenantId: TIED }, { log, parse })).rejects.toThrow(
      'could not start',
    );
    expect(await row(id)).toMatchObject({ status: 'processing', attempts: 1 });
  });
});
