/**
 * The site's state lives in the URL hash, so a static server needs no rewrites:
 * `#/?q=engineer&near=52.09,5.12&radius_km=25&department_id=2&page=2`, `#/vacancies/<slug>`.
 */
export type TFilters = {
  department_id: number[];
  location_id: number[];
  job_types: number[];
  /** What the visitor searched for (the API's relevance search); empty: no search. */
  q: string;
  /** `LAT,LNG` of the visitor (from the browser's geolocation), or null. */
  near: string | null;
  radius_km: number;
  page: number;
};
export type TRoute = { name: 'list'; filters: TFilters } | { name: 'vacancy'; slug: string };

const FILTER_KEYS = ['department_id', 'location_id', 'job_types'] as const;
export type TFilterKey = (typeof FILTER_KEYS)[number];

/** The radii a visitor can pick (km); the API's default is left out of the URL. */
export const RADII_KM = [10, 25, 50, 100] as const;
export const DEFAULT_RADIUS_KM = 25;
const NEAR = /^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$/;

export function parseRoute(hash: string): TRoute {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const vacancy = /^\/vacancies\/([^/]+)$/.exec(path);
  if (vacancy) return { name: 'vacancy', slug: decodeURIComponent(vacancy[1]!) };
  const params = new URLSearchParams(search);
  const ids = (key: string) =>
    params
      .getAll(key)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= 0);
  const near = params.get('near');
  const radius = Number(params.get('radius_km'));
  return {
    name: 'list',
    filters: {
      department_id: ids('department_id'),
      location_id: ids('location_id'),
      job_types: ids('job_types'),
      q: (params.get('q') ?? '').trim().slice(0, 255),
      near: near && NEAR.test(near) ? near : null,
      radius_km: (RADII_KM as readonly number[]).includes(radius) ? radius : DEFAULT_RADIUS_KM,
      page: Math.max(1, Number(params.get('page')) || 1),
    },
  };
}

export function listHref(filters: TFilters): string {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.near) {
    params.set('near', filters.near);
    if (filters.radius_km !== DEFAULT_RADIUS_KM) params.set('radius_km', String(filters.radius_km));
  }
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

/** The same filters with other values for the search fields (back to page 1). */
export function refined(filters: TFilters, change: Partial<Pick<TFilters, 'q' | 'near' | 'radius_km'>>): TFilters {
  return { ...filters, ...change, page: 1 };
}

export function vacancyHref(slug: string): string {
  return `#/vacancies/${encodeURIComponent(slug)}`;
}
