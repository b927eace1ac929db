import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zFlag } from '../../../lib/query.ts';
import { ZTeamMember } from '../team-member.dto.ts';
import { zPathIntegerId } from '../../../lib/query.ts';

export const getTeamMemberMeta = {
  openapi: {
    method: 'GET',
    path: '/team/{id}',
    tags: ['Team'],
    summary: 'Get one employed team member',
    description:
      'The complete team member by id. A non-integer id, a member who is not employed, or one of another tenant is 404.',
    protect: true,
  },
  scope: 'team:read',
  expensiveRead: 'misses',
  errors: ['NOT_FOUND'],
} satisfies TMeta;

export const ZGetTeamMemberInput = z.object({
  id: zPathIntegerId('The team member id'),
  include_phone: zFlag.describe('Add phone (E.164, or null)'),
  include_role: zFlag.describe("Add role: the role's label (or null)"),
});
export type TGetTeamMemberInput = z.infer<typeof ZGetTeamMemberInput>;

export const ZGetTeamMemberOutput = z.object({ data: ZTeamMember });
export type TGetTeamMemberOutput = z.infer<typeof ZGetTeamMemberOutput>;
