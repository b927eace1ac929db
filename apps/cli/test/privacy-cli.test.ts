import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase, type TTenantDocument } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { openOrm } from '@careers/core';

/** `pnpm careers privacy sweep|erase` from the repository root (CONTRACT "Retention", "Erasure on request"). */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

type TRun = { code: number; stdout: string; stderr: string };

function careers(args: string[], databaseUrl: string): Promise<TRun> {
  return new Promise((done) => {
    execFile(
      'pnpm',
      ['--silent', 'careers', ...args],
      { cwd: ROOT, env: { ...process.env, CI: 'true', NO_COLOR: '1', DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** SQL on the test database through the ORM's connection (`$n` parameters, as in pg). */
type TClient = { query: <T>(text: string, values?: unknown[]) => Promise<{ rows: T[] }> };
const orms: MikroORM[] = [];
afterAll(async () => Promise.all(orms.map((orm) => orm.close(true))));

const vacancies = (firstId: number) =>
  [firstId, firstId + 1].map((id) => ({
    id,
    slug: `v${id}`,
    title: `V${id}`,
    language: 'en',
    status: 'published',
    channels: ['api'],
    published_at: '2025-01-01T00:00:00Z',
  }));

const document: TTenantDocument = {
  tenants: [
    {
      id: 1,
      slug: 'acme',
      name: 'Acme',
      privacy: {
        retention_days: 30,
        talent_pool_retention_days: 365,
        require_processing_consent: false,
        policy_version: 'v1',
      },
      users: [{ id: 1, name: 'Rita Recruiter', email: 'rita@acme.example', role: 'recruiter' }],
      vacancies: vacancies(1),
    },
    { id: 2, slug: 'globex', name: 'Globex', vacancies: vacancies(3) },
  ],
} as TTenantDocument;

/** The sweep's cases (as of 2027-01-01, retention 30 days, talent pool 365 days): [name, tenant, candidate created, applications, from a resume]. */
const CASES: Array<{
  name: string;
  tenant: number;
  created: string;
  applications: Array<{ at: string; talentPool?: boolean }>;
  resume?: boolean;
  erased: boolean;
}> = [
  { name: 'expired', tenant: 1, created: '2026-10-01', applications: [{ at: '2026-10-01' }], erased: true },
  {
    name: 'recent, with an old one',
    tenant: 1,
    created: '2026-09-01',
    applications: [{ at: '2026-09-01' }, { at: '2026-12-20' }],
    erased: false,
  },
  {
    name: 'talent pool',
    tenant: 1,
    created: '2026-09-01',
    applications: [{ at: '2026-09-01', talentPool: true }],
    erased: false,
  },
  {
    name: 'talent pool passed',
    tenant: 1,
    created: '2025-06-01',
    applications: [{ at: '2025-06-01', talentPool: true }],
    erased: true,
  },
  { name: 'resume', tenant: 1, created: '2026-06-01', applications: [], resume: true, erased: false },
  { name: 'resume passed', tenant: 1, created: '2025-06-01', applications: [], resume: true, erased: true },
  {
    name: 'other tenant (keeps)',
    tenant: 2,
    created: '2020-01-01',
    applications: [{ at: '2020-01-01' }],
    erased: false,
  },
];

async function seedCases(databaseUrl: string): Promise<TClient> {
  const orm = await openOrm(databaseUrl);
  orms.push(orm);
  await importTenantDocument({ em: orm.em }, document);
  const client: TClient = {
    query: async <T>(text: string, values: unknown[] = []) => ({
      rows: (await orm.em.fork().getConnection().execute(text.replace(/\$\d+/g, '?'), values)) as T[],
    }),
  };
  for (const [index, entry] of CASES.entries()) {
    const vacancyId = entry.tenant === 1 ? 1 : 3;
    const { rows } = await client.query<{ id: number }>(
      `insert into candidates (tenant_id, slug, first_name, last_name, email, created_at) values ($1, $2, 'Case', $3, $4, $5) returning id`,
      [entry.tenant, `case-${index}`, entry.name, `Case.${index}@Example.org`, entry.created],
    );
    const candidateId = rows[0]!.id;
    for (const application of entry.applications) {
      await client.query(
        `insert into applications (tenant_id, vacancy_id, candidate_id, consent_talent_pool, tracking_user_agent, created_at) values ($1, $2, $3, $4, 'Agent', $5)`,
        [entry.tenant, vacancyId, candidateId, application.talentPool === true, application.at],
      );
    }
    if (entry.resume) {
      await client.query(
        `insert into resume_processings (id, tenant_id, user_id, status, filename, mime_type, size, content, candidate_id, created_at)
         values (gen_random_uuid(), 1, 1, 'completed', 'cv.pdf', 'application/pdf', 3, '\\x010203', $1, $2)`,
        [candidateId, entry.created],
      );
    }
  }
  return client;
}

const counts = async (client: TClient) => {
  const { rows } = await client.query<{ candidates: number; applications: number }>(
    'select (select count(*)::int from candidates) as candidates, (select count(*)::int from applications) as applications',
  );
  return rows[0]!;
};

describe('careers privacy', { timeout: 180_000 }, () => {
  it('sweep --as-of erases exactly the expired cases (a dry run counts the same and erases nothing; a second sweep finds nothing)', async () => {
    const url = await createTestDatabase();
    const client = await seedCases(url);
    const before = await counts(client);
    expect(before).toEqual({ candidates: 7, applications: 6 });

    const dryRun = await careers(['privacy', 'sweep', '--as-of', '2027-01-01T00:00:00Z', '--dry-run'], url);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    // Candidates: expired, talent pool passed, resume passed. Applications: those two, and the old one of a kept candidate.
    expect(dryRun.stdout).toBe('erased_candidates: 3\nerased_applications: 3\n');
    expect(await counts(client)).toEqual(before);

    const sweep = await careers(['privacy', 'sweep', '--as-of', '2027-01-01T00:00:00Z', '--tenant', 'acme'], url);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toBe('erased_candidates: 3\nerased_applications: 3\n');
    const after = await counts(client);
    expect(after).toEqual({ candidates: 4, applications: 3 });
    console.log(
      `[privacy sweep --as-of 2027-01-01] candidates ${before.candidates} → ${after.candidates}, applications ${before.applications} → ${after.applications}`,
    );
    const { rows: left } = await client.query<{ last_name: string }>('select last_name from candidates order by id');
    expect(left.map((row) => row.last_name)).toEqual(CASES.filter((entry) => !entry.erased).map((entry) => entry.name));
    // The kept candidate's old application went on its own; the recent one stayed.
    const { rows: kept } = await client.query<{ at: string }>(
      `select to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD') as at from applications a join candidates c on c.id = a.candidate_id where c.last_name = 'recent, with an old one'`,
    );
    expect(kept.map((row) => row.at)).toEqual(['2026-12-20']);
    const { rows: resumes } = await client.query<{ n: number }>('select count(*)::int as n from resume_processings');
    expect(resumes[0]!.n).toBe(1);
    const { rows: audit } = await client.query<{ action: string; actor: string }>(
      `select action, actor from audit_log_entries where tenant_id = 1 order by id`,
    );
    expect(audit.filter((entry) => entry.action === 'candidate.erased')).toHaveLength(3);
    expect(audit.at(-1)).toEqual({ action: 'retention.swept', actor: 'retention sweep' });

    const again = await careers(['privacy', 'sweep', '--as-of', '2027-01-01T00:00:00Z'], url);
    expect(again.stdout).toBe('erased_candidates: 0\nerased_applications: 0\n');
    // A year later the talent-pool and resume candidates' windows have passed too.
    const later = await careers(['privacy', 'sweep', '--as-of', '2028-01-01T00:00:00Z'], url);
    expect(later.stdout).toBe('erased_candidates: 3\nerased_applications: 2\n');
  });

  it('erase --tenant --email erases every candidate of that email (case-insensitive) in that tenant only', async () => {
    const url = await createTestDatabase();
    const client = await seedCases(url);
    await client.query(`update candidates set email = 'Shared@Example.org' where tenant_id = 2`);
    const erased = await careers(['privacy', 'erase', '--tenant', 'acme', '--email', 'case.0@example.ORG'], url);
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toBe('erased_candidates: 1\n');
    const { rows: audit } = await client.query<{ actor: string; action: string; subject: string }>(
      'select actor, action, subject from audit_log_entries where tenant_id = 1',
    );
    expect(audit).toEqual([
      { actor: 'cli', action: 'candidate.erased', subject: expect.stringMatching(/^candidate \d+$/) },
    ]);
    const none = await careers(['privacy', 'erase', '--tenant', 'acme', '--email', 'shared@example.org'], url);
    expect(none.stdout).toBe('erased_candidates: 0\n');
    expect(await counts(client)).toEqual({ candidates: 6, applications: 5 });
    const bad = await careers(['privacy', 'sweep', '--as-of', 'yesterday'], url);
    expect(bad.code).toBe(2);
    const unknown = await careers(['privacy', 'erase', '--tenant', 'nope', '--email', 'a@b.c'], url);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no tenant');
  });
});
