import type { TEmploymentType } from '../modules/taxonomies/taxonomy.entity.ts';

/** The demo's taxonomies and places: departments, job types, levels, tags, locations (two languages). */

export type TL = { en: string; nl: string };
export const tl = (en: string, nl: string): TL => ({ en, nl });

// --- acme taxonomies -------------------------------------------------------------------------------------

export const DEPARTMENTS: { id: number; name: TL | string }[] = [
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

export const JOB_TYPES = [
  { id: 1, name: tl('Full-time', 'Voltijd'), employment_type: 'FULL_TIME' },
  { id: 2, name: tl('Part-time', 'Deeltijd'), employment_type: 'PART_TIME' },
  { id: 3, name: tl('Contract', 'Contract'), employment_type: 'CONTRACTOR' },
  { id: 4, name: tl('Internship', 'Stage'), employment_type: 'INTERN' },
  { id: 5, name: tl('Freelance', 'Freelance'), employment_type: 'CONTRACTOR' },
  { id: 6, name: tl('Temporary', 'Tijdelijk'), employment_type: 'TEMPORARY' },
] satisfies { id: number; name: TL; employment_type: TEmploymentType }[];

export const EXPERIENCE_LEVELS = [
  { id: 1, name: tl('Entry level', 'Starter') },
  { id: 2, name: tl('Junior', 'Junior') },
  { id: 3, name: tl('Medior', 'Medior') },
  { id: 4, name: tl('Senior', 'Senior') },
  { id: 5, name: tl('Lead', 'Lead') },
];

export const EDUCATION_LEVELS = [
  { id: 1, name: tl('Secondary vocational (MBO)', 'MBO') },
  { id: 2, name: tl('Higher vocational (HBO)', 'HBO') },
  { id: 3, name: tl("Bachelor's degree", 'Bachelor') },
  { id: 4, name: tl("Master's degree", 'Master') },
  { id: 5, name: tl('Doctorate', 'Promotie') },
];

/** Main tags (parent null) with their sub-tags. */
export const TAGS = [
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

export type TLocationSeed = {
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

export const LOCATIONS: TLocationSeed[] = [
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
