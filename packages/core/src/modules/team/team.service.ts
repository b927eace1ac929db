import type { TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { parsePathId } from '../../lib/query.ts';
import type { TTenantContext } from '../api-keys/api-key.verifier.ts';
import { contentKey, type ContentCache, type TContentReader } from '../content/content-cache.ts';
import { SerializedForm, servedAnswer, type TAnswerTransport } from '../content/serialized-answer.ts';
import { toTeamMemberDto } from './team-member.dto.ts';
import { findTeamMember, findTeamPage } from './team.repository.ts';
import { ZGetTeamMemberOutput, type TGetTeamMemberInput, type TGetTeamMemberOutput } from './team-member.schema.ts';
import {
  ZListTeamMembersOutput,
  type TListTeamMembersInput,
  type TListTeamMembersOutput,
} from './team-member.schema.ts';

/** What the team reads need from a request: its tenant-scoped database, tenant, key, response and URL. */
export type TTeamReadContext = TContentReader &
  TAnswerTransport & { db: TDb; tenant: TTenantContext; url: URL; services: { content: ContentCache } };

const dtoOptions = (ctx: TTeamReadContext, input: { include_phone: boolean; include_role: boolean }) => ({
  includePhone: input.include_phone,
  includeRole: input.include_role,
  defaultLanguage: ctx.tenant.defaultLanguage,
});

export async function listTeamMembers(
  ctx: TTeamReadContext,
  input: TListTeamMembersInput,
): Promise<TListTeamMembersOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('team.list', ctx.tenant, input),
    compute: async () => {
      const { rows, total } = await findTeamPage(
        ctx.db,
        { search: input.search, jobTitle: input.job_title, role: input.role, hasAvatar: input.has_avatar },
        { sort: input.sort, direction: input.sort_direction },
        { page: input.page, perPage: input.per_page },
      );
      return {
        value: {
          members: rows.map((row) => toTeamMemberDto(row, dtoOptions(ctx, input))),
          total,
          form: new SerializedForm(),
        },
      };
    },
  });
  const { members, total, form } = answer.value;
  // Pagination links repeat the request's URL as it was spelled.
  return servedAnswer(ctx, { form, live: undefined }, ZListTeamMembersOutput, ctx.url.href, () =>
    paginate(members, total, input.page, input.per_page, ctx.url),
  );
}

/** An employed team member by id (404 otherwise). */
export async function getTeamMember(ctx: TTeamReadContext, input: TGetTeamMemberInput): Promise<TGetTeamMemberOutput> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('team.detail', ctx.tenant, input),
    compute: async () => {
      const id = parsePathId(input.id);
      const row = id === undefined ? undefined : await findTeamMember(ctx.db, id);
      return {
        value: row ? { member: toTeamMemberDto(row, dtoOptions(ctx, input)), form: new SerializedForm() } : null,
      };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  const { member, form } = answer.value;
  return servedAnswer(ctx, { form, live: undefined }, ZGetTeamMemberOutput, '', () => ({ data: member }));
}
