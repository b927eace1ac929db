/**
 * The `careers` command line (`pnpm careers …` from the repository root):
 *
 *   careers migrate
 *   careers import FILE
 *   careers keys create --tenant SLUG --name NAME --scopes a,b [--publishable --origins https://a.example] [--json]
 *   careers keys list --tenant SLUG [--json]
 *   careers keys revoke ID
 *   careers webhooks create --tenant SLUG --url URL --events type,type
 *   careers webhooks list --tenant SLUG [--json]
 *   careers webhooks delete ID | enable ID | rotate ID | test ID
 *   careers privacy sweep [--tenant SLUG] [--as-of ISO] [--dry-run]
 *   careers privacy erase --tenant SLUG --email EMAIL
 *   careers demo-document [--large N] [--seed S] [--out FILE]
 *
 * Database commands need DATABASE_URL. Expected failures print one line to stderr and exit 1 (2 for
 * wrong usage); no stack traces unless CAREERS_DEBUG=1.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isAppError, LEGACY_FULL_ACCESS, SCOPES, isKnownScope } from '@careers/core/contract';
import type { TApiKeyDto, TImportCounts } from '@careers/core/operations';
import { cliEnv } from './env.ts';

// The database stack (MikroORM, Kysely, pg, pg-boss, argon2) loads only for the commands that use it, so
// help and usage errors answer quickly.
const operations = () => import('@careers/core/operations');

const USAGE = `Usage: pnpm careers <command>

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
class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

const usageError = (message: string) => new CliError(`${message}\n\n${USAGE}`, 2);

type TOutput = { out: (line: string) => void; err: (line: string) => void };

function userPath(file: string): string {
  return isAbsolute(file) ? file : resolve(cliEnv().INIT_CWD ?? process.cwd(), file);
}

async function withOrm<T>(run: (orm: MikroORM) => Promise<T>): Promise<T> {
  const url = cliEnv().DATABASE_URL;
  if (!url) throw new CliError('DATABASE_URL is not set: point it at the PostgreSQL database, e.g. DATABASE_URL=postgres://user:pass@host:5432/careers');
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

async function tenantIdOf(orm: MikroORM, slug: string): Promise<number> {
  const { kyselyOf } = await operations();
  const row = await kyselyOf(orm.em.fork()).selectFrom('tenants').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!row) throw new CliError(`no tenant with slug ${JSON.stringify(slug)}`);
  return row.id;
}

function parseScopes(value: string): string[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined) throw new CliError(`unknown scope ${JSON.stringify(unknown)}; known scopes: ${SCOPES.join(', ')} (or ${LEGACY_FULL_ACCESS})`);
  return [...new Set(scopes)];
}

function parseId(value: string | undefined, what: string): number {
  if (value === undefined) throw usageError(`missing ${what}`);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new CliError(`${what} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

function formatCounts(counts: TImportCounts): string {
  return (Object.entries(counts) as [string, number][])
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${n} ${key.replaceAll('_', ' ')}`)
    .join(', ');
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ').trimEnd()).join('\n');
}

// --- commands --------------------------------------------------------------------------------------------

async function migrate(args: string[], io: TOutput): Promise<void> {
  parseArgs({ args, options: {}, allowPositionals: false });
  const { migrateUp } = await operations();
  const { installJobQueues } = await operations();
  await withOrm(async (orm) => {
    const applied = await migrateUp(orm);
    await installJobQueues(orm.config.get('clientUrl') ?? '');
    if (applied.length === 0) io.out('Database schema is up to date; no migrations to apply.');
    else io.out(`Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`);
  });
}

async function importCommand(args: string[], io: TOutput): Promise<void> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  const [file, ...extra] = positionals;
  if (!file) throw usageError('import needs a FILE');
  if (extra.length > 0) throw usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const path = userPath(file);
  const document = await readJsonFile(path);
  const { importTenantDocument } = await operations();
  await withOrm(async (orm) => {
    const summary = await importTenantDocument(orm, document);
    io.out(`Imported ${summary.tenants.length} tenant(s) from ${path} in ${(summary.duration_ms / 1000).toFixed(2)} s`);
    for (const tenant of summary.tenants) io.out(`  ${tenant.slug} (id ${tenant.id}): ${formatCounts(tenant.counts) || 'no records'}`);
  });
}

/** The parsed file; its text is garbage once this returns (a large document's text is not held during the import). */
async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function keyRow(key: TApiKeyDto): string[] {
  return [
    String(key.id),
    key.name,
    `${key.start}…`,
    key.scopes.length > 0 ? key.scopes.join(',') : '(none)',
    key.kind,
    key.origins?.join(',') ?? '-',
    key.created_at,
    key.last_used_at ?? '-',
    key.revoked_at ?? '-',
  ];
}

