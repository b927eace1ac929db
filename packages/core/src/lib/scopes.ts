/** Scopes of SPEC.md. `*` marks a legacy key created before scopes existed: it has every scope. */
export const SCOPES = [
  'vacancies:read',
  'vacancies:write',
  'applications:write',
  'candidates:read',
  'candidates:write',
  'candidates:delete',
  'team:read',
  'locations:read',
  'articles:read',
] as const;
export type TScope = (typeof SCOPES)[number];
export const LEGACY_FULL_ACCESS = '*';

export function isKnownScope(value: string): value is TScope | typeof LEGACY_FULL_ACCESS {
  return value === LEGACY_FULL_ACCESS || (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: TScope): boolean {
  return granted.includes(LEGACY_FULL_ACCESS) || granted.includes(required);
}
