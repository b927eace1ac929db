import { Command } from 'commander';
import { commandGroup } from './group.ts';
import { operations, type TOutput, tenantIdOf, usageError, withOrm } from './support.ts';

/** `privacy sweep | erase`: retention and erasure of candidates' personal data. */
export function privacyCommand(io: TOutput): Command {
  const sweep = new Command('sweep')
    .option('--tenant <slug>')
    .option('--as-of <iso>')
    .option('--dry-run')
    .action(async (options: { tenant?: string; asOf?: string; dryRun?: boolean }) => {
      const asOfText = options.asOf;
      const asOf = asOfText === undefined ? undefined : new Date(asOfText);
      if (asOf !== undefined && (Number.isNaN(asOf.getTime()) || !/^\d{4}-\d\d-\d\d/.test(asOfText ?? ''))) {
        throw usageError(
          `--as-of needs an ISO 8601 time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z (got ${JSON.stringify(asOfText)})`,
        );
      }
      const service = await operations();
      await withOrm(async (orm) => {
        if (options.tenant !== undefined) await tenantIdOf(orm, options.tenant);
        const result = await service.sweepRetention(
          { em: orm.em.fork() },
          { tenantSlug: options.tenant, asOf, dryRun: options.dryRun === true },
        );
        if (options.dryRun) io.err('Dry run: nothing was erased; these are the counts a sweep would erase.');
        io.out(`erased_candidates: ${result.erased_candidates}`);
        io.out(`erased_applications: ${result.erased_applications}`);
      });
    });

  const erase = new Command('erase')
    .option('--tenant <slug>')
    .option('--email <email>')
    .action(async (options: { tenant?: string; email?: string }) => {
      if (!options.tenant) throw usageError('privacy erase needs --tenant SLUG');
      if (!options.email || options.email.trim() === '') throw usageError('privacy erase needs --email EMAIL');
      const { tenant } = options;
      const email = options.email.trim();
      const service = await operations();
      await withOrm(async (orm) => {
        const tenantId = await tenantIdOf(orm, tenant);
        const result = await service.eraseByEmail(service.serviceContext(orm.em.fork(), tenantId), {
          email,
          actor: service.auditActor.cli(),
        });
        io.out(`erased_candidates: ${result.erasedCandidates}`);
      });
    });

  return commandGroup('privacy', [sweep, erase]);
}