async function keys(args: string[], io: TOutput): Promise<void> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values } = parseArgs({
        args: rest,
        options: {
          tenant: { type: 'string' },
          name: { type: 'string' },
          scopes: { type: 'string' },
          publishable: { type: 'boolean' },
          origins: { type: 'string' },
          json: { type: 'boolean' },
        },
      });
      if (!values.tenant) throw usageError('keys create needs --tenant SLUG');
      if (values.name === undefined || values.name.trim() === '') throw usageError('keys create needs --name NAME');
      if (values.scopes === undefined) throw usageError("keys create needs --scopes a,b (--scopes '' for a key that can only call /health)");
      if (values.publishable && values.origins === undefined) throw usageError('keys create --publishable needs --origins https://a.example[,https://b.example]');
      if (!values.publishable && values.origins !== undefined) throw usageError('--origins is only for a publishable key (--publishable)');
      const scopes = parseScopes(values.scopes);
      const kind = values.publishable ? ('publishable' as const) : ('secret' as const);
      // The service validates and normalises them (the same rules as the dashboard).
      const origins = values.origins === undefined ? null : values.origins.split(',').map((origin) => origin.trim()).filter((origin) => origin.length > 0);
      const tenantSlug = values.tenant;
      const name = values.name;
      const { createApiKey } = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenantSlug);
        const { apiKey, plaintext } = await createApiKey(orm.em.fork(), { tenantId, name, scopes, kind, origins });
        const { auditActor, recordOperatorAudit } = await operations();
        await recordOperatorAudit(orm.em.fork(), { tenantId }, {
          actor: auditActor.cli(),
          action: 'api_key.created',
          subject: `api key ${apiKey.id}`,
          details: { name: apiKey.name, kind: apiKey.kind, scopes: apiKey.scopes },
        });
        if (values.json) {
          io.out(JSON.stringify({ ...apiKey, tenant: tenantSlug, key: plaintext }));
          return;
        }
        io.out(`Created API key ${apiKey.id} "${apiKey.name}" for tenant ${tenantSlug}`);
        io.out(`scopes: ${apiKey.scopes.length > 0 ? apiKey.scopes.join(', ') : '(none: /health only)'}`);
        if (apiKey.origins) io.out(`publishable; allowed origins: ${apiKey.origins.join(', ')}`);
        io.out('key (shown only this once; store it now):');
        io.out(plaintext);
      });
      return;
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, json: { type: 'boolean' } } });
      if (!values.tenant) throw usageError('keys list needs --tenant SLUG');
      const tenantSlug = values.tenant;
      const { listApiKeys } = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenantSlug);
        const list = await listApiKeys(orm.em.fork(), tenantId);
        if (values.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out(`Tenant ${tenantSlug} has no API keys.`);
        else io.out(table([['ID', 'NAME', 'START', 'SCOPES', 'KIND', 'ORIGINS', 'CREATED', 'LAST USED', 'REVOKED'], ...list.map(keyRow)]));
      });
      return;
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true });
      if (positionals.length > 1) throw usageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
      const id = parseId(positionals[0], 'key ID');
      const { revokeApiKey, auditActor, ownerTenant, recordOperatorAudit } = await operations();
      await withOrm(async (orm) => {
        try {
          const tenantId = await ownerTenant(orm.em.fork(), 'api_keys', id);
          const key = await revokeApiKey(orm.em.fork(), null, id);
          if (tenantId !== undefined) await recordOperatorAudit(orm.em.fork(), { tenantId }, { actor: auditActor.cli(), action: 'api_key.revoked', subject: `api key ${key.id}` });
          io.out(`Revoked API key ${key.id} "${key.name}" (revoked at ${key.revoked_at ?? '?'})`);
        } catch (error) {
          if (isAppError(error) && error.code === 'NOT_FOUND') throw new CliError(`no API key with id ${id}`);
          throw error;
        }
      });
      return;
    }
    default:
      throw usageError(action ? `unknown keys action ${JSON.stringify(action)}` : 'keys needs an action: create, list or revoke');
  }
}

