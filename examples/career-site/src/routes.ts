/** The site's state lives in the URL hash, so a static server needs no rewrites: `#/?department_id=2&page=2`, `#/vacancies/<slug>`. */
export type TFilters = { department_id: number[]; location_id: number[]; job_types: number[]; page: number };
export type TRoute = { name: 'list'; filters: TFilters } | { name: 'vacancy'; slug: string };

const FILTER_KEYS = ['department_id', 'location_id', 'job_types'] as const;
export type TFilterKey = (typeof FILTER_KEYS)[number];

export function parseRoute(hash: string): TRoute {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const vacancy = /^\/vacancies\/([^/]+)$/.exec(path);
  if (vacancy) return { name: 'vacancy', slug: decodeURIComponent(vacancy[1]!) };
  const params = new URLSearchParams(search);
  const ids = (key: string) => params.getAll(key).map(Number).filter((n) => Number.isInteger(n) && n >= 0);
  return {
    name: 'list',
    filters: { department_id: ids('department_id'), location_id: ids('location_id'), job_types: ids('job_types'), page: Math.max(1, Number(params.get('page')) || 1) },
  };
}

export function listHref(filters: TFilters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) for (const id of filters[key]) params.append(key, String(id));
  if (filters.page > 1) params.set('page', String(filters.page));
  const search = params.toString();
  return search ? `#/?${search}` : '#/';
}

/** The same filters with one id switched on or off (back to page 1: the old page may not exist any more). */
export function toggled(filters: TFilters, key: TFilterKey, id: number): TFilters {
  const current = filters[key];
  const next = current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
  return { ...filters, [key]: next, page: 1 };
}

export function vacancyHref(slug: string): string {
  return `#/vacancies/${encodeURIComponent(slug)}`;
}
