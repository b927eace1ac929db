import { Command } from 'commander';
import { isAppError } from '@careers/core/contract';
import { commandGroup } from './group.ts';
import { CliError, operations, parseId, type TOutput, table, tenantIdOf, usageError, withOrm } from './support.ts';

/** `webhooks create | list | delete | enable | rotate | test`: a tenant's webhook endpoints. */
export function webhooksCommand(io: TOutput): Command {
  const create = new Command('create')
    .option('--tenant <slug>')
    .option('--url <url>')
    .option('--events <list>')
    .action(async (options: { tenant?: string; url?: string; events?: string }) => {
      if (!options.tenant) throw usageError('webhooks create needs --tenant SLUG');
      if (!options.url) throw usageError('webhooks create needs --url URL');
      if (!options.events) throw usageError("webhooks create needs --events type,type (or '*')");
      const { tenant, url } = options;
      const eventTypes = parseEventTypes(options.events);
      const service = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenant);
        const { endpoint, secret } = await onEndpoint(null, () =>
          service.createWebhookEndpoint(service.serviceContext(orm.em.fork(), tenantId), { url, eventTypes }),
        );
        await service.recordOperatorAudit(
          { em: orm.em.fork() },
          {
            owner: { tenantId },
            entry: {
              actor: service.auditActor.cli(),
              action: 'webhook.created',
              subject: `webhook ${endpoint.id}`,
              details: { event_types: endpoint.event_types },
            },
          },
        );
        io.out(`id: ${endpoint.id}`);
        io.out(`secret: ${secret}`);
        io.err(
          `Webhook endpoint for tenant ${tenant}: ${endpoint.url} (${endpoint.event_types.join(', ')}). The secret is shown only this once.`,
        );
      });
    });

  const list = new Command('list')
    .option('--tenant <slug>')
    .option('--json')
    .action(async (options: { tenant?: string; json?: boolean }) => {
      if (!options.tenant) throw usageError('webhooks list needs --tenant SLUG');
      const tenant = options.tenant;
      const service = await operations();
      await withOrm(async (orm) => {
        const endpoints = await service.listWebhookEndpoints(
          service.serviceContext(orm.em.fork(), await tenantIdOf(orm, tenant)),
        );
        if (options.json) io.out(JSON.stringify(endpoints));
        else if (endpoints.length === 0) io.out(`Tenant ${tenant} has no webhook endpoints.`);
        else
          io.out(
            table([
              ['ID', 'URL', 'EVENTS', 'STATE', 'CREATED'],
              ...endpoints.map((e) => [
                String(e.id),
                e.url,
                e.event_types.join(','),
                e.enabled ? 'enabled' : `disabled: ${e.disabled_reason ?? ''}`,
                e.created_at,
              ]),
            ]),
          );
      });
    });

  const onOneEndpoint = (name: 'delete' | 'enable' | 'rotate' | 'test') =>
    new Command(name).argument('[id]').action(async (idText: string | undefined) => {
      const id = parseId(idText, 'webhook endpoint ID');
      const service = await operations();
      await withOrm(async (orm) => {
        const em = orm.em.fork();
        // The endpoint is named by id alone: its tenant first, then everything runs with that tenant's context.
        const tenantId = await service.ownerTenant(em, 'webhook_endpoints', id);
        if (tenantId === undefined) throw new CliError(`no webhook endpoint with id ${id}`);
        const ctx = service.serviceContext(em, tenantId);
        const audit = async (action: 'webhook.deleted' | 'webhook.rotated') => {
          await service.recordOperatorAudit(
            { em: orm.em.fork() },
            { owner: { tenantId }, entry: { actor: service.auditActor.cli(), action, subject: `webhook ${id}` } },
          );
        };
        if (name === 'delete') {
          const endpoint = await onEndpoint(id, () => service.deleteWebhookEndpoint(ctx, { id }));
          await audit('webhook.deleted');
          io.out(`Deleted webhook endpoint ${endpoint.id} (${endpoint.url})`);
        } else if (name === 'enable') {
          const endpoint = await onEndpoint(id, () => service.enableWebhookEndpoint(ctx, { id }));
          io.out(`Enabled webhook endpoint ${endpoint.id} (${endpoint.url})`);
        } else if (name === 'rotate') {
          const { endpoint, secret } = await onEndpoint(id, () => service.rotateWebhookSecret(ctx, { id }));
          await audit('webhook.rotated');
          io.out(`secret: ${secret}`);
          io.err(
            `New secret for webhook endpoint ${endpoint.id}; the previous one keeps signing until ${endpoint.previous_secret_expires_at ?? '?'}.`,
          );
        } else {
          const delivery = await onEndpoint(id, () => service.sendTestEvent(ctx, { id }));
          io.out(
            `Queued webhook.test event ${delivery.event_id} for endpoint ${id} (delivery ${delivery.id}); the worker sends it.`,
          );
        }
      });
    });

  return commandGroup('webhooks', [
    create,
    list,
    onOneEndpoint('delete'),
    onOneEndpoint('enable'),
    onOneEndpoint('rotate'),
    onOneEndpoint('test'),
  ]);
}

function parseEventTypes(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((type) => type.trim())
        .filter((type) => type.length > 0),
    ),
  ];
}

/** Maps NOT_FOUND of an endpoint id, the test-event limit and a missing WEBHOOK_SECRET_KEY to one-line CLI errors. */
async function onEndpoint<T>(id: number | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (id !== null && isAppError(error) && error.code === 'NOT_FOUND')
      throw new CliError(`no webhook endpoint with id ${id}`);
    if (id !== null && isAppError(error) && error.code === 'TOO_MANY_ATTEMPTS') {
      const seconds = error.headers()['Retry-After'] ?? '60';
      throw new CliError(
        `too many test events and replays for webhook endpoint ${id} (10 a minute); try again in ${seconds} s`,
      );
    }
    if (isAppError(error) && error.code === 'SERVICE_UNAVAILABLE' && error.cause instanceof Error)
      throw new CliError(error.cause.message);
    throw error;
  }
}
