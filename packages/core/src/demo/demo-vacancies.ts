import type { TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import { daysBefore, slugify, type TRandom } from './random.ts';
import { DEMO_ANCHOR, FAR_FUTURE } from './demo-keys.ts';
import { type TLocationSeed, LOCATIONS } from './demo-taxonomies.ts';
import { COMPANIES, type TRoleSeed, ROLES, LEVEL_PREFIX, TEXT, list } from './demo-roles.ts';

/** Acme's vacancies: one per role and place, with the variants the API can show (closed, scheduled, expired…). */

export function vacancyContent(random: TRandom, language: 'en' | 'nl', title: string, city: string) {
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

export const image = (kind: string, slug: string) => ({
  default: `https://images.acme.example/${kind}/${slug}/1200x630.jpg`,
  small: `https://images.acme.example/${kind}/${slug}/400x210.jpg`,
  large: `https://images.acme.example/${kind}/${slug}/2400x1260.jpg`,
});

export type TVacancy = NonNullable<TTenantDocumentTenant['vacancies']>[number];

/** What makes a vacancy special; most are plain, visible ones. */
export type TVariant =
  | 'visible'
  | 'closed'
  | 'draft'
  | 'unpublished'
  | 'expired'
  | 'website_only'
  | 'scheduled'
  | 'ending_later';

/** Questions of the demo's application forms (GET /vacancies/{slug}/application-form). */
export const DEMO_QUESTIONS = [
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

export function acmeVacancies(random: TRandom): TVacancy[] {
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
