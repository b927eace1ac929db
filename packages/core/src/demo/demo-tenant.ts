import { SCOPES } from '../lib/scopes.ts';
import type { TTenantDocument, TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import { daysBefore, seededRandom } from './random.ts';
import {
  DEMO_API_KEY,
  DEMO_READ_ONLY_API_KEY,
  DEMO_REVOKED_API_KEY,
  DEMO_GLOBEX_API_KEY,
  DEMO_ADMIN,
  DEMO_ANCHOR,
} from './demo-keys.ts';
import { DEPARTMENTS, JOB_TYPES, EXPERIENCE_LEVELS, EDUCATION_LEVELS, TAGS, LOCATIONS } from './demo-taxonomies.ts';
import { COMPANIES } from './demo-roles.ts';
import { type TVacancy, acmeVacancies } from './demo-vacancies.ts';
import { acmeTeam } from './demo-team.ts';
import { acmeArticles } from './demo-articles.ts';

export { DEMO_ADMIN, DEMO_API_KEY, DEMO_GLOBEX_API_KEY } from './demo-keys.ts';

/**
 * The demo content `pnpm start` loads into an empty database: a realistic employer "acme" (two languages,
 * vacancies in several countries, taxonomies, a tag hierarchy, team, articles, candidates) and a small second
 * tenant "globex" that shows tenant isolation (it even reuses one of acme's vacancy slugs).
 * Deterministic: the same document on every call (seeded PRNG, dates relative to a fixed anchor).
 */

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
