import { isAbsolute, resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LEGACY_FULL_ACCESS, SCOPES, isKnownScope } from '@careers/core/contract';
import { cliEnv } from '../env.ts';

// The database stack (MikroORM, Kysely, pg, pg-boss, argon2) loads only for the commands that use it, so
// help and usage errors answer quickly.
export const operations = () => import('@careers/core/operations');

export const USAGE = `Usage: pnpm careers <command>

Commands:
  migrate                                   apply pending migrations to DATABASE_URL
  import FILE                               load a tenant document (JSON) into DATABASE_URL; idempotent
  keys create --tenant SLUG --name NAME --scopes a,b [--json]
                                            create an API key; prints the key once
              [--publishable --origins https://a.example,https://b.example]
                                            a publishable key (pk_live_…) for a career site in the browser: only
                                            public scopes and applications:write, honoured from these origins only
  keys list --tenant SLUG [--json]          list a tenant's API keys (never the keys themselves)
  keys revoke ID                            revoke an API key
  webhooks create --tenant SLUG --url URL --events type,type
                                            add a webhook endpoint (--events '*' for all; at most 10 per tenant); prints its secret once
  webhooks list --tenant SLUG [--json]      list a tenant's webhook endpoints
  webhooks delete ID                        delete a webhook endpoint (and its delivery log)
  webhooks enable ID                        enable an endpoint again (after a 410 Gone disabled it)
  webhooks rotate ID                        new secret for an endpoint; the old one keeps signing for 24 h
  webhooks test ID                          send a webhook.test event to that endpoint only (10 a minute with replays)
  privacy sweep [--tenant SLUG] [--as-of ISO] [--dry-run]
                                            erase what the tenants' retention periods have passed (as if the time
                                            were --as-of); prints erased_candidates and erased_applications
  privacy erase --tenant SLUG --email EMAIL erase every candidate with that email (case-insensitive) and all
                                            that is held about them; prints erased_candidates
  demo-document [--large N] [--seed S] [--out FILE]
                                            print the demo tenant document (or a generated one with N vacancies)

Scopes: ${SCOPES.join(', ')} (or ${LEGACY_FULL_ACCESS} for legacy full access; --scopes '' for /health only).
Relative paths are resolved from the directory pnpm was started for (INIT_CWD), else the current one.
Environment: DATABASE_URL (required by migrate, import, keys, webhooks and privacy); WEBHOOK_SECRET_KEY (32 bytes, base64:
encrypts webhook secrets; required by webhooks create and rotate outside the embedded development database).`;

/** An expected failure: its message is printed as is, without a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** Wrong usage: the message and the usage, exit code 2. */
export const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, 2);

export type TOutput = { out: (line: string) => void; err: (line: string) => void };

export function userPath(file: string): string {
  return isAbsolute(file) ? file : resolve(cliEnv().INIT_CWD ?? process.cwd(), file);
}

export async function withOrm<T>(run: (orm: MikroORM) => Promise<T>): Promise<T> {
  const url = cliEnv().DATABASE_URL;
  if (!url)
    throw new CliError(
      'DATABASE_URL is not set: point it at the PostgreSQL database, e.g. DATABASE_URL=postgres://user:pass@host:5432/careers',
    );
  const { openOrm } = await operations();
  let orm: MikroORM;
  try {
    orm = await openOrm(url, { pool: { min: 0, max: 2 } });
    await orm.em.getConnection().execute('select 1');
  } catch (error) {
    throw new CliError(`could not connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return await run(orm);
  } finally {
    await orm.close(true);
  }
}

export async function tenantIdOf(orm: MikroORM, slug: string): Promise<number> {
  const { kyselyOf } = await operations();
  const row = await kyselyOf(orm.em.fork())
    .selectFrom('tenants')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!row) throw new CliError(`no tenant with slug ${JSON.stringify(slug)}`);
  return row.id;
}

export function parseScopes(value: string): string[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined)
    throw new CliError(
      `unknown scope ${JSON.stringify(unknown)}; known scopes: ${SCOPES.join(', ')} (or ${LEGACY_FULL_ACCESS})`,
    );
  return [...new Set(scopes)];
}

export function parseId(value: string | undefined, what: string): number {
  if (value === undefined) throw usageError(`missing ${what}`);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647)
    throw new CliError(`${what} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
