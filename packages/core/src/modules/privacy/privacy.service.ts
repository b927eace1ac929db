import type { TServiceContext } from '../service-context.ts';
import { iso } from '../../lib/dates.ts';
import { findHeldByEmail, type THeldCandidateRow } from './candidate-export.repository.ts';

export type THeldCandidate = Omit<THeldCandidateRow, 'created_at'> & { created_at: string };

/** What is held about a person of this email (case-insensitive): their candidates with counts. */
export async function findPersonByEmail(ctx: TServiceContext, input: { email: string }): Promise<THeldCandidate[]> {
  const rows = await findHeldByEmail(ctx.db, input.email);
  return rows.map((row) => ({ ...row, created_at: iso(row.created_at) }));
}
