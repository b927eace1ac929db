import { SCOPES } from '../lib/scopes.ts';
import type { TTenantDocument, TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import { daysBefore, seededRandom } from './random.ts';

/**
 * A generated tenant of benchmark size (e.g. 100 000 vacancies over ~200 locations, 30 departments, a tag
 * hierarchy of ~60 tags, two languages). Nothing of it is committed as data: build it when you need it.
 * Its ids start at `idBase` (default 1 000 000) so it can be imported next to the demo tenants.
 */

export type TLargeDocumentOptions = {
  vacancies: number;
  seed?: number;
  /** Tenant slug (default `bench`). */
  slug?: string;
  locations?: number;
  /** First id of every table (ids are global in a database). */
  idBase?: number;
};

/** Plaintext of the benchmark tenant's API key (every scope). */
export const LARGE_API_KEY = 'ck_bench_all_scopes_0d5b8e2f6a9c4137';

export const LARGE_ANCHOR = Date.UTC(2026, 8, 1, 9, 0, 0);

const COUNTRIES: { code: string; cities: string[]; currency: string; language: 'en' | 'nl' }[] = [
  {
    code: 'NL',
    cities: [
      'Amsterdam',
      'Rotterdam',
      'Utrecht',
      'Eindhoven',
      'Groningen',
      'Den Haag',
      'Zwolle',
      'Maastricht',
      'Arnhem',
      'Breda',
    ],
    currency: 'EUR',
    language: 'nl',
  },
  { code: 'BE', cities: ['Antwerpen', 'Gent', 'Brussel', 'Leuven', 'Brugge'], currency: 'EUR', language: 'nl' },
  {
    code: 'DE',
    cities: ['Berlin', 'Hamburg', 'München', 'Köln', 'Frankfurt', 'Düsseldorf', 'Leipzig'],
    currency: 'EUR',
    language: 'en',
  },
  { code: 'GB', cities: ['London', 'Manchester', 'Bristol', 'Leeds', 'Edinburgh'], currency: 'GBP', language: 'en' },
  { code: 'FR', cities: ['Paris', 'Lyon', 'Lille', 'Toulouse', 'Nantes'], currency: 'EUR', language: 'en' },
  { code: 'ES', cities: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla'], currency: 'EUR', language: 'en' },
  { code: 'IT', cities: ['Milano', 'Roma', 'Torino', 'Bologna'], currency: 'EUR', language: 'en' },
  { code: 'PL', cities: ['Warszawa', 'Kraków', 'Wrocław', 'Gdańsk'], currency: 'PLN', language: 'en' },
  { code: 'SE', cities: ['Stockholm', 'Göteborg', 'Malmö'], currency: 'SEK', language: 'en' },
  { code: 'DK', cities: ['København', 'Aarhus'], currency: 'DKK', language: 'en' },
  { code: 'CH', cities: ['Zürich', 'Genève', 'Basel'], currency: 'CHF', language: 'en' },
  { code: 'IE', cities: ['Dublin', 'Cork'], currency: 'EUR', language: 'en' },
];

const DEPARTMENT_NAMES: [string, string][] = [
  ['Engineering', 'Techniek'],
  ['Product', 'Product'],
  ['Design', 'Ontwerp'],
  ['Sales', 'Verkoop'],
  ['Marketing', 'Marketing'],
  ['Customer Success', 'Klantsucces'],
  ['Finance', 'Financiën'],
  ['People', 'HR'],
  ['Operations', 'Operaties'],
  ['Legal', 'Juridisch'],
  ['Logistics', 'Logistiek'],
  ['Procurement', 'Inkoop'],
  ['Quality', 'Kwaliteit'],
  ['Research', 'Onderzoek'],
  ['Data', 'Data'],
  ['Security', 'Beveiliging'],
  ['Facilities', 'Facilitair'],
  ['Communications', 'Communicatie'],
  ['Healthcare', 'Zorg'],
  ['Education', 'Onderwijs'],
  ['Hospitality', 'Horeca'],
  ['Retail', 'Retail'],
  ['Manufacturing', 'Productie'],
  ['Maintenance', 'Onderhoud'],
  ['Transport', 'Transport'],
  ['Construction', 'Bouw'],
  ['Energy', 'Energie'],
  ['Administration', 'Administratie'],
  ['Management', 'Management'],
  ['Support', 'Ondersteuning'],
];

const JOB_TYPES: [string, string][] = [
  ['Full-time', 'Voltijd'],
  ['Part-time', 'Deeltijd'],
  ['Contract', 'Contract'],
  ['Internship', 'Stage'],
  ['Freelance', 'Freelance'],
  ['Temporary', 'Tijdelijk'],
];
const EXPERIENCE: [string, string][] = [
  ['Entry level', 'Starter'],
  ['Junior', 'Junior'],
  ['Medior', 'Medior'],
  ['Senior', 'Senior'],
  ['Lead', 'Lead'],
];
const EDUCATION: [string, string][] = [
  ['Secondary', 'MBO'],
  ['Higher vocational', 'HBO'],
  ['Bachelor', 'Bachelor'],
  ['Master', 'Master'],
  ['Doctorate', 'Promotie'],
];
const MAIN_TAGS: [string, string][] = [
  ['Technology', 'Technologie'],
  ['Business', 'Business'],
  ['Creative', 'Creatief'],
  ['Care', 'Zorg'],
  ['Logistics', 'Logistiek'],
  ['Finance', 'Financiën'],
  ['Engineering', 'Engineering'],
  ['Hospitality', 'Gastvrijheid'],
  ['Public sector', 'Publieke sector'],
  ['Way of working', 'Werkwijze'],
  ['Benefits', 'Voordelen'],
  ['Skills', 'Vaardigheden'],
];
const SUB_TAGS = [
  ['A', 'A'],
  ['B', 'B'],
  ['C', 'C'],
  ['D', 'D'],
] as const;

const TITLES: [string, string][] = [
  ['Software Engineer', 'Software-ontwikkelaar'],
  ['Data Analyst', 'Data-analist'],
  ['Account Manager', 'Accountmanager'],
  ['Nurse', 'Verpleegkundige'],
  ['Warehouse Operator', 'Magazijnmedewerker'],
  ['Financial Controller', 'Financieel controller'],
  ['Mechanical Engineer', 'Werktuigbouwkundige'],
  ['Chef', 'Kok'],
  ['Policy Advisor', 'Beleidsadviseur'],
  ['Customer Service Agent', 'Klantenservicemedewerker'],
  ['Project Manager', 'Projectmanager'],
  ['Electrician', 'Elektricien'],
  ['Teacher', 'Docent'],
  ['Truck Driver', 'Vrachtwagenchauffeur'],
  ['Designer', 'Ontwerper'],
  ['Recruiter', 'Recruiter'],
];

const SENTENCES = {
  en: [
    'You join a team that cares about doing things well and about each other.',
    'Every week you work with colleagues across the company to solve real problems for our customers.',
    'We offer room to grow, a training budget and flexible hours.',
    'You take ownership of your work and share what you learn.',
    'Our offices are easy to reach by public transport and have good coffee.',
    'We value clear communication, curiosity and reliability.',
  ],
  nl: [
    'Je komt in een team dat het belangrijk vindt om dingen goed te doen en om elkaar.',
    'Elke week werk je met collega’s uit het hele bedrijf aan echte vraagstukken van onze klanten.',
    'We bieden ruimte om te groeien, een opleidingsbudget en flexibele werktijden.',
    'Je neemt verantwoordelijkheid voor je werk en deelt wat je leert.',
    'Onze kantoren zijn goed bereikbaar met het openbaar vervoer en de koffie is uitstekend.',
    'We waarderen heldere communicatie, nieuwsgierigheid en betrouwbaarheid.',
  ],
} as const;

/** A benchmark tenant document with `vacancies` vacancies. Deterministic for a given seed. */
export function buildLargeDocument(options: TLargeDocumentOptions): TTenantDocument {
  const random = seededRandom(options.seed ?? 1);
  const base = options.idBase ?? 1_000_000;
  const slug = options.slug ?? 'bench';
  const locationCount = options.locations ?? 200;
  const name2 = ([en, nl]: readonly [string, string]) => ({ en, nl });

  const locations: NonNullable<TTenantDocumentTenant['locations']> = [];
  const locationMeta: { id: number; country: (typeof COUNTRIES)[number]; city: string }[] = [];
  for (let i = 0; i < locationCount; i++) {
    const country = COUNTRIES[i % COUNTRIES.length] as (typeof COUNTRIES)[number];
    const city = country.cities[Math.floor(i / COUNTRIES.length) % country.cities.length] as string;
    const id = base + i + 1;
    const n = Math.floor(i / (COUNTRIES.length * country.cities.length)) + 1;
    locations.push({
      id,
      slug: `${slug}-location-${i + 1}`,
      name: `${city} ${n === 1 ? 'Office' : `Site ${n}`}`,
      address_line_1: `${random.pick(['Main Street', 'Station Road', 'Market Square', 'Harbour Lane', 'Park Avenue'])} ${random.int(1, 300)}`,
      address_line_2: null,
      address_line_3: null,
      locality: city,
      administrative_area: null,
      postal_code: String(random.int(1000, 99999)),
      country_code: country.code,
      latitude: Math.round((35 + random.next() * 25) * 1e4) / 1e4,
      longitude: Math.round((-8 + random.next() * 30) * 1e4) / 1e4,
      created_at: daysBefore(LARGE_ANCHOR, 1000 - (i % 900)),
    });
    locationMeta.push({ id, country, city });
  }

  const departments = DEPARTMENT_NAMES.map((n, i) => ({ id: base + i + 1, name: name2(n) }));
  const jobTypes = JOB_TYPES.map((n, i) => ({ id: base + i + 1, name: name2(n) }));
  const experience = EXPERIENCE.map((n, i) => ({ id: base + i + 1, name: name2(n) }));
  const education = EDUCATION.map((n, i) => ({ id: base + i + 1, name: name2(n) }));
  const tags: { id: number; name: { en: string; nl: string }; parent_id: number | null }[] = [];
  const subTagsOf = new Map<number, number[]>();
  MAIN_TAGS.forEach((main, m) => {
    const mainId = base + tags.length + 1;
    tags.push({ id: mainId, name: name2(main), parent_id: null });
    const subs: number[] = [];
    for (const [en, nl] of SUB_TAGS) {
      const id = base + tags.length + 1;
      tags.push({ id, name: { en: `${main[0]} ${en}`, nl: `${main[1]} ${nl}` }, parent_id: mainId });
      subs.push(id);
    }
    subTagsOf.set(m, subs);
  });

  const vacancies: NonNullable<TTenantDocumentTenant['vacancies']> = [];
  for (let i = 0; i < options.vacancies; i++) {
    // Skewed location choice: a few big sites, a long tail.
    const location = locationMeta[
      Math.floor(Math.pow(random.next(), 2) * locationMeta.length)
    ] as (typeof locationMeta)[number];
    const language = location.country.language === 'nl' && random.chance(0.6) ? 'nl' : 'en';
    const titlePair = random.pick(TITLES);
    const level = random.int(0, EXPERIENCE.length - 1);
    const title = `${level >= 3 ? `${(EXPERIENCE[level] as [string, string])[language === 'en' ? 0 : 1]} ` : ''}${titlePair[language === 'en' ? 0 : 1]}`;
    const roll = random.next();
    const status = roll < 0.03 ? 'draft' : roll < 0.05 ? 'unpublished' : 'published';
    const publishedDaysAgo = random.int(0, 365);
    const mainTag = random.int(0, MAIN_TAGS.length - 1);
    const subs = subTagsOf.get(mainTag) ?? [];
    const sentences = SENTENCES[language];
    const id = base + i + 1;
    vacancies.push({
      id,
      slug: `${slug}-vacancy-${i + 1}`,
      title,
      summary: `<p>${random.pick(sentences)}</p>`,
      description: `<p>${random.pick(sentences)} ${random.pick(sentences)}</p><ul><li>${random.pick(sentences)}</li><li>${random.pick(sentences)}</li><li>${random.pick(sentences)}</li></ul><p>${random.pick(sentences)}</p>`,
      requirements: random.chance(0.7)
        ? `<ul><li>${random.pick(sentences)}</li><li>${random.pick(sentences)}</li></ul>`
        : null,
      offer: random.chance(0.6) ? `<p>${random.pick(sentences)}</p>` : null,
      language,
      status,
      channels: random.chance(0.05) ? ['website'] : random.chance(0.7) ? ['api', 'website'] : ['api'],
      accepts_applications: random.chance(0.95),
      published_at: status === 'draft' ? null : daysBefore(LARGE_ANCHOR, publishedDaysAgo, random.int(0, 1440)),
      created_at: daysBefore(LARGE_ANCHOR, publishedDaysAgo + random.int(1, 30), random.int(0, 1440)),
      ends_at: random.chance(0.05) ? daysBefore(LARGE_ANCHOR, random.int(0, 30)) : null,
      views_count: random.int(0, 5000),
      location_id: random.chance(0.97) ? location.id : null,
      department_id: random.chance(0.95)
        ? (departments[Math.floor(Math.pow(random.next(), 1.5) * departments.length)]?.id ?? null)
        : null,
      company_location_id: null,
      job_type_ids: random.chance(0.2)
        ? random.sample(jobTypes, 2).map((x) => x.id)
        : [(jobTypes[random.chance(0.75) ? 0 : random.int(1, jobTypes.length - 1)] as { id: number }).id],
      experience_level_ids: [(experience[level] as { id: number }).id],
      education_level_ids: random.sample(education, random.int(0, 2)).map((x) => x.id),
      tag_ids: random.chance(0.1)
        ? [base + 1 + mainTag * (SUB_TAGS.length + 1)]
        : random.sample(subs, random.int(1, 3)),
      compensation: random.chance(0.6)
        ? {
            min: random.int(25, 45) * 100,
            max: random.int(46, 90) * 100,
            currency: location.country.currency,
            period: 'month',
          }
        : null,
      header_image: random.chance(0.3)
        ? {
            default: `https://images.bench.example/v/${id}/default.jpg`,
            small: `https://images.bench.example/v/${id}/small.jpg`,
            large: `https://images.bench.example/v/${id}/large.jpg`,
          }
        : null,
      canonical_url: null,
    });
  }

  return {
    tenants: [
      {
        slug,
        name: 'Bench Corporation',
        default_language: 'en',
        api_enabled: true,
        career_site: {
          domain: `careers.${slug}.example`,
          url_pattern: `https://careers.${slug}.example/vacancies/{slug}`,
        },
        domains: [`${slug}.example`],
        api_keys: [
          {
            id: base + 1,
            name: 'Benchmark key',
            key: options.slug ? `${LARGE_API_KEY}_${slug}` : LARGE_API_KEY,
            scopes: [...SCOPES],
            revoked: false,
          },
        ],
        users: [{ id: base + 1, name: 'Bench Admin', email: `admin@${slug}.example`, role: 'admin', password: null }],
        locations,
        departments,
        job_types: jobTypes,
        experience_levels: experience,
        education_levels: education,
        tags,
        vacancies,
        team_members: Array.from({ length: 50 }, (_, i) => ({
          id: base + i + 1,
          given_name: `Member${i + 1}`,
          family_name: random.pick(['Jansen', 'de Vries', 'Smith', 'Müller', 'García', 'Rossi', 'Nowak']),
          email: `member${i + 1}@${slug}.example`,
          job_title: random.pick(['Recruiter', 'Engineer', 'Manager', 'Designer', null]),
          phone: null,
          role: i % 5 === 0 ? { name: 'recruiter', label: { en: 'Recruiter', nl: 'Recruiter' } } : null,
          avatar: null,
          employed: i % 10 !== 9,
        })),
        articles: Array.from({ length: 40 }, (_, i) => ({
          id: base + i + 1,
          slug: `${slug}-article-${i + 1}`,
          type: (['news', 'company_update', 'event', 'blog_post'] as const)[i % 4] ?? 'news',
          status: 'published' as const,
          is_featured: i % 7 === 0,
          published_at: daysBefore(LARGE_ANCHOR, i * 3),
          created_at: daysBefore(LARGE_ANCHOR, i * 3 + 1),
          tag_ids: [base + 1],
          translations: {
            en: {
              title: `Article ${i + 1}`,
              excerpt: SENTENCES.en[i % SENTENCES.en.length] ?? null,
              body_html: `<p>${SENTENCES.en.join(' ')}</p>`,
            },
            ...(i % 2 === 0
              ? { nl: { title: `Artikel ${i + 1}`, excerpt: null, body_html: `<p>${SENTENCES.nl.join(' ')}</p>` } }
              : {}),
          },
        })),
        candidates: [],
      },
    ],
  };
}
