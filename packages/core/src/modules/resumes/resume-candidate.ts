import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import type { TCandidateResumeProfile } from '../candidates/candidate.entity.ts';
import type { TParsedResume } from './resume-parse.ts';

export type TResumeCandidate = { candidateId: number; created: boolean };

/** "Jane van der Berg" → "jane-van-der-berg" (ASCII, at most 60 characters); "candidate" when nothing is left. */
export function candidateSlugBase(firstName: string, lastName: string): string {
  const slug = `${firstName} ${lastName}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'candidate';
}

function clip(value: string | null, length: number): string | null {
  return value === null ? null : value.slice(0, length);
}

/**
 * Creates the candidate a resume describes, or — when a candidate of the tenant already has the resume's email
 * (case-insensitive) — updates that one; then associates it with the user. Runs inside the caller's transaction
 * on a tenant-scoped Kysely.
 */
export async function saveResumeCandidate(
  db: TDb,
  tenantId: number,
  userId: number,
  fields: TParsedResume,
): Promise<TResumeCandidate> {
  const firstName = fields.firstName.slice(0, 255);
  const lastName = fields.lastName.slice(0, 255);
  const phone = clip(fields.phone, 64);
  const linkedinUrl = clip(fields.linkedinUrl, 2048);
  const email = clip(fields.email, 255);
  // The profile of the latest resume replaces an earlier one (it is what the candidate sends now).
  const profile = sql<TCandidateResumeProfile>`${JSON.stringify(fields.profile)}::jsonb`;

  let existing: { id: number } | undefined;
  if (email !== null) {
    // Two resumes with one new email, processed at once, must not both create a candidate: serialise on the email.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`candidate-email:${tenantId}:${email.toLowerCase()}`}, 0))`.execute(
      db,
    );
    existing = await db
      .selectFrom('candidates')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .forUpdate()
      .executeTakeFirst();
  }

  let candidateId: number;
  if (existing) {
    candidateId = existing.id;
    await db
      .updateTable('candidates')
      .set((eb) => ({
        // A name read from the resume's own name line wins; one guessed from the email does not replace a real one.
        ...(fields.nameSource === 'line' ? { first_name: firstName, last_name: lastName } : {}),
        phone: eb.fn.coalesce(eb.val(phone), eb.ref('phone')),
        linkedin_url: eb.fn.coalesce(eb.val(linkedinUrl), eb.ref('linkedin_url')),
        profile,
        updated_at: sql<Date>`now()`,
      }))
      .where('id', '=', candidateId)
      .execute();
  } else {
    // Without an email, or without a name read from the resume's own lines, a person has to complete the candidate.
    const needsCompletion = email === null || fields.nameSource !== 'line';
    candidateId = await insertCandidate(db, tenantId, {
      firstName,
      lastName,
      email,
      phone,
      linkedinUrl,
      needsCompletion,
      profile,
    });
  }

  await db
    .insertInto('candidate_users')
    .values({ candidate_id: candidateId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return { candidateId, created: !existing };
}

async function insertCandidate(
  db: TDb,
  tenantId: number,
  candidate: {
    firstName: string;
    lastName: string;
    email: string | null;
    phone: string | null;
    linkedinUrl: string | null;
    needsCompletion: boolean;
    profile: RawBuilder<TCandidateResumeProfile>;
  },
): Promise<number> {
  const base = candidateSlugBase(candidate.firstName, candidate.lastName);
  // The plain name first; a taken slug gets a random suffix (retried on the rare collision).
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
    const row = await db
      .insertInto('candidates')
      .values({
        // serial: the database numbers new candidates
        id: sql<number>`default`,
        tenant_id: tenantId,
        slug,
        first_name: candidate.firstName,
        last_name: candidate.lastName,
        email: candidate.email,
        phone: candidate.phone,
        linkedin_url: candidate.linkedinUrl,
        status: 'potential',
        needs_completion: candidate.needsCompletion,
        profile: candidate.profile,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'slug']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return row.id;
  }
  throw new Error('no free candidate slug found');
}
