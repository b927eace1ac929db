import { SCOPES, type TScope } from '@careers/core/lib/scopes.ts';

export { SCOPES, type TScope };

/** What each scope grants (SPEC.md, "Scopes"). */
export const SCOPE_DESCRIPTIONS: Record<TScope, string> = {
  'vacancies:read': 'Published vacancies and facets',
  'vacancies:write': 'Reporting canonical vacancy URLs',
  'applications:write': 'Submitting applications',
  'candidates:read': 'Candidate list and profiles',
  'candidates:write': 'Creating candidates by resume upload',
  'team:read': 'Team members',
  'locations:read': 'Office locations',
  'articles:read': 'Published articles',
};

/** Scope sets for the two kinds of client most tenants run. */
export const SCOPE_PRESETS: ReadonlyArray<{ name: string; scopes: readonly TScope[] }> = [
  { name: 'Career Website', scopes: ['vacancies:read', 'applications:write', 'locations:read', 'team:read', 'articles:read'] },
  { name: 'Chrome Plugin', scopes: ['candidates:read', 'candidates:write', 'team:read'] },
];
