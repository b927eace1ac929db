import { Command } from 'commander';
import { isAppError } from '@careers/core/contract';
import type { TApiKeyDto } from '@careers/core/operations';
import { commandGroup } from './group.ts';
import {
  CliError,
  operations,
  parseId,
  parseScopes,
  type TOutput,
  table,
  tenantIdOf,
  usageError,
  withOrm,
} from './support.ts';

type TCreateOptions = {
  tenant?: string;
  name?: string;
  scopes?: string;
  publishable?: boolean;
  origins?: string;
  json?: boolean;
};

/** `keys create | list | revoke`: a tenant's API keys. */
export function keysCommand(io: TOutput): Command {
  const create = new Command('create')
    .option('--tenant <slug>')
    .option('--name <name>')
    .option('--scopes <list>')
    .option('--publishable')
    .option('--origins <list>')
    .option('--json')
    .action(async (options: TCreateOptions) => {
      if (!options.tenant) throw usageError('keys create needs --tenant SLUG');
      if (options.name === undefined || options.name.trim() === '') throw usageError('keys create needs --name NAME');
      if (options.scopes === undefined)
        throw usageError("keys create needs --scopes a,b (--scopes '' for a key that can only call /health)");
      if (options.publishable && options.origins === undefined)
        throw usageError('keys create --publishable needs --origins https://a.example[,https://b.example]');
      if (!options.publishable && options.origins !== undefined)
        throw usageError('--origins is only for a publishable key (--publishable)');
      const scopes = parseScopes(options.scopes);
      const kind = options.publishable ? ('publishable' as const) : ('secret' as const);
      // The service validates and normalises them (the same rules as the dashboard).
      const origins =
        options.origins === undefined
          ? null
          : options.origins
              .split(',')
              .map((origin) => origin.trim())
              .filter((origin) => origin.length > 0);
      const tenantSlug = options.tenant;
      const name = options.name;
      const { createApiKey, auditActor, recordOperatorAudit, serviceContext } = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenantSlug);
        const { apiKey, plaintext } = await createApiKey(serviceContext(orm.em.fork(), tenantId), {
          name,
          scopes,
          kind,
          origins,
        });
        await recordOperatorAudit(
          { em: orm.em.fork() },
          {
            owner: { tenantId },
            entry: {
              actor: auditActor.cli(),
              action: 'api_key.created',
              subject: `api key ${apiKey.id}`,
              details: { name: apiKey.name, kind: apiKey.kind, scopes: apiKey.scopes },
            },
          },
        );
        if (options.json) {
          io.out(JSON.stringify({ ...apiKey, tenant: tenantSlug, key: plaintext }));
          return;
        }
        io.out(`Created API key ${apiKey.id} "${apiKey.name}" for tenant ${tenantSlug}`);
        io.out(`scopes: ${apiKey.scopes.length > 0 ? apiKey.scopes.join(', ') : '(none: /health only)'}`);
        if (apiKey.origins) io.out(`publishable; allowed origins: ${apiKey.origins.join(', ')}`);
        io.out('key (shown only this once; store it now):');
        io.out(plaintext);
      });
    });

  const list = new Command('list')
    .option('--tenant <slug>')
    .option('--json')
    .action(async (options: { tenant?: string; json?: boolean }) => {
      if (!options.tenant) throw usageError('keys list needs --tenant SLUG');
      const tenantSlug = options.tenant;
      const { listApiKeys, serviceContext } = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenantSlug);
        const keys = await listApiKeys(serviceContext(orm.em.fork(), tenantId));
        if (options.json) io.out(JSON.stringify(keys));
        else if (keys.length === 0) io.out(`Tenant ${tenantSlug} has no API keys.`);
        else
          io.out(
            table([
              ['ID', 'NAME', 'START', 'SCOPES', 'KIND', 'ORIGINS', 'CREATED', 'LAST USED', 'REVOKED'],
              ...keys.map(keyRow),
            ]),
          );
      });
    });

  const revoke = new Command('revoke').argument('[id]').action(async (idText: string | undefined) => {
    const id = parseId(idText, 'key ID');
    const { revokeApiKey, auditActor, ownerTenant, recordOperatorAudit, serviceContext } = await operations();
    await withOrm(async (orm) => {
      try {
        // The key is named by id alone: its tenant first, then the revocation runs with that tenant's context.
        const tenantId = await ownerTenant(orm.em.fork(), 'api_keys', id);
        if (tenantId === undefined) throw new CliError(`no API key with id ${id}`);
        const key = await revokeApiKey(serviceContext(orm.em.fork(), tenantId), { id });
        await recordOperatorAudit(
          { em: orm.em.fork() },
          {
            owner: { tenantId },
            entry: { actor: auditActor.cli(), action: 'api_key.revoked', subject: `api key ${key.id}` },
          },
        );
        io.out(`Revoked API key ${key.id} "${key.name}" (revoked at ${key.revoked_at ?? '?'})`);
      } catch (error) {
        if (isAppError(error) && error.code === 'NOT_FOUND') throw new CliError(`no API key with id ${id}`);
        throw error;
      }
    });
  });

  return commandGroup('keys', [create, list, revoke]);
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
