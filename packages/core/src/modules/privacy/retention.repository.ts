import { sql, type Expression, type SqlBool } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { crossTenantDb, type TDb } from '../../db/kysely.ts';
import { privacySettingsOf, type TPrivacySettings } from './privacy-settings.ts';

/** What the sweep decides with: the tenant's settings and the time it runs as. */
export type TRetentionClock = { settings: TPrivacySettings; asOf: Date };

/** `timestamp` is less than `days` before the sweep's time; always true when `days` is null ("keep"). */
function within(column: Expression<Date>, days: number | null, asOf: Date): Expression<SqlBool> {
  if (days === null) return sql<SqlBool>`true`;
  return sql<SqlBool>`${column} > ${asOf}::timestamptz - make_interval(days => ${days})`;
}

/** A candidate the sweep erases: nothing of theirs is unexpired, and neither talent-pool consent nor a resume keeps them. */
function erasableCandidate(db: TDb, { settings, asOf }: TRetentionClock) {
  const r = settings.retention_days;
  const p = settings.talent_pool_retention_days;
  return db
    .selectFrom('candidates as c')
    .select('c.id')
    .where((eb) =>
      eb.and([
        // An unexpired application keeps the candidate (null retention_days: applications never expire).
        eb.not(
          eb.exists(
            eb
              .selectFrom('applications as a')
              .select('a.id')
              .whereRef('a.candidate_id', '=', 'c.id')
              .where(within(sql.ref('a.created_at'), r, asOf)),
          ),
        ),
        // Talent-pool consent on an application younger than talent_pool_retention_days.
        eb.not(
          eb.exists(
            eb
              .selectFrom('applications as a')
              .select('a.id')
              .whereRef('a.candidate_id', '=', 'c.id')
              .where('a.consent_talent_pool', '=', true)
              .where(within(sql.ref('a.created_at'), p, asOf)),
          ),
        ),
        // A candidate made from a resume upload is kept like a talent-pool candidate from its creation.
        eb.or([
          eb.not(
            eb.exists(
              eb.selectFrom('resume_processings as rp').select('rp.id').whereRef('rp.candidate_id', '=', 'c.id'),
            ),
          ),
          eb.not(within(sql.ref('c.created_at'), p, asOf)),
        ]),
        // A candidate with no application at all expires retention_days after its own creation.
        eb.or([
          eb.exists(eb.selectFrom('applications as a').select('a.id').whereRef('a.candidate_id', '=', 'c.id')),
          eb.not(within(sql.ref('c.created_at'), r, asOf)),
        ]),
      ]),
    );
}

/** An expired application that does not itself hold an unexpired talent-pool consent (it would keep its candidate). */
function expiredApplication(db: TDb, { settings, asOf }: TRetentionClock) {
  if (settings.retention_days === null)
    return db.selectFrom('applications as a').select('a.id').where(sql<SqlBool>`false`);
  return db
    .selectFrom('applications as a')
    .select('a.id')
    .where((eb) => eb.not(within(sql.ref('a.created_at'), settings.retention_days, asOf)))
    .where((eb) =>
      eb.not(
        eb.and([
          eb('a.consent_talent_pool', '=', true),
          within(sql.ref('a.created_at'), settings.talent_pool_retention_days, asOf),
        ]),
      ),
    );
}

/** Up to `limit` erasable candidates, locked for this transaction; rows another sweep holds are skipped. */
export async function claimErasableCandidates(db: TDb, clock: TRetentionClock, limit: number): Promise<number[]> {
  const rows = await erasableCandidate(db, clock).orderBy('c.id').limit(limit).forUpdate().skipLocked().execute();
  return rows.map((row) => row.id);
}

/** Up to `limit` expired applications, locked for this transaction (skipping those another sweep holds). */
export async function claimExpiredApplications(db: TDb, clock: TRetentionClock, limit: number): Promise<number[]> {
  const rows = await expiredApplication(db, clock).orderBy('a.id').limit(limit).forUpdate().skipLocked().execute();
  return rows.map((row) => row.id);
}

/** What a sweep would erase now: the candidates, and the applications (theirs and the expired ones of kept candidates). */
export async function countSweep(
  db: TDb,
  clock: TRetentionClock,
): Promise<{ candidates: number; applications: number }> {
  const erasable = erasableCandidate(db, clock);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(erasable.as('e'))
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('candidates'),
      eb
        .selectFrom('applications as a')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where((w) =>
          w.or([
            w('a.candidate_id', 'in', erasableCandidate(db, clock)),
            w('a.id', 'in', expiredApplication(db, clock)),
          ]),
        )
        .as('applications'),
    ])
    .executeTakeFirstOrThrow();
  return { candidates: Number(row.candidates), applications: Number(row.applications) };
}

/** The tenants the sweep looks at: those with a retention period (an operator path across tenants). */
export async function findTenantsToSweep(em: EntityManager, slug: string | undefined) {
  let query = crossTenantDb(em).selectFrom('tenants').select(['id', 'slug', 'privacy']).orderBy('id');
  if (slug !== undefined) query = query.where('slug', '=', slug);
  const rows = await query.execute();
  return rows
    .map((row) => ({ id: row.id, slug: row.slug, settings: privacySettingsOf(row.privacy) }))
    .filter((tenant) => tenant.settings.retention_days !== null || tenant.settings.talent_pool_retention_days !== null);
}
