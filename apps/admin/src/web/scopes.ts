import { SCOPES, type TScope, isPublishableScope, normalizeOrigin, PUBLISHABLE_SCOPES } from '@careers/core/contract';

export { SCOPES, type TScope, isPublishableScope, normalizeOrigin, PUBLISHABLE_SCOPES };
export type TKeyKind = 'secret' | 'publishable';

/** What each scope grants (SPEC.md, "Scopes"). */
export const SCOPE_DESCRIPTIONS: Record<TScope, string> = {
  'vacancies:read': 'Published vacancies and facets',
  'vacancies:write': 'Reporting canonical vacancy URLs',
  'applications:write': 'Submitting applications',
  'candidates:read': 'Candidate list and profiles',
  'candidates:write': 'Creating candidates by resume upload',
  'candidates:delete': 'Erasing candidates and everything held about them (privacy requests)',
  'team:read': 'Team members',
  'locations:read': 'Office locations',
  'articles:read': 'Published articles',
};

/** Scope sets (and key kinds) for the kinds of client most tenants run. */
export const SCOPE_PRESETS: ReadonlyArray<{ name: string; kind: TKeyKind; scopes: readonly TScope[] }> = [
  {
    name: 'Career Website',
    kind: 'secret',
    scopes: ['vacancies:read', 'applications:write', 'locations:read', 'team:read', 'articles:read'],
  },
  { name: 'Career website (browser)', kind: 'publishable', scopes: [...PUBLISHABLE_SCOPES] },
  { name: 'Chrome Plugin', kind: 'secret', scopes: ['candidates:read', 'candidates:write', 'team:read'] },
  { name: 'Privacy requests (ATS)', kind: 'secret', scopes: ['candidates:read', 'candidates:delete'] },
];
