import type { TMeta } from '../../operation-meta.ts';

export const listTeamMembersMeta = {
  openapi: {
    method: 'GET',
    path: '/team',
    tags: ['Team'],
    summary: 'List employed team members',
    description:
      'Employed team members with their avatars. `search` matches given name, family name, full name, email and job title ' +
      '(case-insensitive substring). Text sorts are case-insensitive, nulls last, ties by id.',
    protect: true,
  },
  scope: 'team:read',
  expensiveRead: 'misses',
} satisfies TMeta;
