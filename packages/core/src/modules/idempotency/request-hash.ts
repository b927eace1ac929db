import { createHash } from 'node:crypto';

/**
 * SHA-256 of a JSON value in a canonical form (object keys sorted), fed to the hash piece by piece so a
 * 40 MB body is never serialised into one more string. Two bodies that differ only in key order or
 * whitespace are the same request. Iterative (an explicit stack, not recursion), so no nesting depth makes it
 * throw; it never throws on any value.
 */
export function requestHash(value: unknown): string {
  const hash = createHash('sha256');
  // Work items: a value still to write, or punctuation already decided. Pushed in reverse, popped in order.
  const stack: Array<{ value: unknown } | { leave: object } | string> = [{ value }];
  // The arrays and objects being written (a value may appear twice side by side, but never inside itself).
  const open = new Set<object>();
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      hash.update(item);
      continue;
    }
    if ('leave' in item) {
      open.delete(item.leave);
      continue;
    }
    const current = item.value;
    if (current === null || typeof current !== 'object') {
      hash.update(scalar(current));
      continue;
    }
    // A value that contains itself never comes out of JSON; hash the repeat as null rather than loop forever.
    if (open.has(current)) {
      hash.update('null');
      continue;
    }
    open.add(current);
    stack.push({ leave: current });
    if (Array.isArray(current)) {
      stack.push(']');
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index] });
        if (index > 0) stack.push(',');
      }
      stack.push('[');
      continue;
    }
    const record = current as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    stack.push('}');
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index] as string;
      stack.push({ value: record[key] });
      stack.push(`${JSON.stringify(key)}:`);
      if (index > 0) stack.push(',');
    }
    stack.push('{');
  }
  return hash.digest('hex');
}

/** A scalar as JSON; undefined, functions and symbols never come out of JSON (null), bigints as digits. */
function scalar(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null';
  }
}
