import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase, hashApiKey, type TTenantDocument } from '@careers/core/testing';
import { openOrm } from '@careers/core';

/** `pnpm careers …` from the repository root, as CONTRACT.md documents it. */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

type TRun = { code: number; stdout: string; stderr: string };

function careers(args: string[], env: Record<string, string | undefined>): Promise<TRun> {
  return new Promise((done) => {
    execFile(
      'pnpm',
      ['careers', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

const document = (departmentId: number): TTenantDocument => ({
  tenants: [
    {
      slug: 'acme',
      name: 'Acme',
      api_keys: [{ id: 1, name: 'Website', key: 'ck_test_cli_key_0123456789abcdef', scopes: ['vacancies:read'] }],
      locations: [{ id: 1, slug: 'amsterdam', name: 'Amsterdam', country_code: 'NL' }],
      departments: [{ id: 1, name: 'Engineering' }],
      vacancies: [
        {
          id: 1,
          slug: 'one',
          title: 'One',
          language: 'en',
          status: 'published',
          channels: ['api'],
          published_at: '2025-01-01T00:00:00Z',
          location_id: 1,
          department_id: 1,
        },
        {
          id: 2,
          slug: 'two',
          title: 'Two',
          language: 'en',
          status: 'published',
          channels: ['api'],
          published_at: '2025-01-01T00:00:00Z',
          department_id: departmentId,
        },
      ],
    },
    { slug: 'globex', name: 'Globex' },
  ],
});

let dir: string;
const orms: MikroORM[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'careers-cli-'));
});
afterAll(async () => {
  await Promise.all(orms.map((orm) => orm.close(true)));
  rmSync(dir, { recursive: true, force: true });
});

async function database(): Promise<{ url: string; orm: MikroORM }> {
  const url = await createTestDatabase();
  const orm = await openOrm(url);
  orms.push(orm);
  return { url, orm };
}

async function rows<T>(orm: MikroORM, text: string): Promise<T[]> {
  return (await orm.em.fork().getConnection().execute(text)) as T[];
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

// Every case spawns `pnpm careers` a few times (~1–3 s each, more on a busy machine).
describe('careers CLI', { timeout: 180_000 }, () => {
  it('imports a tenant document and prints a summary', async () => {
    const { url, orm } = await database();
    const path = file('good.json', document(1));
    const run = await careers(['import', path], { DATABASE_URL: url });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Imported 2 tenant\(s\) from .*good\.json in \d+\.\d\d s/);
    expect(run.stdout).toMatch(/acme \(id \d+\): 1 api keys, 1 locations, 1 departments, 2 vacancies/);
    expect(await rows(orm, 'select id, slug from vacancies order by id')).toEqual([
      { id: 1, slug: 'one' },
      { id: 2, slug: 'two' },
    ]);
    // Idempotent from the shell too.
    expect((await careers(['import', path], { DATABASE_URL: url })).code).toBe(0);
    expect(await rows(orm, 'select count(*)::int as n from vacancies')).toEqual([{ n: 2 }]);
  });

  it('refuses a bad document with the first bad path on stderr, exit code 1 and nothing written', async () => {
    const { url, orm } = await database();
    const run = await careers(['import', file('bad.json', document(7))], { DATABASE_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'error: the document was refused, nothing was written: tenants[0].vacancies[1].department_id: no such department',
    );
    expect(run.stdout).not.toContain('Imported');
    expect(await rows(orm, 'select count(*)::int as n from tenants')).toEqual([{ n: 0 }]);
  });

  it('explains a file that is not JSON, a missing file and a missing DATABASE_URL without stack traces', async () => {
    const { url } = await database();
    const notJson = await careers(['import', file('broken.json', '{"tenants": [')], { DATABASE_URL: url });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^error: .*broken\.json is not valid JSON: /);
    const missing = await careers(['import', join(dir, 'nope.json')], { DATABASE_URL: url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.json: ENOENT/);
    const noUrl = await careers(['import', file('good2.json', document(1))], { DATABASE_URL: '' });
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toMatch(/^error: DATABASE_URL is not set/);
    for (const run of [notJson, missing, noUrl]) expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('creates, lists and revokes keys; the key is printed once and stored hashed', async () => {
    const { url, orm } = await database();
    expect((await careers(['import', file('keys.json', document(1))], { DATABASE_URL: url })).code).toBe(0);
    const created = await careers(
      ['keys', 'create', '--tenant', 'acme', '--name', 'Shell key', '--scopes', 'vacancies:read,team:read'],
      { DATABASE_URL: url },
    );
    expect(created.code).toBe(0);
    const plaintext = /^(ck_live_\S+)$/m.exec(created.stdout)?.[1];
    expect(plaintext).toBeDefined();
    expect(created.stdout).toMatch(/Created API key \d+ "Shell key" for tenant acme/);
    expect(created.stdout).toContain('scopes: vacancies:read, team:read');
    const [stored] = await rows<{ id: number; key_hash: string }>(
      orm,
      `select id, key_hash from api_keys where name = 'Shell key'`,
    );
    expect(stored?.key_hash).toBe(hashApiKey(plaintext ?? ''));

    const listed = await careers(['keys', 'list', '--tenant', 'acme'], { DATABASE_URL: url });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ID\s+NAME\s+START\s+SCOPES/);
    expect(listed.stdout).toContain('Shell key');
    expect(listed.stdout).not.toContain(plaintext);

    const revoked = await careers(['keys', 'revoke', String(stored?.id)], { DATABASE_URL: url });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${stored?.id} "Shell key"`);
    expect(await rows(orm, `select revoked_at is not null as revoked from api_keys where name = 'Shell key'`)).toEqual([
      { revoked: true },
    ]);

    const unknownScope = await careers(
      ['keys', 'create', '--tenant', 'acme', '--name', 'X', '--scopes', 'vacancies:delete'],
      { DATABASE_URL: url },
    );
    expect(unknownScope.code).toBe(1);
    expect(unknownScope.stderr).toMatch(/^error: unknown scope "vacancies:delete"/);
    const unknownTenant = await careers(['keys', 'list', '--tenant', 'nope'], { DATABASE_URL: url });
    expect(unknownTenant.code).toBe(1);
    expect(unknownTenant.stderr.trim()).toBe('error: no tenant with slug "nope"');
    const unknownKey = await careers(['keys', 'revoke', '999999'], { DATABASE_URL: url });
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr.trim()).toBe('error: no API key with id 999999');
  });

  it('creates publishable keys bound to origins, and refuses candidates scopes and bad origins', async () => {
    const { url, orm } = await database();
    expect((await careers(['import', file('pk.json', document(1))], { DATABASE_URL: url })).code).toBe(0);
    const created = await careers(
      [
        'keys',
        'create',
        '--tenant',
        'acme',
        '--name',
        'Site',
        '--scopes',
        'vacancies:read,applications:write',
        '--publishable',
        '--origins',
        'https://Careers.Acme.example, http://localhost:5173',
      ],
      { DATABASE_URL: url },
    );
    expect(created.code, created.stderr).toBe(0);
    const plaintext = /^(pk_live_\S+)$/m.exec(created.stdout)?.[1];
    expect(plaintext).toBeDefined();
    expect(created.stdout).toContain(
      'publishable; allowed origins: https://careers.acme.example, http://localhost:5173',
    );
    expect(await rows(orm, `select kind, origins, key_hash from api_keys where name = 'Site'`)).toEqual([
      {
        kind: 'publishable',
        origins: ['https://careers.acme.example', 'http://localhost:5173'],
        key_hash: hashApiKey(plaintext ?? ''),
      },
    ]);
    const listed = await careers(['keys', 'list', '--tenant', 'acme', '--json'], { DATABASE_URL: url });
    expect(
      JSON.parse(listed.stdout.slice(listed.stdout.indexOf('['))).find((key: { name: string }) => key.name === 'Site'),
    ).toMatchObject({ kind: 'publishable', origins: ['https://careers.acme.example', 'http://localhost:5173'] });

    const refused = [
      [
        ['--scopes', 'vacancies:read,candidates:read', '--publishable', '--origins', 'https://a.example'],
        /A publishable key may only have the scopes/,
      ],
      [
        ['--scopes', '*', '--publishable', '--origins', 'https://a.example'],
        /A publishable key may only have the scopes/,
      ],
      [
        ['--scopes', 'vacancies:read', '--publishable', '--origins', 'https://a.example/jobs'],
        /must be an origin such as/,
      ],
      [['--scopes', 'vacancies:read', '--publishable', '--origins', ''], /needs at least one allowed origin/],
    ] as const;
    for (const [args, message] of refused) {
      const run = await careers(['keys', 'create', '--tenant', 'acme', '--name', 'Bad', ...args], {
        DATABASE_URL: url,
      });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    const noOrigins = await careers(
      ['keys', 'create', '--tenant', 'acme', '--name', 'Bad', '--scopes', 'vacancies:read', '--publishable'],
      { DATABASE_URL: url },
    );
    expect(noOrigins.code).toBe(2);
    expect(noOrigins.stderr).toContain('--publishable needs --origins');
    const secretWithOrigins = await careers(
      [
        'keys',
        'create',
        '--tenant',
        'acme',
        '--name',
        'Bad',
        '--scopes',
        'vacancies:read',
        '--origins',
        'https://a.example',
      ],
      { DATABASE_URL: url },
    );
    expect(secretWithOrigins.code).toBe(2);
    expect(await rows(orm, `select count(*)::int as n from api_keys where name = 'Bad'`)).toEqual([{ n: 0 }]);
  });

  it('writes the demo document, which imports cleanly', async () => {
    const { url, orm } = await database();
    const out = join(dir, 'demo.json');
    const written = await careers(['demo-document', '--out', out], {});
    expect(written.code).toBe(0);
    const demo = JSON.parse(readFileSync(out, 'utf8')) as TTenantDocument;
    expect(demo.tenants.map((t) => t.slug)).toEqual(['acme', 'globex']);
    const imported = await careers(['import', out], { DATABASE_URL: url });
    expect(imported.code).toBe(0);
    expect(await rows(orm, `select count(*)::int as n from tenants`)).toEqual([{ n: 2 }]);
  });

  it('rejects wrong usage with exit code 2', async () => {
    const run = await careers(['frobnicate'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: unknown command "frobnicate"');
    expect(run.stderr).toContain('Usage: pnpm careers');
  });
});
