import { sql, type SqlBool } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { isStorableId } from '../../lib/query.ts';
import { TENANT_SCOPED_TABLES } from '../../db/tenant-scope.ts';
import {
  PUBLISHABLE_RATE_LIMITS,
  addressBucket,
  type TRateLimitedOperation,
} from '../rate-limits/rate-limit-buckets.ts';
import { PERSONAL_DATA_TABLES, type TPersonReach } from './personal-data-map.ts';

/** Everything that identifies one person's rows (see personal-data-map.ts). */
export type TPersonIds = {
  candidateIds: number[];
  applicationIds: number[];
  processingIds: string[];
  /** Ids (`evt_…`) of the events about the candidates, applications and resume uploads above. */
  eventIds: string[];
  /** Addresses the applications were sent from (tracking), for the address-keyed rate-limit windows. */
  addresses: string[];
};

/** Locks the tenant's candidates of these ids until the transaction ends (an application for them waits); returns those that exist. */
export async function lockCandidates(db: TDb, candidateIds: readonly number[]): Promise<number[]> {
  // An id no integer column can hold names nobody (and the database would refuse it as a parameter).
  const storable = candidateIds.filter(isStorableId);
  if (storable.length === 0) return [];
  const rows = await db
    .selectFrom('candidates')
    .select('id')
    .where('id', 'in', storable)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/** The tenant's candidates with this email (case-insensitive). */
export async function candidateIdsByEmail(db: TDb, email: string): Promise<number[]> {
  const rows = await db
    .selectFrom('candidates')
    .select('id')
    .where(sql<SqlBool>`lower(${sql.ref('email')}) = lower(${email})`)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The ids of a person: the candidates given (already locked), all their applications plus `applicationIds` (an
 * application erased on its own), their resume uploads and the events about any of these.
 */
export async function collectPerson(
  db: TDb,
  candidateIds: readonly number[],
  applicationIds: readonly number[] = [],
): Promise<TPersonIds> {
  const applications =
    candidateIds.length + applicationIds.length === 0
      ? []
      : await db
          .selectFrom('applications')
          .select(['id', 'tracking_ip_address'])
          .where((eb) =>
            eb.or([
              ...(candidateIds.length > 0 ? [eb('candidate_id', 'in', candidateIds)] : []),
              ...(applicationIds.length > 0 ? [eb('id', 'in', applicationIds)] : []),
            ]),
          )
          .orderBy('id')
          .execute();
  const processings =
    candidateIds.length === 0
      ? []
      : await db.selectFrom('resume_processings').select('id').where('candidate_id', 'in', candidateIds).execute();
  const person = {
    candidateIds: [...candidateIds],
    applicationIds: applications.map((row) => row.id),
    processingIds: processings.map((row) => row.id),
    addresses: [...new Set(applications.flatMap((row) => (row.tracking_ip_address ? [row.tracking_ip_address] : [])))],
  };
  const objects: Array<[string, string[]]> = [
    ['candidate', person.candidateIds.map(String)],
    ['application', person.applicationIds.map(String)],
    ['resume', person.processingIds],
  ];
  const wanted = objects.filter(([, ids]) => ids.length > 0);
  const events =
    wanted.length === 0
      ? []
      : await db
          .selectFrom('events')
          .select('id')
          .where((eb) =>
            eb.or(
              wanted.map(([object, ids]) =>
                eb.and([eb('object', '=', object as 'candidate'), eb('object_id', 'in', ids)]),
              ),
            ),
          )
          .execute();
  return { ...person, eventIds: events.map((row) => row.id) };
}

type TTable = 'candidates';

/** Deletes the rows one map entry reaches; returns how many. */
async function deleteReached(db: TDb, table: string, reach: TPersonReach, person: TPersonIds): Promise<number> {
  const deleteWhere = async (column: string, ids: readonly (number | string)[]) => {
    if (ids.length === 0) return 0;
    let query = db.deleteFrom(table as TTable).where(column as 'id', 'in', ids as number[]);
    // A table without tenant_id (a link table) is reached through its tenant-scoped owner, so only the tenant's rows go.
    if (!TENANT_SCOPED_TABLES.has(table) && reach.by === 'candidate') {
      query = query.where(
        column as 'id',
        'in',
        db.selectFrom('candidates').select('candidates.id').where('candidates.id', 'in', person.candidateIds),
      );
    }
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  };
  switch (reach.by) {
    case 'candidate':
      return deleteWhere(reach.column, person.candidateIds);
    case 'application':
      return deleteWhere(reach.column, person.applicationIds);
    case 'processing':
      return deleteWhere(reach.column, person.processingIds);
    case 'event':
      return deleteWhere(reach.column, person.eventIds);
    case 'event-object':
      return deleteWhere('id', person.eventIds);
    case 'stored-response':
      return deleteStoredResponses(db, person);
    case 'address-bucket':
      return deleteAddressWindows(db, person.addresses);
  }
}

/**
 * Idempotency records whose stored response names the person: an application's 201 (its candidate), a 409 duplicate
 * (its application), a resume upload's 202 (its processing). Bodies are JSON text inside jsonb (idempotency.repository.ts).
 */
async function deleteStoredResponses(db: TDb, person: TPersonIds): Promise<number> {
  if (person.candidateIds.length + person.applicationIds.length + person.processingIds.length === 0) return 0;
  const body = sql`(case when jsonb_typeof(${sql.ref('response_body')}) = 'string' then (${sql.ref('response_body')} #>> '{}')::jsonb end)`;
  const texts = (ids: readonly (number | string)[]) => ids.map(String);
  const result = await db
    .deleteFrom('idempotency_records')
    // The tenant's keys only (api_keys is tenant-scoped).
    .where('api_key_id', 'in', db.selectFrom('api_keys').select('api_keys.id'))
    .where('response_body', 'is not', null)
    .where(
      sql<SqlBool>`(${body} #>> '{data,candidate,id}' = any(${texts(person.candidateIds)}::text[])
        or (${sql.ref('operation')} like 'applications.%' and (${body} #>> '{data,id}' = any(${texts(person.applicationIds)}::text[]) or ${body} ->> 'application_id' = any(${texts(person.applicationIds)}::text[])))
        or ${body} ->> 'processing_id' = any(${texts(person.processingIds)}::text[]))`,
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The windows of the tenant's keys keyed by these addresses (they hold a hash of the address, and last minutes anyway). */
async function deleteAddressWindows(db: TDb, addresses: readonly string[]): Promise<number> {
  if (addresses.length === 0) return 0;
  const keys = await db.selectFrom('api_keys').select('id').execute();
  const operations = Object.keys(PUBLISHABLE_RATE_LIMITS) as TRateLimitedOperation[];
  const buckets = keys.flatMap((key) =>
    operations.flatMap((operation) => addresses.map((address) => addressBucket(key.id, operation, address))),
  );
  if (buckets.length === 0) return 0;
  const result = await db.deleteFrom('rate_limit_windows').where('bucket', 'in', buckets).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes everything the personal-data map reaches for the person, in the map's order; rows deleted per table. */
export async function deletePerson(db: TDb, person: TPersonIds): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const { table, reach } of PERSONAL_DATA_TABLES) deleted[table] = await deleteReached(db, table, reach, person);
  return deleted;
}
