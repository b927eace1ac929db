/**
 * The query parser of CONTRACT: `name[]=1&name[]=2` and repeated keys become arrays (a single `name[]=1`
 * is an array of one), the `[]` suffix is dropped, a lone `name=1` stays a string. Unlike qs it never
 * turns many items into an object and never drops `tags[]`.
 */
export function parseQueryString(queryString: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  const arrays = new Set<string>();
  for (const [rawKey, value] of new URLSearchParams(queryString)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '') continue;
    const existing = result[key];
    if (existing === undefined) {
      result[key] = isArray ? [value] : value;
      if (isArray) arrays.add(key);
    } else if (Array.isArray(existing)) {
      existing.push(value);
    } else {
      result[key] = [existing, value];
      arrays.add(key);
    }
  }
  return result;
}
