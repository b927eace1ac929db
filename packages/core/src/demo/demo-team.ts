import type { TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import { slugify } from './random.ts';
import { tl } from './demo-taxonomies.ts';

/** Acme's team members and their roles. */

export const ROLE_LABELS = {
  administrator: tl('Administrator', 'Beheerder'),
  hr_manager: tl('HR manager', 'HR-manager'),
  recruiter: tl('Recruiter', 'Recruiter'),
  hiring_manager: tl('Hiring manager', 'Vacaturehouder'),
  ambassador: tl('Employee ambassador', 'Ambassadeur'),
} as const;
export type TRoleName = keyof typeof ROLE_LABELS;

export const TEAM: {
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

export function acmeTeam(): NonNullable<TTenantDocumentTenant['team_members']> {
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
