import type { z } from 'zod';

/* The wording of a tenant document's problems: paths as people read them, and the messages of structural problems. */

export type TPath = readonly PropertyKey[];
/** A path built only when it is needed (a problem was found): the checks run over every record. */
export type TPathOf = () => TPath;

/** `["tenants",0,"vacancies",3,"department_id"]` → `tenants[0].vacancies[3].department_id`. */
export function formatPath(path: TPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out || 'document';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

/** Wording of structural problems (independent of the process-wide Laravel wording of the HTTP API). */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int') return `must be an integer, got ${describe(issue.input)}`;
      return `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}, got ${describe(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join('|')}, got ${describe(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters`;
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} items`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} items`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `has an invalid format (${issue.format})`;
    case 'invalid_key':
      return 'is not a valid key here';
    case 'invalid_union':
      return 'has an invalid value';
    default:
      return undefined;
  }
}

export type TDocumentProblem = {
  /** `tenants[0].vacancies[3].department_id` */
  path: string;
  /** The same path as zod spells it: `["tenants", 0, "vacancies", 3, "department_id"]`. */
  segments: PropertyKey[];
  message: string;
};

export function problemOf(issue: z.core.$ZodIssue): TDocumentProblem {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const segments = [...issue.path, key];
    return { path: formatPath(segments), segments, message: 'unknown field' };
  }
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    return {
      path: formatPath(issue.path),
      segments: [...issue.path],
      message: inner ? `invalid key: ${inner.message}` : issue.message,
    };
  }
  return { path: formatPath(issue.path), segments: [...issue.path], message: issue.message };
}
