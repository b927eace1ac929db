import { AppError } from '../../lib/errors.ts';
import { parsePathId } from '../../lib/query.ts';
import { recordEvent } from '../events/events.service.ts';
import { serviceContext, type TServiceContext, type TServiceContextWithEm } from '../service-context.ts';
import { recordAudit } from './audit-log.service.ts';
import { candidateIdsByEmail, collectPerson, deletePerson, lockCandidates } from './erasure.repository.ts';

export type TErasureResult = { erasedCandidates: number; erasedApplications: number };

/**
 * THE erasure routine (CONTRACT "What erasure means"), used by DELETE /candidates/{id}, the CLI, the dashboard and the
 * retention sweep: in one transaction, everything the personal-data map reaches for these candidates of the tenant is
 * deleted, and a `candidate.erased` event (id only) and an audit entry are recorded per candidate. Ids the tenant does
 * not have are ignored (another tenant's candidate is never touched: every statement is tenant-scoped).
 */
export async function eraseCandidates(
  ctx: TServiceContextWithEm,
  input: { candidateIds: readonly number[]; actor: string },
): Promise<TErasureResult> {
  if (input.candidateIds.length === 0) return { erasedCandidates: 0, erasedApplications: 0 };
  return ctx.em.transactional(async (tx) => eraseCandidatesIn(serviceContext(tx, ctx.tenant.id), input));
}

/** eraseCandidates inside the caller's transaction (`ctx` is its tenant-scoped context). */
export async function eraseCandidatesIn(
  ctx: TServiceContext,
  input: { candidateIds: readonly number[]; actor: string },
): Promise<TErasureResult> {
  const { db } = ctx;
  const { actor } = input;
  const locked = await lockCandidates(db, input.candidateIds);
  if (locked.length === 0) return { erasedCandidates: 0, erasedApplications: 0 };
  const person = await collectPerson(db, locked);
  await deletePerson(db, person);
  for (const id of locked) {
    await recordEvent(ctx, { type: 'candidate.erased', object: 'candidate', objectId: id, data: {} });
    await recordAudit(ctx, { actor, action: 'candidate.erased', subject: `candidate ${id}` });
  }
  return { erasedCandidates: locked.length, erasedApplications: person.applicationIds.length };
}

/** Erases applications on their own (expired ones of a candidate who is kept): their documents and every copy of them. */
export async function eraseApplicationsIn(
  ctx: TServiceContext,
  input: { applicationIds: readonly number[] },
): Promise<number> {
  if (input.applicationIds.length === 0) return 0;
  const person = await collectPerson(ctx.db, [], input.applicationIds);
  await deletePerson(ctx.db, person);
  return person.applicationIds.length;
}

/** Erases every candidate of the tenant with this email (case-insensitive). */
export async function eraseByEmail(
  ctx: TServiceContextWithEm,
  input: { email: string; actor: string },
): Promise<TErasureResult> {
  return ctx.em.transactional(async (tx) => {
    const txCtx = serviceContext(tx, ctx.tenant.id);
    return eraseCandidatesIn(txCtx, {
      candidateIds: await candidateIdsByEmail(txCtx.db, input.email),
      actor: input.actor,
    });
  });
}

/** Erases one candidate of the tenant by the id in a path; an id the tenant does not have (or not an integer) is 404. */
export async function eraseCandidateById(
  ctx: TServiceContextWithEm,
  input: { id: string; actor: string },
): Promise<void> {
  const id = parsePathId(input.id);
  const erased = id === undefined ? undefined : await eraseCandidates(ctx, { candidateIds: [id], actor: input.actor });
  if (!erased || erased.erasedCandidates === 0) throw new AppError('NOT_FOUND');
}
