import type { ZodType } from 'zod';
import { AppError, type TFieldErrors } from '../../lib/errors.ts';
import { paginate, type TPage } from '../../lib/pagination.ts';
import { parsePathId } from '../../lib/query.ts';
import { findResumeProcessing } from '../resumes/resumes.repository.ts';
import { toResumeProcessingDto, type TResumeProcessingDto } from '../resumes/resume-processing.dto.ts';
import type { TServiceContext } from '../service-context.ts';
import type { TCandidateStatus } from './candidate.entity.ts';
import {
  toCandidateListItemDto,
  toCandidateProfileDto,
  type TCandidateListItem,
  type TCandidateProfile,
} from './candidate.dto.ts';
import {
  findCandidateProfile,
  findCandidatesPage,
  isUserOfTenant,
  type TCandidateSort,
} from './candidates.repository.ts';

const UNKNOWN_USER: TFieldErrors = { user_id: ['The selected user id is invalid.'] };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id must name a user of the tenant: another tenant's user behaves like no user at all (422). */
export async function requireUserOfTenant(ctx: TServiceContext, input: { userId: number }): Promise<void> {
  if (!(await isUserOfTenant(ctx.db, input.userId))) throw AppError.validation(UNKNOWN_USER);
}

/**
 * The same rule as field errors of a raw input that failed validation, for the one 422 that lists every invalid
 * field: only a `user_id` the schema accepts is looked up.
 */
export async function unknownUserErrors(
  ctx: TServiceContext,
  input: { rawInput: unknown; ZUserId: ZodType<number> },
): Promise<TFieldErrors> {
  const userId = input.ZUserId.safeParse((input.rawInput as Record<string, unknown> | null)?.user_id);
  return userId.success && !(await isUserOfTenant(ctx.db, userId.data)) ? UNKNOWN_USER : {};
}

/** What `GET /candidates` asks: a user's candidates, filtered, sorted and paged. */
export type TListCandidatesRequest = {
  user_id: number;
  email?: string;
  search?: string;
  status?: TCandidateStatus;
  sort: TCandidateSort;
  sort_direction: 'asc' | 'desc';
  page: number;
  per_page: number;
};

/** One page of the candidates associated with a user of the tenant (422 for a user the tenant does not have). */
export async function listCandidates(
  ctx: TServiceContext & { url: URL },
  input: TListCandidatesRequest,
): Promise<TPage<TCandidateListItem>> {
  await requireUserOfTenant(ctx, { userId: input.user_id });
  const { rows, total } = await findCandidatesPage(
    ctx.db,
    { userId: input.user_id, email: input.email, search: input.search, status: input.status },
    { sort: input.sort, direction: input.sort_direction },
    { page: input.page, perPage: input.per_page },
  );
  return paginate(
    rows.map((row) => toCandidateListItemDto(row, input.user_id)),
    total,
    input.page,
    input.per_page,
    ctx.url,
  );
}

/** A candidate by the id in the path; one that is not an integer names nothing (404). */
export async function getCandidateProfile(ctx: TServiceContext, input: { id: string }): Promise<TCandidateProfile> {
  const id = parsePathId(input.id);
  const found = id === undefined ? undefined : await findCandidateProfile(ctx.db, id);
  if (!found) throw new AppError('NOT_FOUND');
  return toCandidateProfileDto(found.row, found.userIds);
}

/** A resume processing by its id; one that is not a UUID names nothing (and the uuid column would refuse it). */
export async function getResumeProcessing(
  ctx: TServiceContext,
  input: { processingId: string },
): Promise<TResumeProcessingDto> {
  const row = UUID.test(input.processingId)
    ? await findResumeProcessing(ctx.db, input.processingId.toLowerCase())
    : undefined;
  if (!row) throw new AppError('NOT_FOUND');
  return toResumeProcessingDto(row);
}
