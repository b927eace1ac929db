import { SCOPES } from '../lib/scopes.ts';
import type { TTenantDocument, TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import type { TEmploymentType } from '../modules/taxonomies/taxonomy.entity.ts';
import { daysBefore, seededRandom, slugify, type TRandom } from './random.ts';

/**
 * The demo content `pnpm start` loads into an empty database: a realistic employer "acme" (two languages,
 * vacancies in several countries, taxonomies, a tag hierarchy, team, articles, candidates) and a small second
 * tenant "globex" that shows tenant isolation (it even reuses one of acme's vacancy slugs).
 * Deterministic: the same document on every call (seeded PRNG, dates relative to a fixed anchor).
 */

/** Plaintext of the acme API key that has every scope. */
export const DEMO_API_KEY = 'ck_demo_acme_all_scopes_4f9a2c7e1b8d';
/** An acme key that can only read vacancies (to try the 403 INSUFFICIENT_SCOPE answer). */
export const DEMO_READ_ONLY_API_KEY = 'ck_demo_acme_vacancies_read_only_7c1e';
/** An acme key that was revoked (to try the 401 answer). */
export const DEMO_REVOKED_API_KEY = 'ck_demo_acme_revoked_key_2b6d9f03aa41';
/** Plaintext of globex's key with every scope. */
export const DEMO_GLOBEX_API_KEY = 'ck_demo_globex_all_scopes_93d1e5a0c7';
export const DEMO_ADMIN = { email: 'admin@acme.example', password: 'acme-demo-admin-2026' } as const;

/** Dates of the demo are relative to this instant (in the past, so "published" content is visible). */
export const DEMO_ANCHOR = Date.UTC(2026, 8, 1, 9, 0, 0);
/** Far enough ahead to stay in the future: scheduled content and open end dates. */
const FAR_FUTURE = '2099-12-31T00:00:00.000Z';

type TL = { en: string; nl: string };
const tl = (en: string, nl: string): TL => ({ en, nl });

// --- acme taxonomies -------------------------------------------------------------------------------------

const DEPARTMENTS: { id: number; name: TL | string }[] = [
  { id: 1, name: tl('Engineering', 'Techniek') },
  { id: 2, name: tl('Product', 'Product') },
  { id: 3, name: tl('Design', 'Ontwerp') },
  { id: 4, name: tl('Sales', 'Verkoop') },
  { id: 5, name: tl('Marketing', 'Marketing') },
  { id: 6, name: tl('Customer Success', 'Klantsucces') },
  { id: 7, name: tl('Finance', 'Financiën') },
  { id: 8, name: tl('People & Culture', 'Mens & Cultuur') },
  { id: 9, name: tl('Operations', 'Operaties') },
  // A plain string: a name in the tenant's default language only.
  { id: 10, name: 'Legal' },
];

const JOB_TYPES = [
  { id: 1, name: tl('Full-time', 'Voltijd'), employment_type: 'FULL_TIME' },
  { id: 2, name: tl('Part-time', 'Deeltijd'), employment_type: 'PART_TIME' },
  { id: 3, name: tl('Contract', 'Contract'), employment_type: 'CONTRACTOR' },
  { id: 4, name: tl('Internship', 'Stage'), employment_type: 'INTERN' },
  { id: 5, name: tl('Freelance', 'Freelance'), employment_type: 'CONTRACTOR' },
  { id: 6, name: tl('Temporary', 'Tijdelijk'), employment_type: 'TEMPORARY' },
] satisfies { id: number; name: TL; employment_type: TEmploymentType }[];

const EXPERIENCE_LEVELS = [
  { id: 1, name: tl('Entry level', 'Starter') },
  { id: 2, name: tl('Junior', 'Junior') },
  { id: 3, name: tl('Medior', 'Medior') },
  { id: 4, name: tl('Senior', 'Senior') },
  { id: 5, name: tl('Lead', 'Lead') },
];

const EDUCATION_LEVELS = [
  { id: 1, name: tl('Secondary vocational (MBO)', 'MBO') },
  { id: 2, name: tl('Higher vocational (HBO)', 'HBO') },
  { id: 3, name: tl("Bachelor's degree", 'Bachelor') },
  { id: 4, name: tl("Master's degree", 'Master') },
  { id: 5, name: tl('Doctorate', 'Promotie') },
];

/** Main tags (parent null) with their sub-tags. */
const TAGS = [
  { id: 1, name: tl('Technology', 'Technologie'), parent_id: null },
  { id: 2, name: tl('Backend', 'Backend'), parent_id: 1 },
  { id: 3, name: tl('Frontend', 'Frontend'), parent_id: 1 },
  { id: 4, name: tl('Data', 'Data'), parent_id: 1 },
  { id: 5, name: tl('DevOps', 'DevOps'), parent_id: 1 },
  { id: 6, name: tl('Security', 'Beveiliging'), parent_id: 1 },
  { id: 7, name: tl('Business', 'Business'), parent_id: null },
  { id: 8, name: tl('Sales', 'Verkoop'), parent_id: 7 },
  { id: 9, name: tl('Marketing', 'Marketing'), parent_id: 7 },
  { id: 10, name: tl('Finance', 'Financiën'), parent_id: 7 },
  { id: 11, name: tl('Way of working', 'Werkwijze'), parent_id: null },
  { id: 12, name: tl('Remote friendly', 'Thuiswerken mogelijk'), parent_id: 11 },
  { id: 13, name: tl('Hybrid', 'Hybride'), parent_id: 11 },
  { id: 14, name: tl('On-site', 'Op locatie'), parent_id: 11 },
  { id: 15, name: tl('Life at Acme', 'Werken bij Acme'), parent_id: null },
  { id: 16, name: tl('Events', 'Evenementen'), parent_id: 15 },
  { id: 17, name: tl('Sustainability', 'Duurzaamheid'), parent_id: 15 },
];

type TLocationSeed = {
  id: number;
  slug: string;
  name: string;
  street: string;
  locality: string;
  area: string | null;
  postal: string;
  country: string | null;
  lat: number | null;
  lng: number | null;
  /** Relative weight of vacancies at this location. */
  weight: number;
};

const LOCATIONS: TLocationSeed[] = [
  {
    id: 1,
    slug: 'amsterdam-hq',
    name: 'Amsterdam HQ',
    street: 'Keizersgracht 100',
    locality: 'Amsterdam',
    area: 'North Holland',
    postal: '1015 AA',
    country: 'NL',
    lat: 52.3676,
    lng: 4.9041,
    weight: 6,
  },
  {
    id: 2,
    slug: 'rotterdam-port-office',
    name: 'Rotterdam Port Office',
    street: 'Wilhelminakade 55',
    locality: 'Rotterdam',
    area: 'South Holland',
    postal: '3072 AP',
    country: 'NL',
    lat: 51.9074,
    lng: 4.4884,
    weight: 3,
  },
  {
    id: 3,
    slug: 'utrecht-campus',
    name: 'Utrecht Campus',
    street: 'Stationsplein 12',
    locality: 'Utrecht',
    area: 'Utrecht',
    postal: '3511 ED',
    country: 'NL',
    lat: 52.0894,
    lng: 5.1101,
    weight: 2,
  },
  {
    id: 4,
    slug: 'antwerp-office',
    name: 'Antwerp Office',
    street: 'Meir 24',
    locality: 'Antwerpen',
    area: 'Antwerp',
    postal: '2000',
    country: 'BE',
    lat: 51.2184,
    lng: 4.4086,
    weight: 2,
  },
  {
    id: 5,
    slug: 'berlin-hub',
    name: 'Berlin Hub',
    street: 'Friedrichstraße 68',
    locality: 'Berlin',
    area: 'Berlin',
    postal: '10117',
    country: 'DE',
    lat: 52.5116,
    lng: 13.3892,
    weight: 3,
  },
  {
    id: 6,
    slug: 'london-office',
    name: 'London Office',
    street: '20 Shoreditch High Street',
    locality: 'London',
    area: 'Greater London',
    postal: 'E1 6PG',
    country: 'GB',
    lat: 51.5246,
    lng: -0.0781,
    weight: 2,
  },
  {
    id: 7,
    slug: 'barcelona-studio',
    name: 'Barcelona Studio',
    street: 'Carrer de Pallars 193',
    locality: 'Barcelona',
    area: 'Catalonia',
    postal: '08005',
    country: 'ES',
    lat: 41.4036,
    lng: 2.1944,
    weight: 1,
  },
  {
    id: 8,
    slug: 'zurich-office',
    name: 'Zürich Office',
    street: 'Bahnhofstrasse 1',
    locality: 'Zürich',
    area: 'Zürich',
    postal: '8001',
    country: 'CH',
    lat: 47.3686,
    lng: 8.5392,
    weight: 1,
  },
  {
    id: 9,
    slug: 'remote-europe',
    name: 'Remote (Europe)',
    street: '',
    locality: 'Remote',
    area: null,
    postal: '',
    country: null,
    lat: null,
    lng: null,
    weight: 2,
  },
  // Only draft vacancies here: a location with a vacancy count of 0.
  {
    id: 10,
    slug: 'eindhoven-lab',
    name: 'Eindhoven Lab',
    street: 'Torenallee 20',
    locality: 'Eindhoven',
    area: 'North Brabant',
    postal: '5617 BC',
    country: 'NL',
    lat: 51.4478,
    lng: 5.4572,
    weight: 0,
  },
];

const COMPANIES = [
  {
    id: 1,
    name: 'Northwind Logistics',
    locations: [
      { id: 1, name: 'Northwind Logistics Utrecht', city: 'Utrecht', country_code: 'NL' },
      { id: 2, name: 'Northwind Logistics Ghent', city: 'Gent', country_code: 'BE' },
    ],
  },
  {
    id: 2,
    name: 'Contoso Retail',
    locations: [{ id: 3, name: 'Contoso Retail Rotterdam', city: 'Rotterdam', country_code: 'NL' }],
  },
];

type TRoleSeed = {
  department: number;
  title: TL;
  tags: number[];
  levels: number[];
  education: number[];
  pay: [number, number];
};

const ROLES: TRoleSeed[] = [
  {
    department: 1,
    title: tl('Backend Engineer', 'Backend-ontwikkelaar'),
    tags: [2, 13],
    levels: [2, 3, 4],
    education: [2, 3],
    pay: [3800, 6800],
  },
  {
    department: 1,
    title: tl('Frontend Engineer', 'Frontend-ontwikkelaar'),
    tags: [3, 12],
    levels: [2, 3, 4],
    education: [2, 3],
    pay: [3600, 6400],
  },
  {
    department: 1,
    title: tl('Full-stack Developer', 'Full-stack developer'),
    tags: [2, 3, 13],
    levels: [3, 4],
    education: [2, 3],
    pay: [4000, 6900],
  },
  {
    department: 1,
    title: tl('Data Engineer', 'Data engineer'),
    tags: [4, 2],
    levels: [3, 4],
    education: [3, 4],
    pay: [4200, 7200],
  },
  {
    department: 1,
    title: tl('Site Reliability Engineer', 'Site reliability engineer'),
    tags: [5, 12],
    levels: [3, 4, 5],
    education: [2, 3],
    pay: [4500, 7600],
  },
  {
    department: 1,
    title: tl('Security Specialist', 'Securityspecialist'),
    tags: [6, 14],
    levels: [4, 5],
    education: [3, 4],
    pay: [4800, 8000],
  },
  {
    department: 1,
    title: tl('Engineering Manager', 'Engineering manager'),
    tags: [2, 13],
    levels: [5],
    education: [3, 4],
    pay: [6500, 9500],
  },
  {
    department: 2,
    title: tl('Product Manager', 'Productmanager'),
    tags: [13],
    levels: [3, 4],
    education: [3, 4],
    pay: [4600, 7400],
  },
  {
    department: 2,
    title: tl('Product Owner', 'Product owner'),
    tags: [13],
    levels: [3, 4],
    education: [2, 3],
    pay: [4200, 6600],
  },
  {
    department: 3,
    title: tl('UX Designer', 'UX-ontwerper'),
    tags: [3, 12],
    levels: [2, 3, 4],
    education: [2, 3],
    pay: [3400, 5800],
  },
  {
    department: 3,
    title: tl('Visual Designer', 'Visueel ontwerper'),
    tags: [12],
    levels: [1, 2, 3],
    education: [1, 2],
    pay: [3000, 5000],
  },
  {
    department: 4,
    title: tl('Account Executive', 'Accountmanager'),
    tags: [8, 14],
    levels: [2, 3, 4],
    education: [2, 3],
    pay: [3200, 6000],
  },
  {
    department: 4,
    title: tl('Sales Development Representative', 'Sales development representative'),
    tags: [8],
    levels: [1, 2],
    education: [1, 2],
    pay: [2600, 3800],
  },
  {
    department: 5,
    title: tl('Content Marketer', 'Contentmarketeer'),
    tags: [9, 12],
    levels: [2, 3],
    education: [2, 3],
    pay: [3000, 4800],
  },
  {
    department: 5,
    title: tl('Growth Marketing Lead', 'Lead growth marketing'),
    tags: [9, 4],
    levels: [4, 5],
    education: [3, 4],
    pay: [5200, 7800],
  },
  {
    department: 6,
    title: tl('Customer Success Manager', 'Customer success manager'),
    tags: [8, 13],
    levels: [2, 3, 4],
    education: [2, 3],
    pay: [3200, 5200],
  },
  {
    department: 6,
    title: tl('Support Specialist', 'Supportmedewerker'),
    tags: [14],
    levels: [1, 2],
    education: [1, 2],
    pay: [2400, 3400],
  },
  {
    department: 7,
    title: tl('Financial Controller', 'Financieel controller'),
    tags: [10, 14],
    levels: [3, 4],
    education: [3, 4],
    pay: [4400, 6800],
  },
  {
    department: 7,
    title: tl('Accounts Payable Clerk', 'Crediteurenadministrateur'),
    tags: [10],
    levels: [1, 2],
    education: [1, 2],
    pay: [2400, 3300],
  },
  {
    department: 8,
    title: tl('Recruiter', 'Recruiter'),
    tags: [13],
    levels: [2, 3],
    education: [2, 3],
    pay: [3000, 4600],
  },
  {
    department: 8,
    title: tl('HR Business Partner', 'HR business partner'),
    tags: [13],
    levels: [4],
    education: [3, 4],
    pay: [4600, 6400],
  },
  {
    department: 9,
    title: tl('Warehouse Operator', 'Magazijnmedewerker'),
    tags: [14],
    levels: [1, 2],
    education: [1],
    pay: [2200, 2900],
  },
  {
    department: 9,
    title: tl('Logistics Planner', 'Logistiek planner'),
    tags: [14],
    levels: [2, 3],
    education: [1, 2],
    pay: [2800, 4000],
  },
  {
    department: 10,
    title: tl('Legal Counsel', 'Juridisch adviseur'),
    tags: [13],
    levels: [4, 5],
    education: [4],
    pay: [5500, 8200],
  },
];

const LEVEL_PREFIX: Record<number, TL> = {
  1: tl('Trainee', 'Trainee'),
  2: tl('Junior', 'Junior'),
  3: tl('Medior', 'Medior'),
  4: tl('Senior', 'Senior'),
  5: tl('Lead', 'Lead'),
};

const TEXT = {
  en: {
    summary: (title: string, city: string) =>
      `<p>Join Acme in ${city} as <strong>${title}</strong> and help us build the tools that thousands of teams rely on every day.</p>`,
    intro: [
      'Acme builds software and services that keep goods, people and information moving across Europe.',
      'Our teams are small, autonomous and close to the customers they serve.',
      'We ship often, measure what matters and keep learning from every release.',
      'You will work with colleagues from more than twenty countries.',
    ],
    duties: [
      'Shape the roadmap of your team together with product and design',
      'Own your work from the first idea to running it in production',
      'Share what you learn in reviews, demos and our internal guilds',
      'Mentor colleagues and help new team members find their way',
      'Keep quality high with tests, monitoring and honest retrospectives',
      'Work closely with customers to understand the problems behind their questions',
    ],
    requirements: [
      'Relevant experience in a similar role',
      'Fluent in English; Dutch or German is a plus',
      'A habit of writing things down clearly',
      'Curiosity and a sense of ownership',
      'Comfortable working in a hybrid team',
    ],
    offer: [
      'A salary that matches your experience',
      '27 vacation days and a sabbatical option',
      'A personal training budget of EUR 2,000 a year',
      'A pension plan and a travel allowance',
      'Flexible hours and a home office budget',
    ],
    headings: { role: 'The role', you: 'What you will do' },
  },
  nl: {
    summary: (title: string, city: string) =>
      `<p>Kom bij Acme in ${city} werken als <strong>${title}</strong> en bouw mee aan de tools waar duizenden teams elke dag op vertrouwen.</p>`,
    intro: [
      'Acme bouwt software en diensten die goederen, mensen en informatie door heel Europa in beweging houden.',
      'Onze teams zijn klein, zelfstandig en staan dicht bij hun klanten.',
      'We leveren vaak op, meten wat ertoe doet en leren van elke release.',
      'Je werkt samen met collega’s uit meer dan twintig landen.',
    ],
    duties: [
      'Samen met product en design de roadmap van je team bepalen',
      'Verantwoordelijk zijn voor je werk, van idee tot productie',
      'Kennis delen in reviews, demo’s en onze interne gildes',
      'Collega’s coachen en nieuwe teamleden wegwijs maken',
      'De kwaliteit hoog houden met tests, monitoring en eerlijke retrospectives',
      'Nauw samenwerken met klanten om hun vragen echt te begrijpen',
    ],
    requirements: [
      'Relevante ervaring in een vergelijkbare functie',
      'Goede beheersing van het Nederlands en Engels',
      'Je legt dingen helder op papier vast',
      'Nieuwsgierig en je neemt verantwoordelijkheid',
      'Je voelt je thuis in een hybride team',
    ],
    offer: [
      'Een salaris dat past bij je ervaring',
      '27 vakantiedagen en de mogelijkheid van een sabbatical',
      'Een persoonlijk opleidingsbudget van EUR 2.000 per jaar',
      'Een pensioenregeling en reiskostenvergoeding',
      'Flexibele werktijden en een thuiswerkbudget',
    ],
    headings: { role: 'De functie', you: 'Wat ga je doen' },
  },
} as const;

const list = (items: readonly string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

function vacancyContent(random: TRandom, language: 'en' | 'nl', title: string, city: string) {
  const text = TEXT[language];
  const intro = random.sample(text.intro, 3).join(' ');
  return {
    summary: text.summary(title, city),
    description:
      `<h2>${text.headings.role}</h2><p>${intro}</p>` +
      `<h3>${text.headings.you}</h3>${list(random.sample(text.duties, random.int(3, 5)))}`,
    requirements: random.chance(0.85) ? list(random.sample(text.requirements, random.int(3, 5))) : null,
    offer: random.chance(0.85) ? list(random.sample(text.offer, random.int(3, 5))) : null,
  };
}

const image = (kind: string, slug: string) => ({
  default: `https://images.acme.example/${kind}/${slug}/1200x630.jpg`,
  small: `https://images.acme.example/${kind}/${slug}/400x210.jpg`,
  large: `https://images.acme.example/${kind}/${slug}/2400x1260.jpg`,
});

type TVacancy = NonNullable<TTenantDocumentTenant['vacancies']>[number];

/** What makes a vacancy special; most are plain, visible ones. */
type TVariant =
  | 'visible'
  | 'closed'
  | 'draft'
  | 'unpublished'
  | 'expired'
  | 'website_only'
  | 'scheduled'
  | 'ending_later';

/** Questions of the demo's application forms (GET /vacancies/{slug}/application-form). */
const DEMO_QUESTIONS = [
  {
    key: 'notice_period',
    label: { en: 'Notice period', nl: 'Opzegtermijn' },
    type: 'single_select',
    required: false,
    options: [
      { value: 'none', label: { en: 'Available now', nl: 'Direct beschikbaar' } },
      { value: 'one_month', label: { en: 'One month', nl: 'Eén maand' } },
      { value: 'two_months_or_more', label: { en: 'Two months or more', nl: 'Twee maanden of meer' } },
    ],
  },
  {
    key: 'salary_expectation',
    label: { en: 'Gross monthly salary you expect (EUR)', nl: 'Verwacht bruto maandsalaris (EUR)' },
    type: 'number',
    required: false,
  },
  {
    key: 'work_permit',
    label: { en: 'Do you have a permit to work in the EU?', nl: 'Heb je een werkvergunning voor de EU?' },
    type: 'boolean',
    required: false,
  },
  {
    key: 'languages',
    label: { en: 'Languages you work in', nl: 'Talen waarin je werkt' },
    type: 'multi_select',
    required: false,
    options: [
      { value: 'en', label: { en: 'English', nl: 'Engels' } },
      { value: 'nl', label: { en: 'Dutch', nl: 'Nederlands' } },
      { value: 'de', label: { en: 'German', nl: 'Duits' } },
    ],
  },
  {
    key: 'motivation',
    label: { en: 'Why Acme?', nl: 'Waarom Acme?' },
    type: 'textarea',
    required: false,
    max_length: 2000,
  },
] satisfies TVacancy['questions'];

function acmeVacancies(random: TRandom): TVacancy[] {
  const variants: TVariant[] = [
    ...Array<TVariant>(61).fill('visible'),
    ...Array<TVariant>(3).fill('closed'),
    ...Array<TVariant>(2).fill('ending_later'),
    ...Array<TVariant>(3).fill('draft'),
    ...Array<TVariant>(2).fill('unpublished'),
    ...Array<TVariant>(2).fill('expired'),
    ...Array<TVariant>(2).fill('website_only'),
    'scheduled',
  ];
  const weighted = LOCATIONS.flatMap((l) => Array<TLocationSeed>(l.weight).fill(l));
  const eindhoven = LOCATIONS.find((l) => l.slug === 'eindhoven-lab') as TLocationSeed;
  const slugs = new Set<string>();
  return variants.map((variant, index): TVacancy => {
    const id = index + 1;
    const role = ROLES[index % ROLES.length] as TRoleSeed;
    const location = variant === 'draft' && index % 2 === 0 ? eindhoven : random.pick(weighted);
    const language: 'en' | 'nl' =
      (location.country === 'NL' || location.country === 'BE') && random.chance(0.45) ? 'nl' : 'en';
    const level = random.pick(role.levels);
    const prefix = level === 3 ? '' : `${LEVEL_PREFIX[level]?.[language] ?? ''} `;
    const title = `${prefix}${role.title[language]}`;
    let slug = slugify(`${title} ${location.locality}`);
    for (let n = 2; slugs.has(slug); n++) slug = slugify(`${title} ${location.locality} ${n}`);
    slugs.add(slug);
    const publishedDaysAgo = random.int(1, 200);
    const publishedAt = daysBefore(DEMO_ANCHOR, publishedDaysAgo, random.int(0, 600));
    const content = vacancyContent(random, language, title, location.locality);
    const jobTypes =
      role.department === 9 && random.chance(0.5)
        ? [1, 6]
        : random.chance(0.15)
          ? [2]
          : random.chance(0.08)
            ? [3, 5]
            : [1];
    const agency = role.department === 9 || (role.department === 6 && random.chance(0.3));
    const [minPay, maxPay] = role.pay;
    const low = Math.round((minPay + (maxPay - minPay) * 0.2 * (level - 1)) / 100) * 100;
    return {
      id,
      slug,
      title,
      ...content,
      language,
      status: variant === 'draft' ? 'draft' : variant === 'unpublished' ? 'unpublished' : 'published',
      channels: variant === 'website_only' ? ['website'] : random.chance(0.8) ? ['api', 'website'] : ['api'],
      accepts_applications: variant !== 'closed',
      published_at: variant === 'draft' ? null : variant === 'scheduled' ? FAR_FUTURE : publishedAt,
      created_at: daysBefore(DEMO_ANCHOR, publishedDaysAgo + random.int(1, 20), random.int(0, 600)),
      ends_at:
        variant === 'expired'
          ? daysBefore(DEMO_ANCHOR, Math.max(0, publishedDaysAgo - 30))
          : variant === 'ending_later'
            ? FAR_FUTURE
            : null,
      views_count: variant === 'draft' ? 0 : random.int(5, 2500),
      location_id: location.id,
      department_id: role.department,
      company_location_id: agency ? random.pick(COMPANIES.flatMap((c) => c.locations.map((l) => l.id))) : null,
      job_type_ids: jobTypes,
      experience_level_ids: [level],
      education_level_ids: random.sample(role.education, random.int(1, role.education.length)),
      tag_ids: [...new Set([...role.tags, ...(location.slug === 'remote-europe' ? [12] : [])])],
      compensation: random.chance(0.75)
        ? {
            min: low,
            max: Math.min(maxPay, low + Math.round(((maxPay - minPay) * 0.5) / 100) * 100),
            currency: location.country === 'GB' ? 'GBP' : location.country === 'CH' ? 'CHF' : 'EUR',
            period: 'month',
          }
        : null,
      header_image: random.chance(0.6) ? image('vacancies', slug) : null,
      // The first vacancies show an application form with a question of each type (all optional).
      ...(id <= 3 ? { questions: DEMO_QUESTIONS } : {}),
      canonical_url: index % 17 === 3 ? `https://careers.acme.example/jobs/${id}/${slug}` : null,
    };
  });
}

// --- team ------------------------------------------------------------------------------------------------

const ROLE_LABELS = {
  administrator: tl('Administrator', 'Beheerder'),
  hr_manager: tl('HR manager', 'HR-manager'),
  recruiter: tl('Recruiter', 'Recruiter'),
  hiring_manager: tl('Hiring manager', 'Vacaturehouder'),
  ambassador: tl('Employee ambassador', 'Ambassadeur'),
} as const;
type TRoleName = keyof typeof ROLE_LABELS;

const TEAM: {
  given: string;
  family: string;
  title: string | null;
  role: TRoleName | null;
  phone: string | null;
  avatar: boolean;
  employed: boolean;
}[] = [
  {
    given: 'Sanne',
    family: 'de Vries',
    title: 'Head of People',
    role: 'hr_manager',
    phone: '+31201234501',
    avatar: true,
    employed: true,
  },
  {
    given: 'Daan',
    family: 'Bakker',
    title: 'Senior Recruiter',
    role: 'recruiter',
    phone: '+31201234502',
    avatar: true,
    employed: true,
  },
  {
    given: 'Amira',
    family: 'El Amrani',
    title: 'Technical Recruiter',
    role: 'recruiter',
    phone: '+31201234503',
    avatar: true,
    employed: true,
  },
  {
    given: 'Lukas',
    family: 'Schmidt',
    title: 'Engineering Manager',
    role: 'hiring_manager',
    phone: '+4930123456704',
    avatar: true,
    employed: true,
  },
  {
    given: 'Chloé',
    family: 'Dubois',
    title: 'Design Lead',
    role: 'hiring_manager',
    phone: null,
    avatar: true,
    employed: true,
  },
  {
    given: 'Oliver',
    family: 'Hughes',
    title: 'Sales Director UK',
    role: 'hiring_manager',
    phone: '+442071234506',
    avatar: false,
    employed: true,
  },
  {
    given: 'Femke',
    family: 'Janssens',
    title: 'Office Manager Antwerp',
    role: 'administrator',
    phone: '+3231234507',
    avatar: true,
    employed: true,
  },
  {
    given: 'Mehmet',
    family: 'Yılmaz',
    title: 'Backend Engineer',
    role: 'ambassador',
    phone: null,
    avatar: true,
    employed: true,
  },
  {
    given: 'Lucía',
    family: 'García',
    title: 'UX Designer',
    role: 'ambassador',
    phone: '+34931234509',
    avatar: false,
    employed: true,
  },
  {
    given: 'Noah',
    family: 'Visser',
    title: 'Platform Administrator',
    role: 'administrator',
    phone: '+31201234510',
    avatar: true,
    employed: true,
  },
  { given: 'Emma', family: 'Müller', title: 'Data Engineer', role: null, phone: null, avatar: true, employed: true },
  { given: 'Sophie', family: 'Peeters', title: null, role: null, phone: null, avatar: false, employed: true },
  {
    given: 'Thomas',
    family: 'Jansen',
    title: 'Former Recruiter',
    role: 'recruiter',
    phone: '+31201234513',
    avatar: true,
    employed: false,
  },
  {
    given: 'Ingrid',
    family: 'Larsen',
    title: 'Former Sales Manager',
    role: 'hiring_manager',
    phone: null,
    avatar: false,
    employed: false,
  },
];

function acmeTeam(): NonNullable<TTenantDocumentTenant['team_members']> {
  return TEAM.map((m, i) => {
    const handle = slugify(`${m.given} ${m.family}`);
    return {
      id: i + 1,
      given_name: m.given,
      family_name: m.family,
      email: `${handle.replace(/-/g, '.')}@acme.example`,
      job_title: m.title,
      phone: m.phone,
      role: m.role ? { name: m.role, label: ROLE_LABELS[m.role] } : null,
      avatar: m.avatar
        ? {
            small: `https://images.acme.example/team/${handle}/64.jpg`,
            medium: `https://images.acme.example/team/${handle}/256.jpg`,
            large: `https://images.acme.example/team/${handle}/512.jpg`,
          }
        : null,
      employed: m.employed,
    };
  });
}

// --- articles --------------------------------------------------------------------------------------------

const PARAGRAPHS = {
  en: [
    'At Acme we believe that good work starts with good conversations. That is why every team meets its customers at least once a month, in person or on a call, to hear first hand what works and what does not.',
    'Over the past year we have grown from four to nine offices, and every new location started the same way: a small team, a clear mission and the freedom to find its own rhythm.',
    'Our engineers spend one day every sprint on improvements of their own choosing. Some of the most loved features of our platform began as one of those experiments.',
    'Sustainability is not a side project. Our offices run on renewable energy, we travel by train where we can and we publish our carbon footprint every year.',
    'Learning never stops. Every colleague has a personal training budget, and our internal academy offers courses ranging from negotiation to distributed systems.',
    'We asked colleagues what they value most about working here. The answers were remarkably consistent: trust, clear goals and colleagues who help each other out.',
    'Hiring is a team sport. Candidates meet the people they will work with, get honest answers to their questions and hear back from us within a week.',
    'The next chapter is about doing fewer things better. We are focusing our roadmap on reliability, speed and the small details that make a product a pleasure to use.',
  ],
  nl: [
    'Bij Acme geloven we dat goed werk begint met goede gesprekken. Daarom spreekt elk team minstens één keer per maand met klanten, op locatie of via een call, om uit de eerste hand te horen wat werkt en wat niet.',
    'Het afgelopen jaar zijn we gegroeid van vier naar negen kantoren, en elke nieuwe vestiging begon op dezelfde manier: een klein team, een heldere missie en de vrijheid om een eigen ritme te vinden.',
    'Onze engineers besteden elke sprint één dag aan verbeteringen die ze zelf kiezen. Sommige van de meest geliefde functies van ons platform begonnen als zo’n experiment.',
    'Duurzaamheid is geen bijzaak. Onze kantoren draaien op groene stroom, we reizen waar mogelijk met de trein en we publiceren elk jaar onze CO2-voetafdruk.',
    'Leren stopt nooit. Iedere collega heeft een persoonlijk opleidingsbudget, en onze interne academie biedt trainingen van onderhandelen tot gedistribueerde systemen.',
    'We vroegen collega’s wat ze het meest waarderen aan werken bij Acme. De antwoorden waren opvallend eensgezind: vertrouwen, duidelijke doelen en collega’s die elkaar helpen.',
  ],
} as const;

type TArticleSeed = {
  type: 'news' | 'company_update' | 'event' | 'blog_post';
  en: string | null;
  nl: string | null;
  featured?: boolean;
  status?: 'draft' | 'published';
  expired?: boolean;
  scheduled?: boolean;
  tags: number[];
  paragraphs: number;
  image?: boolean;
};

const ARTICLES: TArticleSeed[] = [
  {
    type: 'news',
    en: 'Acme opens a new office in Barcelona',
    nl: 'Acme opent een nieuw kantoor in Barcelona',
    featured: true,
    tags: [15],
    paragraphs: 4,
    image: true,
  },
  {
    type: 'company_update',
    en: 'Our results for the first half of 2026',
    nl: 'Onze resultaten over het eerste halfjaar van 2026',
    tags: [7, 10],
    paragraphs: 6,
    image: true,
  },
  {
    type: 'event',
    en: 'Meet us at the Amsterdam Tech Career Fair',
    nl: 'Ontmoet ons op de Amsterdam Tech Career Fair',
    featured: true,
    tags: [16, 1],
    paragraphs: 3,
    image: true,
  },
  {
    type: 'blog_post',
    en: 'How we run hybrid teams across nine offices',
    nl: null,
    tags: [13, 15],
    paragraphs: 8,
    image: false,
  },
  {
    type: 'blog_post',
    en: 'A day in the life of a site reliability engineer',
    nl: 'Een dag uit het leven van een site reliability engineer',
    featured: true,
    tags: [5, 1],
    paragraphs: 7,
    image: true,
  },
  {
    type: 'news',
    en: 'Acme is carbon neutral for the second year running',
    nl: 'Acme is voor het tweede jaar op rij CO2-neutraal',
    tags: [17],
    paragraphs: 5,
    image: true,
  },
  { type: 'event', en: 'Open house at the Berlin Hub', nl: null, tags: [16], paragraphs: 3, image: false },
  {
    type: 'company_update',
    en: 'New parental leave policy for all countries',
    nl: 'Nieuw beleid voor ouderschapsverlof in alle landen',
    tags: [15],
    paragraphs: 4,
    image: false,
  },
  {
    type: 'blog_post',
    en: null,
    nl: 'Waarom wij elke sprint een dag vrij experimenteren',
    tags: [1, 2],
    paragraphs: 5,
    image: true,
  },
  {
    type: 'news',
    en: 'Acme wins the Dutch Employer Award',
    nl: 'Acme wint de Nederlandse Werkgeversprijs',
    tags: [15],
    paragraphs: 3,
    image: true,
  },
  {
    type: 'blog_post',
    en: 'What our interview process looks like',
    nl: 'Zo ziet ons sollicitatieproces eruit',
    tags: [15],
    paragraphs: 6,
    image: false,
  },
  {
    type: 'event',
    en: 'Data meetup: streaming at scale',
    nl: null,
    tags: [4, 16],
    paragraphs: 2,
    image: true,
    expired: true,
  },
  {
    type: 'news',
    en: 'Upcoming: our 2027 graduate programme',
    nl: 'Binnenkort: ons traineeprogramma 2027',
    tags: [15],
    paragraphs: 3,
    image: true,
    scheduled: true,
  },
  { type: 'company_update', en: 'Draft: new office in Zürich', nl: null, tags: [15], paragraphs: 2, status: 'draft' },
  {
    type: 'blog_post',
    en: 'Draft: lessons from our platform migration',
    nl: 'Concept: lessen uit onze platformmigratie',
    tags: [5],
    paragraphs: 5,
    status: 'draft',
  },
];

function articleBody(random: TRandom, language: 'en' | 'nl', paragraphs: number): string {
  const pool = PARAGRAPHS[language];
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) parts.push(`<p>${pool[(i + random.int(0, pool.length - 1)) % pool.length]}</p>`);
  if (paragraphs > 4)
    parts.splice(2, 0, language === 'en' ? '<h2>What this means for you</h2>' : '<h2>Wat dit voor jou betekent</h2>');
  return parts.join('\n');
}

function acmeArticles(random: TRandom): NonNullable<TTenantDocumentTenant['articles']> {
  return ARTICLES.map((a, i) => {
    const slug = slugify((a.en ?? a.nl ?? `article-${i + 1}`).replace(/^(Draft|Concept|Upcoming|Binnenkort): /, ''));
    const daysAgo = 5 + i * 9 + random.int(0, 6);
    const translations: Record<
      string,
      { title: string; excerpt: string | null; body_html: string; seo: { title: string; description: string } }
    > = {};
    for (const language of ['en', 'nl'] as const) {
      const title = a[language];
      if (!title) continue;
      const body = articleBody(random, language, a.paragraphs);
      const excerpt =
        i % 5 === 4 && language === 'nl'
          ? null
          : (body
              .replace(/<[^>]+>/g, ' ')
              .trim()
              .split(/(?<=\.)\s/)[0] ?? null);
      translations[language] = {
        title,
        excerpt,
        body_html: body,
        seo: { title: `${title} | Acme`, description: (excerpt ?? title).slice(0, 155) },
      };
    }
    return {
      id: i + 1,
      slug,
      type: a.type,
      status: a.status ?? 'published',
      is_featured: a.featured ?? false,
      views_count: a.status === 'draft' ? 0 : random.int(20, 4000),
      published_at:
        a.status === 'draft' ? null : a.scheduled ? FAR_FUTURE : daysBefore(DEMO_ANCHOR, daysAgo, random.int(0, 600)),
      expires_at: a.expired ? daysBefore(DEMO_ANCHOR, 2) : a.type === 'event' ? FAR_FUTURE : null,
      created_at: daysBefore(DEMO_ANCHOR, daysAgo + random.int(1, 5)),
      tag_ids: a.tags,
      featured_image: a.image ? image('articles', slug) : null,
      translations,
    };
  });
}

// --- the document ----------------------------------------------------------------------------------------

function acmeTenant(): TTenantDocumentTenant {
  const random = seededRandom(20_260_901);
  return {
    slug: 'acme',
    name: 'Acme Corporation',
    default_language: 'en',
    api_enabled: true,
    career_site: { domain: 'careers.acme.example', url_pattern: 'https://careers.acme.example/vacancies/{slug}' },
    domains: ['acme.example', 'jobs.acme.example'],
    api_keys: [
      { id: 1, name: 'Demo key (all scopes)', key: DEMO_API_KEY, scopes: [...SCOPES], revoked: false },
      {
        id: 2,
        name: 'Job board widget (vacancies only)',
        key: DEMO_READ_ONLY_API_KEY,
        scopes: ['vacancies:read'],
        revoked: false,
      },
      {
        id: 3,
        name: 'Old website (revoked)',
        key: DEMO_REVOKED_API_KEY,
        scopes: ['vacancies:read', 'applications:write'],
        revoked: true,
      },
    ],
    users: [
      { id: 1, name: 'Alex Admin', email: DEMO_ADMIN.email, role: 'admin', password: DEMO_ADMIN.password },
      {
        id: 2,
        name: 'Rita Recruiter',
        email: 'rita.recruiter@acme.example',
        role: 'recruiter',
        password: 'acme-demo-recruiter-2026',
      },
      { id: 3, name: 'Henk Hiring', email: 'henk.hiring@acme.example', role: 'hiring_manager', password: null },
    ],
    locations: LOCATIONS.map((l, i) => ({
      id: l.id,
      slug: l.slug,
      name: l.name,
      address_line_1: l.street || null,
      address_line_2: l.slug === 'amsterdam-hq' ? '3rd floor' : null,
      address_line_3: null,
      locality: l.locality,
      administrative_area: l.area,
      postal_code: l.postal || null,
      country_code: l.country,
      latitude: l.lat,
      longitude: l.lng,
      created_at: daysBefore(DEMO_ANCHOR, 900 - i * 60),
    })),
    companies: COMPANIES,
    departments: DEPARTMENTS,
    job_types: JOB_TYPES,
    experience_levels: EXPERIENCE_LEVELS,
    education_levels: EDUCATION_LEVELS,
    tags: TAGS,
    vacancies: acmeVacancies(random),
    team_members: acmeTeam(),
    articles: acmeArticles(random),
    candidates: [
      {
        id: 1,
        slug: 'jan-de-boer',
        user_id: 1,
        first_name: 'Jan',
        last_name: 'de Boer',
        email: 'jan.deboer@example.com',
        phone: '+31612345678',
        status: 'potential',
        created_at: daysBefore(DEMO_ANCHOR, 40),
      },
      {
        id: 2,
        slug: 'maria-lopez',
        user_id: 1,
        first_name: 'María',
        last_name: 'López',
        email: 'maria.lopez@example.com',
        phone: null,
        status: 'intake_scheduled',
        created_at: daysBefore(DEMO_ANCHOR, 32),
      },
      {
        id: 3,
        slug: 'kevin-obrien',
        user_id: 2,
        first_name: 'Kevin',
        last_name: "O'Brien",
        email: 'kevin.obrien@example.com',
        phone: '+447700900123',
        status: 'active_mediation',
        created_at: daysBefore(DEMO_ANCHOR, 25),
      },
      {
        id: 4,
        slug: 'fatima-zahra',
        user_id: 2,
        first_name: 'Fatima',
        last_name: 'Zahra',
        email: 'fatima.zahra@example.com',
        phone: null,
        status: 'waiting_for_intake',
        created_at: daysBefore(DEMO_ANCHOR, 12),
      },
      {
        id: 5,
        slug: 'pieter-smit',
        user_id: 1,
        first_name: 'Pieter',
        last_name: 'Smit',
        email: 'pieter.smit@example.com',
        phone: '+31687654321',
        status: 'employee',
        created_at: daysBefore(DEMO_ANCHOR, 300),
      },
      {
        id: 6,
        slug: 'anna-kowalska',
        user_id: null,
        first_name: 'Anna',
        last_name: 'Kowalska',
        email: 'anna.kowalska@example.com',
        phone: null,
        status: 'do_not_contact',
        created_at: daysBefore(DEMO_ANCHOR, 150),
      },
    ],
  };
}

/** Ids of globex start here (ids are global across the tenants of a document). */
const GLOBEX = 1000;

function globexTenant(sharedVacancySlug: string): TTenantDocumentTenant {
  const random = seededRandom(1_989);
  const vacancy = (
    n: number,
    slug: string,
    title: string,
    location: number,
    extra: Partial<TVacancy> = {},
  ): TVacancy => ({
    id: GLOBEX + n,
    slug,
    title,
    summary: `<p>${title} at Globex, the company that makes tomorrow happen today.</p>`,
    description: `<p>Globex is looking for a ${title.toLowerCase()} to join its ${location === GLOBEX + 1 ? 'Springfield' : 'Toronto'} team.</p>`,
    requirements: '<ul><li>Two years of relevant experience</li><li>Team player</li></ul>',
    offer: null,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    accepts_applications: true,
    published_at: daysBefore(DEMO_ANCHOR, random.int(1, 90)),
    created_at: daysBefore(DEMO_ANCHOR, 100),
    ends_at: null,
    views_count: random.int(0, 300),
    location_id: location,
    department_id: GLOBEX + (n % 2) + 1,
    company_location_id: null,
    job_type_ids: [GLOBEX + 1],
    experience_level_ids: [GLOBEX + 1],
    education_level_ids: [],
    tag_ids: [GLOBEX + 2],
    compensation: { min: 60_000, max: 85_000, currency: 'USD', period: 'year' },
    header_image: null,
    canonical_url: null,
    ...extra,
  });
  return {
    slug: 'globex',
    name: 'Globex Corporation',
    default_language: 'en',
    api_enabled: true,
    career_site: { domain: 'jobs.globex.example', url_pattern: 'https://jobs.globex.example/openings/{id}-{slug}' },
    domains: ['globex.example'],
    api_keys: [
      { id: GLOBEX + 1, name: 'Globex demo key', key: DEMO_GLOBEX_API_KEY, scopes: [...SCOPES], revoked: false },
    ],
    users: [
      {
        id: GLOBEX + 1,
        name: 'Hank Scorpio',
        email: 'hank@globex.example',
        role: 'admin',
        password: 'globex-demo-admin-2026',
      },
    ],
    locations: [
      {
        id: GLOBEX + 1,
        slug: 'springfield',
        name: 'Springfield Campus',
        address_line_1: '1 Globex Way',
        locality: 'Springfield',
        administrative_area: 'Oregon',
        postal_code: '97477',
        country_code: 'US',
        latitude: 44.0462,
        longitude: -123.022,
        created_at: daysBefore(DEMO_ANCHOR, 500),
      },
      {
        id: GLOBEX + 2,
        slug: 'toronto',
        name: 'Toronto Office',
        address_line_1: '100 King Street West',
        locality: 'Toronto',
        administrative_area: 'Ontario',
        postal_code: 'M5X 1A9',
        country_code: 'CA',
        latitude: 43.6487,
        longitude: -79.3817,
        created_at: daysBefore(DEMO_ANCHOR, 400),
      },
    ],
    departments: [
      { id: GLOBEX + 1, name: { en: 'Research & Development' } },
      { id: GLOBEX + 2, name: { en: 'Facilities' } },
    ],
    job_types: [{ id: GLOBEX + 1, name: { en: 'Full-time' } }],
    experience_levels: [{ id: GLOBEX + 1, name: { en: 'Experienced' } }],
    education_levels: [{ id: GLOBEX + 1, name: { en: 'High school' } }],
    tags: [
      { id: GLOBEX + 1, name: { en: 'Science' }, parent_id: null },
      { id: GLOBEX + 2, name: { en: 'Engineering' }, parent_id: GLOBEX + 1 },
    ],
    vacancies: [
      // The same slug as an acme vacancy: each key sees its own tenant's record.
      vacancy(1, sharedVacancySlug, 'Senior Backend Engineer', GLOBEX + 1),
      vacancy(2, 'doomsday-device-technician', 'Doomsday Device Technician', GLOBEX + 1),
      vacancy(3, 'hammock-quality-inspector', 'Hammock Quality Inspector', GLOBEX + 1, { accepts_applications: false }),
      vacancy(4, 'research-scientist-toronto', 'Research Scientist', GLOBEX + 2),
      vacancy(5, 'facilities-coordinator', 'Facilities Coordinator', GLOBEX + 2),
      vacancy(6, 'volcano-lair-architect', 'Volcano Lair Architect', GLOBEX + 1, {
        status: 'draft',
        published_at: null,
      }),
    ],
    team_members: [
      {
        id: GLOBEX + 1,
        given_name: 'Hank',
        family_name: 'Scorpio',
        email: 'hank@globex.example',
        job_title: 'Chief Executive Officer',
        phone: '+15415550100',
        role: { name: 'administrator', label: { en: 'Administrator' } },
        avatar: null,
        employed: true,
      },
      {
        id: GLOBEX + 2,
        given_name: 'Homer',
        family_name: 'Simpson',
        email: 'homer@globex.example',
        job_title: 'Motivational Consultant',
        phone: null,
        role: null,
        avatar: null,
        employed: false,
      },
      {
        id: GLOBEX + 3,
        given_name: 'Bart',
        family_name: 'Simpson',
        email: 'bart@globex.example',
        job_title: 'Intern',
        phone: null,
        role: null,
        avatar: null,
        employed: true,
      },
    ],
    articles: [
      {
        id: GLOBEX + 1,
        slug: 'acme-opens-a-new-office-in-barcelona',
        type: 'news',
        status: 'published',
        is_featured: true,
        published_at: daysBefore(DEMO_ANCHOR, 3),
        created_at: daysBefore(DEMO_ANCHOR, 4),
        translations: {
          en: {
            title: 'Globex opens a campus in Springfield',
            excerpt: 'Hammocks included.',
            body_html: '<p>Globex opens a campus in Springfield. Hammocks included.</p>',
            seo: null,
          },
        },
      },
      {
        id: GLOBEX + 2,
        slug: 'company-picnic',
        type: 'event',
        status: 'published',
        published_at: daysBefore(DEMO_ANCHOR, 10),
        created_at: daysBefore(DEMO_ANCHOR, 12),
        translations: {
          en: { title: 'Company picnic', excerpt: null, body_html: '<p>Bring your family.</p>', seo: null },
        },
      },
    ],
    candidates: [
      {
        id: GLOBEX + 1,
        slug: 'jan-de-boer',
        user_id: GLOBEX + 1,
        first_name: 'Frank',
        last_name: 'Grimes',
        email: 'frank.grimes@example.com',
        phone: null,
        status: 'ex_employee',
        created_at: daysBefore(DEMO_ANCHOR, 60),
      },
    ],
  };
}

/** The demo tenants (acme and globex) as one tenant document. */
export function buildDemoDocument(): TTenantDocument {
  const acme = acmeTenant();
  return { tenants: [acme, globexTenant(acme.vacancies?.[0]?.slug ?? 'senior-backend-engineer')] };
}
