import type { ZodType } from 'zod';
import type { TDb } from '../../db/kysely.ts';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { parsePathId } from '../../lib/query.ts';
import { findResumeProcessing } from '../resumes/resumes.repository.ts';
import { toResumeProcessingDto, type TResumeProcessingDto } from '../resumes/resume-processing.dto.ts';
import { toCandidateProfileDto } from './candidate.dto.ts';
import { findCandidateProfile, isUserOfTenant } from './candidates.repository.ts';
import type { TCandidateProfile } from './candidate.dto.ts';

const UNKNOWN_USER: TFieldErrors = { user_id: ['The selected user id is invalid.'] };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id must name a user of the tenant: another tenant's user behaves like no user at all (422). */
export async function requireUserOfTenant(db: TDb, userId: number): Promise<void> {
  if (!(await isUserOfTenant(db, userId))) throw AppError.validation(UNKNOWN_USER);
}

/**
 * The same rule as field errors of a raw input that failed validation, for the one 422 that lists every invalid
 * field: only a `user_id` the schema accepts is looked up.
 */
export async function unknownUserErrors(db: TDb, rawInput: unknown, ZUserId: ZodType<number>): Promise<TFieldErrors> {
  const userId = ZUserId.safeParse((rawInput as Record<string, unknown> | null)?.user_id);
  return userId.success && !(await isUserOfTenant(db, userId.data)) ? UNKNOWN_USER : {};
}

/** A candidate by the id in the path; one that is not an integer names nothing (404). */
export async function getCandidateProfile(db: TDb, pathId: string): Promise<TCandidateProfile> {
  const id = parsePathId(pathId);
  const found = id === undefined ? undefined : await findCandidateProfile(db, id);
  if (!found) throw new AppError('NOT_FOUND');
  return toCandidateProfileDto(found.row, found.userIds);
}

/** A resume processing by its id; one that is not a UUID names nothing (and the uuid column would refuse it). */
export async function getResumeProcessing(db: TDb, processingId: string): Promise<TResumeProcessingDto> {
  const row = UUID.test(processingId) ? await findResumeProcessing(db, processingId.toLowerCase()) : undefined;
  if (!row) throw new AppError('NOT_FOUND');
  return toResumeProcessingDto(row);
}
