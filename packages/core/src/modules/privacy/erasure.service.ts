import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantKysely, type TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import { parsePathId } from '../../lib/query.ts';
import { recordEvent } from '../events/events.service.ts';
import { recordAudit } from './audit-log.service.ts';
import { candidateIdsByEmail, collectPerson, deletePerson, lockCandidates } from './erasure.repository.ts';

export type TErasureResult = { erasedCandidates: number; erasedApplications: number };

/**
 * THE erasure routine (CONTRACT "What erasure means"), used by DELETE /candidates/{id}, the CLI, the dashboard and the
 * retention sweep: in one transaction, everything the personal-data map reaches for these candidates of the tenant is
 * deleted, and a `candidate.erased` event (id only) and an audit entry are recorded per candidate. Ids the tenant does
 * not have are ignored (another tenant's candidate is never touched: every statement is tenant-scoped).
 */
export async function eraseCandidates(em: EntityManager, tenantId: number, candidateIds: readonly number[], actor: string): Promise<TErasureResult> {
  if (candidateIds.length === 0) return { erasedCandidates: 0, erasedApplications: 0 };
  return em.transactional(async (tx) => eraseCandidatesIn(tenantKysely(tx, tenantId), tenantId, candidateIds, actor));
}

/** eraseCandidates inside the caller's transaction (`db` is its tenant-scoped Kysely). */
export async function eraseCandidatesIn(db: TDb, tenantId: number, candidateIds: readonly number[], actor: string): Promise<TErasureResult> {
  const locked = await lockCandidates(db, candidateIds);
  if (locked.length === 0) return { erasedCandidates: 0, erasedApplications: 0 };
  const person = await collectPerson(db, locked);
  await deletePerson(db, person);
  for (const id of locked) {
    await recordEvent(db, { tenantId, type: 'candidate.erased', object: 'candidate', objectId: id, data: {} });
    await recordAudit(db, { actor, action: 'candidate.erased', subject: `candidate ${id}` });
  }
  return { erasedCandidates: locked.length, erasedApplications: person.applicationIds.length };
}

/** Erases applications on their own (expired ones of a candidate who is kept): their documents and every copy of them. */
export async function eraseApplicationsIn(db: TDb, applicationIds: readonly number[]): Promise<number> {
  if (applicationIds.length === 0) return 0;
  const person = await collectPerson(db, [], applicationIds);
  await deletePerson(db, person);
  return person.applicationIds.length;
}

/** Erases every candidate of the tenant with this email (case-insensitive). */
export async function eraseByEmail(em: EntityManager, tenantId: number, email: string, actor: string): Promise<TErasureResult> {
  return em.transactional(async (tx) => {
    const db = tenantKysely(tx, tenantId);
    return eraseCandidatesIn(db, tenantId, await candidateIdsByEmail(db, email), actor);
  });
}

/** Erases one candidate of the tenant by the id in a path; an id the tenant does not have (or not an integer) is 404. */
export async function eraseCandidateById(em: EntityManager, tenantId: number, pathId: string, actor: string): Promise<void> {
  const id = parsePathId(pathId);
  const erased = id === undefined ? undefined : await eraseCandidates(em, tenantId, [id], actor);
  if (!erased || erased.erasedCandidates === 0) throw new AppError('NOT_FOUND');
}
