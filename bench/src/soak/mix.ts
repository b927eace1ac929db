import type { TRandom } from '@careers/core/testing';
import { CAREER_DOMAIN, RECRUITER_ID, TENANT_SLUG, type TWrite } from './document.ts';

/** The operations of the mix and their share (percent) of the requests. */
export const MIX = {
  vacancies: 39,
  facets: 15,
  detail: 15,
  locations: 10,
  team: 5,
  articles: 5,
  applications: 7,
  canonical: 3,
  candidates: 1,
} as const;
export type TKind = keyof typeof MIX;
export const KINDS = Object.keys(MIX) as TKind[];

/** The status each operation answers when it works; 429 is tolerated (and counted) for the rate-limited writes. */
export const EXPECTED_STATUS: Record<TKind, number> = {
  vacancies: 200,
  facets: 200,
  detail: 200,
  locations: 200,
  team: 200,
  articles: 200,
  applications: 201,
  canonical: 200,
  candidates: 202,
};

export type TRequest = {
  kind: TKind;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

/** Values taken from the data through the API itself, so filters name real ids and details real slugs. */
export type TSoakData = {
  locations: number[];
  departments: number[];
  jobTypes: number[];
  experienceLevels: number[];
  educationLevels: number[];
  mainTags: number[];
  subTags: number[];
  languages: string[];
  countryCodes: string[];
  /** Slugs of every visible vacancy. */
  slugs: string[];
  /** Visible vacancies that accept applications. */
  open: Array<{ id: number; slug: string }>;
};

type TFacetEntry = { id?: number; code?: string; country_code?: string; parent_id?: number | null };
type TListItem = { id: number; slug: string; accepts_applications: boolean };

async function getJson(baseUrl: string, key: string, path: string): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function loadSoakData(baseUrl: string, key: string): Promise<TSoakData> {
  const facets = (await getJson(baseUrl, key, '/vacancies/facets')).data as Record<string, TFacetEntry[]>;
  const ids = (group: string) =>
    (facets[group] ?? []).map((entry) => entry.id).filter((id): id is number => typeof id === 'number');
  const tags = facets.tags ?? [];
  const first = await getJson(baseUrl, key, '/vacancies?per_page=100');
  const lastPage = first.meta.last_page as number;
  const items: TListItem[] = [...(first.data as TListItem[])];
  // Every page, a few at a time: the details and writes must only name visible vacancies.
  for (let page = 2; page <= lastPage; page += 4) {
    const pages = [page, page + 1, page + 2, page + 3].filter((p) => p <= lastPage);
    const bodies = await Promise.all(pages.map((p) => getJson(baseUrl, key, `/vacancies?per_page=100&page=${p}`)));
    for (const body of bodies) items.push(...(body.data as TListItem[]));
  }
  return {
    locations: ids('locations'),
    departments: ids('departments'),
    jobTypes: ids('job_types'),
    experienceLevels: ids('experience_levels'),
    educationLevels: ids('education_levels'),
    mainTags: tags.filter((tag) => tag.parent_id === null).map((tag) => tag.id as number),
    subTags: tags.filter((tag) => tag.parent_id !== null).map((tag) => tag.id as number),
    languages: (facets.languages ?? []).map((entry) => entry.code as string),
    countryCodes: [...new Set((facets.locations ?? []).map((entry) => entry.country_code as string))],
    slugs: items.map((item) => item.slug),
    open: items.filter((item) => item.accepts_applications).map((item) => ({ id: item.id, slug: item.slug })),
  };
}

const VACANCY_SEARCHES = [
  'engineer',
  'data',
  'manager',
  'Senior',
  'verpleeg',
  'kok',
  'ontwikkelaar',
  'coffee',
  'team',
  'no-such-words-here',
];
const LOCATION_SEARCHES = ['Amsterdam', 'office', 'München', 'site 2', 'street', 'zürich'];
const TEAM_SEARCHES = ['member1', 'jansen', 'engineer', 'bench.example'];

/** A query string with literal `[]` in array names (as clients send them) and encoded values. */
function query(params: Array<[string, string | number | boolean]>): string {
  if (params.length === 0) return '';
  return `?${params.map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&')}`;
}

export type TMixOptions = {
  data: TSoakData;
  random: TRandom;
  /** The all-scopes key of the benchmark tenant, for the reads. */
  readKey: string;
  /** Rotated keys of each write, so no key comes near its per-minute limit. */
  writeKey: Record<TWrite, () => string>;
  /** Base64 resumes for POST /candidates (distinct people, reused round-robin). */
  candidateResumes: string[];
  /** A small base64 PDF for the applications. */
  applicationResume: string;
};

/** The mix: each call draws an operation by its share and builds a request with random, valid parameters. */
export function createMix(options: TMixOptions): () => TRequest {
  const { data, random, readKey } = options;
  const read = { authorization: `Bearer ${readKey}` };
  const some = <T>(items: readonly T[], max: number): T[] =>
    random.sample(items, random.int(1, Math.min(max, items.length)));
  const page = () => (random.chance(0.6) ? 1 : random.chance(0.75) ? random.int(2, 5) : random.int(6, 40));
  const flag = (params: Array<[string, string | number | boolean]>, name: string, probability: number) => {
    if (random.chance(probability)) params.push([name, random.pick(['true', '1', 'false', '0'])]);
  };
  let sequence = 0;

  const vacancyFilters = (params: Array<[string, string | number | boolean]>) => {
    if (random.chance(0.25) && data.locations.length > 0) {
      if (random.chance(0.7)) params.push(['location_id', random.pick(data.locations)]);
      else for (const id of some(data.locations, 3)) params.push(['location_id[]', id]);
    }
    if (random.chance(0.2) && data.departments.length > 0)
      params.push(['department_id', random.pick(data.departments)]);
    if (random.chance(0.3)) for (const id of some(data.jobTypes, 2)) params.push(['job_types[]', id]);
    if (random.chance(0.15)) for (const id of some(data.experienceLevels, 2)) params.push(['experience_levels[]', id]);
    if (random.chance(0.1)) for (const id of some(data.educationLevels, 2)) params.push(['education_levels[]', id]);
    if (random.chance(0.25))
      for (const id of some(random.chance(0.5) ? data.mainTags : data.subTags, 2)) params.push(['tags[]', id]);
    if (random.chance(0.2) && data.languages.length > 0) params.push(['language', random.pick(data.languages)]);
    if (random.chance(0.12)) params.push(['search', random.pick(VACANCY_SEARCHES)]);
  };

  const builders: Record<TKind, () => TRequest> = {
    vacancies: () => {
      const params: Array<[string, string | number | boolean]> = [];
      vacancyFilters(params);
      if (random.chance(0.5)) params.push(['sort', random.pick(['published_at', 'title', 'created_at'])]);
      if (random.chance(0.4)) params.push(['sort_direction', random.pick(['asc', 'desc'])]);
      const p = page();
      if (p > 1) params.push(['page', p]);
      if (random.chance(0.3)) params.push(['per_page', random.pick([10, 20, 50, 100])]);
      if (random.chance(0.05)) params.push(['include', 'facets']);
      flag(params, 'include_media', 0.2);
      flag(params, 'include_compensation', 0.2);
      flag(params, 'include_company_name', 0.1);
      return { kind: 'vacancies', method: 'GET', path: `/v1/vacancies${query(params)}`, headers: read };
    },
    facets: () => {
      const params: Array<[string, string | number | boolean]> = [];
      if (random.chance(0.7)) vacancyFilters(params);
      return { kind: 'facets', method: 'GET', path: `/v1/vacancies/facets${query(params)}`, headers: read };
    },
    detail: () => {
      const params: Array<[string, string | number | boolean]> = [];
      if (random.chance(0.2)) params.push(['language', random.pick(['en', 'nl', 'de'])]);
      flag(params, 'include_media', 0.3);
      flag(params, 'include_compensation', 0.3);
      flag(params, 'include_company_name', 0.1);
      return {
        kind: 'detail',
        method: 'GET',
        path: `/v1/vacancies/${encodeURIComponent(random.pick(data.slugs))}${query(params)}`,
        headers: read,
      };
    },
    locations: () => {
      const params: Array<[string, string | number | boolean]> = [['include_vacancy_count', 'true']];
      if (random.chance(0.3)) params.push(['sort', random.pick(['name', 'locality', 'created_at'])]);
      if (random.chance(0.3)) params.push(['sort_direction', random.pick(['asc', 'desc'])]);
      if (random.chance(0.3)) params.push(['language', random.pick(['en', 'nl', 'de', 'fr'])]);
      if (random.chance(0.15) && data.countryCodes.length > 0)
        params.push(['country_code', random.pick(data.countryCodes)]);
      if (random.chance(0.1)) params.push(['search', random.pick(LOCATION_SEARCHES)]);
      if (random.chance(0.5)) params.push(['page', random.int(1, 10)]);
      if (random.chance(0.2)) params.push(['per_page', random.pick([50, 100])]);
      flag(params, 'include_coordinates', 0.3);
      return { kind: 'locations', method: 'GET', path: `/v1/locations${query(params)}`, headers: read };
    },
    team: () => {
      const params: Array<[string, string | number | boolean]> = [];
      if (random.chance(0.3)) params.push(['sort', random.pick(['given_name', 'family_name', 'job_title'])]);
      if (random.chance(0.3)) params.push(['sort_direction', random.pick(['asc', 'desc'])]);
      if (random.chance(0.15)) params.push(['search', random.pick(TEAM_SEARCHES)]);
      if (random.chance(0.1)) params.push(['job_title', random.pick(['recruit', 'Engineer', 'manager'])]);
      if (random.chance(0.1)) params.push(['role', random.pick(['recruiter', 'administrator'])]);
      if (random.chance(0.4)) params.push(['page', random.int(1, 3)]);
      flag(params, 'has_avatar', 0.1);
      flag(params, 'include_phone', 0.3);
      flag(params, 'include_role', 0.3);
      return { kind: 'team', method: 'GET', path: `/v1/team${query(params)}`, headers: read };
    },
    articles: () => {
      const params: Array<[string, string | number | boolean]> = [];
      if (random.chance(0.3)) params.push(['language', random.pick(['en', 'nl'])]);
      if (random.chance(0.2)) params.push(['type', random.pick(['news', 'company_update', 'event', 'blog_post'])]);
      if (random.chance(0.3))
        params.push(['sort', random.pick(['published_at', 'title', 'created_at', 'views_count'])]);
      if (random.chance(0.3)) params.push(['sort_direction', random.pick(['asc', 'desc'])]);
      if (random.chance(0.1)) params.push(['search', random.pick(['Article 1', 'artikel', 'team'])]);
      if (random.chance(0.1) && data.mainTags.length > 0) params.push(['tags[]', random.pick(data.mainTags)]);
      if (random.chance(0.3)) params.push(['page', random.int(1, 3)]);
      flag(params, 'is_featured', 0.1);
      flag(params, 'include_media', 0.3);
      return { kind: 'articles', method: 'GET', path: `/v1/articles${query(params)}`, headers: read };
    },
    applications: () => {
      const n = ++sequence;
      const vacancy = random.pick(data.open);
      const body = {
        // Mostly by slug; sometimes by id (a JSON integer), as CONTRACT allows both.
        vacancy: random.chance(0.8) ? vacancy.slug : vacancy.id,
        candidate: {
          given_name: 'Soak',
          family_name: `Applicant ${n}`,
          email: `applicant.${n}.${random.int(0, 1e9)}@soak.example`,
          ...(random.chance(0.3) ? { mobile_phone: '+31612345678' } : {}),
          ...(random.chance(0.2) ? { linkedin_url: `https://www.linkedin.com/in/soak-${n}` } : {}),
        },
        documents: {
          resume: { filename: `resume-${n}.pdf`, content: options.applicationResume, mime_type: 'application/pdf' },
        },
        privacy_policy_accepted: random.chance(0.9),
        tracking: {
          ip_address: '198.51.100.7',
          user_agent: 'soak',
          referrer: `https://${CAREER_DOMAIN}/vacancies/${vacancy.slug}`,
        },
      };
      return {
        kind: 'applications',
        method: 'POST',
        path: '/v1/applications',
        headers: { authorization: `Bearer ${options.writeKey.applications()}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
    },
    canonical: () => {
      const slug = random.pick(data.slugs);
      const host = random.chance(0.8) ? CAREER_DOMAIN : `${TENANT_SLUG}.example`;
      return {
        kind: 'canonical',
        method: 'POST',
        path: `/v1/vacancies/${encodeURIComponent(slug)}/canonical-url`,
        headers: { authorization: `Bearer ${options.writeKey.canonical()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `https://${host}/jobs/${slug}?v=${++sequence}` }),
      };
    },
    candidates: () => {
      const n = ++sequence;
      const content = options.candidateResumes[n % options.candidateResumes.length] ?? '';
      return {
        kind: 'candidates',
        method: 'POST',
        path: '/v1/candidates',
        headers: { authorization: `Bearer ${options.writeKey.candidates()}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          user_id: RECRUITER_ID,
          resume: { filename: `cv-${n}.pdf`, content, mime_type: 'application/pdf' },
          ...(random.chance(0.2) ? { create_intake: true } : {}),
        }),
      };
    },
  };

  const total = KINDS.reduce((sum, kind) => sum + MIX[kind], 0);
  return () => {
    let roll = random.next() * total;
    for (const kind of KINDS) {
      roll -= MIX[kind];
      if (roll < 0) return builders[kind]();
    }
    return builders.vacancies();
  };
}
