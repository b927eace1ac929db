import { z, type ZodError } from 'zod';
import type { TFieldErrors } from './errors.ts';

/**
 * Laravel-style validation messages. Zod issues carry a template with `:attribute`, filled in
 * from the issue's dotted path once the whole input has been checked ("The per page must not be
 * greater than 100.", "The candidate.email field is required.").
 */
function laravelTemplate(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'The :attribute field is required.';
      switch (issue.expected) {
        case 'int':
        case 'number':
          return 'The :attribute must be an integer.';
        case 'string':
          return 'The :attribute must be a string.';
        case 'boolean':
          return 'The :attribute field must be true or false.';
        case 'array':
          return 'The :attribute must be an array.';
        case 'object':
        case 'record':
          return 'The :attribute must be an object.';
        default:
          return 'The :attribute is invalid.';
      }
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `The :attribute must not be greater than ${max} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `The :attribute must not have more than ${max} items.`;
      return `The :attribute must not be greater than ${max}.`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') {
        return issue.minimum === 1
          ? 'The :attribute field is required.'
          : `The :attribute must be at least ${min} characters.`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') return `The :attribute must have at least ${min} items.`;
      return `The :attribute must be at least ${min}.`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'The :attribute must be a valid email address.';
      if (issue.format === 'url') return 'The :attribute must be a valid URL.';
      if (issue.format === 'base64') return 'The :attribute must be valid base64.';
      if (issue.format === 'ipv4' || issue.format === 'ipv6') return 'The :attribute must be a valid IP address.';
      return 'The :attribute format is invalid.';
    case 'invalid_value':
    case 'invalid_union':
      return 'The selected :attribute is invalid.';
    case 'unrecognized_keys':
      return 'The :attribute has unknown fields.';
    default:
      return undefined;
  }
}

let installed = false;

/** Installs the Laravel wording as zod's error map for this process (idempotent). */
export function installValidationMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => laravelTemplate(issue) });
}
installValidationMessages();

/** "candidate.given_name" -> "candidate.given name"; the root of a non-object body is "body". */
export function attributeName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map(String).join('.').replaceAll('_', ' ');
}

export function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

/** Groups zod issues by dotted field path with Laravel-style messages. */
export function fieldErrorsFromZod(error: ZodError | { issues: readonly z.core.$ZodIssue[] }): TFieldErrors {
  const errors: TFieldErrors = {};
  for (const issue of error.issues) {
    const path = fieldPath(issue.path);
    const message = issue.message.replaceAll(':attribute', attributeName(issue.path));
    const list = (errors[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

/**
 * Text that can be stored and sent on: no NUL (PostgreSQL text refuses it) and no unpaired UTF-16 surrogate
 * (it has no UTF-8 form). The one test for both, for bodies (422) and for filters and slugs (they match nothing).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

export const UNSTORABLE_TEXT_MESSAGE = 'The :attribute must not contain NUL characters or unpaired surrogates.';

/**
 * The string of every request body schema: a string of storable text (422 on the field otherwise, and no other
 * message for it). Chain the field's own rules after it (`zString().trim().max(255)`).
 */
export function zString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE, abort: true });
}
