import type { TMeta } from '../../operation-meta.ts';

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