function parseEventTypes(value: string): string[] {
  return [...new Set(value.split(',').map((type) => type.trim()).filter((type) => type.length > 0))];
}

/** Maps NOT_FOUND of an endpoint id, the test-event limit and a missing WEBHOOK_SECRET_KEY to one-line CLI errors. */
async function onEndpoint<T>(id: number | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (id !== null && isAppError(error) && error.code === 'NOT_FOUND') throw new CliError(`no webhook endpoint with id ${id}`);
    if (id !== null && isAppError(error) && error.code === 'TOO_MANY_ATTEMPTS') {
      const seconds = error.headers()['Retry-After'] ?? '60';
      throw new CliError(`too many test events and replays for webhook endpoint ${id} (10 a minute); try again in ${seconds} s`);
    }
    if (isAppError(error) && error.code === 'SERVICE_UNAVAILABLE' && error.cause instanceof Error) throw new CliError(error.cause.message);
    throw error;
  }
}

async function webhooks(args: string[], io: TOutput): Promise<void> {
  const [action, ...rest] = args;
  const service = await operations();
  switch (action) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' } } });
      if (!values.tenant) throw usageError('webhooks create needs --tenant SLUG');
      if (!values.url) throw usageError('webhooks create needs --url URL');
      if (!values.events) throw usageError("webhooks create needs --events type,type (or '*')");
      const { tenant, url } = values;
      const eventTypes = parseEventTypes(values.events);
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenant);
        const { endpoint, secret } = await onEndpoint(null, () => service.createWebhookEndpoint(orm.em.fork(), { tenantId, url, eventTypes }));
        await service.recordOperatorAudit(orm.em.fork(), { tenantId }, {
          actor: service.auditActor.cli(),
          action: 'webhook.created',
          subject: `webhook ${endpoint.id}`,
          details: { event_types: endpoint.event_types },
        });
        io.out(`id: ${endpoint.id}`);
        io.out(`secret: ${secret}`);
        io.err(`Webhook endpoint for tenant ${tenant}: ${endpoint.url} (${endpoint.event_types.join(', ')}). The secret is shown only this once.`);
      });
      return;
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, json: { type: 'boolean' } } });
      if (!values.tenant) throw usageError('webhooks list needs --tenant SLUG');
      const tenant = values.tenant;
      await withOrm(async (orm) => {
        const list = await service.listWebhookEndpoints(orm.em.fork(), await tenantIdOf(orm, tenant));
        if (values.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out(`Tenant ${tenant} has no webhook endpoints.`);
        else
          io.out(
            table([
              ['ID', 'URL', 'EVENTS', 'STATE', 'CREATED'],
              ...list.map((e) => [String(e.id), e.url, e.event_types.join(','), e.enabled ? 'enabled' : `disabled: ${e.disabled_reason ?? ''}`, e.created_at]),
            ]),
          );
      });
      return;
    }
    case 'delete':
    case 'enable':
    case 'rotate':
    case 'test': {
      const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true });
      if (positionals.length > 1) throw usageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
      const id = parseId(positionals[0], 'webhook endpoint ID');
      await withOrm(async (orm) => {
        const em = orm.em.fork();
        const tenantId = await service.ownerTenant(em, 'webhook_endpoints', id);
        const audit = async (action: 'webhook.deleted' | 'webhook.rotated') => {
          if (tenantId !== undefined) await service.recordOperatorAudit(orm.em.fork(), { tenantId }, { actor: service.auditActor.cli(), action, subject: `webhook ${id}` });
        };
        if (action === 'delete') {
          const endpoint = await onEndpoint(id, () => service.deleteWebhookEndpoint(em, null, id));
          await audit('webhook.deleted');
          io.out(`Deleted webhook endpoint ${endpoint.id} (${endpoint.url})`);
        } else if (action === 'enable') {
          const endpoint = await onEndpoint(id, () => service.enableWebhookEndpoint(em, null, id));
          io.out(`Enabled webhook endpoint ${endpoint.id} (${endpoint.url})`);
        } else if (action === 'rotate') {
          const { endpoint, secret } = await onEndpoint(id, () => service.rotateWebhookSecret(em, null, id));
          await audit('webhook.rotated');
          io.out(`secret: ${secret}`);
          io.err(`New secret for webhook endpoint ${endpoint.id}; the previous one keeps signing until ${endpoint.previous_secret_expires_at ?? '?'}.`);
        } else {
          const delivery = await onEndpoint(id, () => service.sendTestEvent(em, null, id));
          io.out(`Queued webhook.test event ${delivery.event_id} for endpoint ${id} (delivery ${delivery.id}); the worker sends it.`);
        }
      });
      return;
    }
    default:
      throw usageError(action ? `unknown webhooks action ${JSON.stringify(action)}` : 'webhooks needs an action: create, list, delete, enable, rotate or test');
  }
}

async function privacy(args: string[], io: TOutput): Promise<void> {
  const [action, ...rest] = args;
  const service = await operations();
  switch (action) {
    case 'sweep': {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, 'as-of': { type: 'string' }, 'dry-run': { type: 'boolean' } } });
      const asOfText = values['as-of'];
      const asOf = asOfText === undefined ? undefined : new Date(asOfText);
      if (asOf !== undefined && (Number.isNaN(asOf.getTime()) || !/^\d{4}-\d\d-\d\d/.test(asOfText ?? ''))) {
        throw usageError(`--as-of needs an ISO 8601 time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z (got ${JSON.stringify(asOfText)})`);
      }
      await withOrm(async (orm) => {
        if (values.tenant !== undefined) await tenantIdOf(orm, values.tenant);
        const result = await service.sweepRetention(orm.em.fork(), { tenantSlug: values.tenant, asOf, dryRun: values['dry-run'] === true });
        if (values['dry-run']) io.err('Dry run: nothing was erased; these are the counts a sweep would erase.');
        io.out(`erased_candidates: ${result.erased_candidates}`);
        io.out(`erased_applications: ${result.erased_applications}`);
      });
      return;
    }
    case 'erase': {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, email: { type: 'string' } } });
      if (!values.tenant) throw usageError('privacy erase needs --tenant SLUG');
      if (!values.email || values.email.trim() === '') throw usageError('privacy erase needs --email EMAIL');
      const { tenant } = values;
      const email = values.email.trim();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenant);
        const result = await service.eraseByEmail(orm.em.fork(), tenantId, email, service.auditActor.cli());
        io.out(`erased_candidates: ${result.erasedCandidates}`);
      });
      return;
    }
    default:
      throw usageError(action ? `unknown privacy action ${JSON.stringify(action)}` : 'privacy needs an action: sweep or erase');
  }
}

async function demoDocument(args: string[], io: TOutput): Promise<void> {
  const { values } = parseArgs({ args, options: { large: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } } });
  let document: unknown;
  if (values.large !== undefined) {
    const vacancies = parseId(values.large, '--large');
    const seed = values.seed === undefined ? 1 : parseId(values.seed, '--seed');
    const { buildLargeDocument } = await operations();
    document = buildLargeDocument({ vacancies, seed });
  } else {
    if (values.seed !== undefined) throw usageError('--seed only applies with --large');
    const { buildDemoDocument } = await operations();
    document = buildDemoDocument();
  }
  const json = values.large !== undefined ? JSON.stringify(document) : JSON.stringify(document, null, 2);
  if (values.out) {
    const path = userPath(values.out);
    await writeFile(path, `${json}\n`);
    io.err(`Wrote ${path}`);
  } else {
    io.out(json);
  }
}

export async function runCli(argv: string[], io: TOutput): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'migrate':
        await migrate(args, io);
        break;
      case 'import':
        await importCommand(args, io);
        break;
      case 'keys':
        await keys(args, io);
        break;
      case 'webhooks':
        await webhooks(args, io);
        break;
      case 'privacy':
        await privacy(args, io);
        break;
      case 'demo-document':
        await demoDocument(args, io);
        break;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw usageError(`unknown command ${JSON.stringify(command)}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof Error && error.name === 'TenantDocumentError') {
      io.err(`error: the document was refused, nothing was written: ${error.message}`);
      return 1;
    }
    if (isAppError(error)) {
      const details = error.fieldErrors ? Object.values(error.fieldErrors).flat().join(' ') : '';
      io.err(`error: ${error.message}${details ? ` ${details}` : ''}`);
      return 1;
    }
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    if (cliEnv().CAREERS_DEBUG === '1' && error instanceof Error && error.stack) io.err(error.stack);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}
