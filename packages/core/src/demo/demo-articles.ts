import type { TTenantDocumentTenant } from '../modules/tenants/import/tenant-document.schema.ts';
import { daysBefore, slugify, type TRandom } from './random.ts';
import { DEMO_ANCHOR, FAR_FUTURE } from './demo-keys.ts';
import { image } from './demo-vacancies.ts';

/** Acme's articles (news, updates, events, blog posts) in two languages. */

export const PARAGRAPHS = {
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

export type TArticleSeed = {
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

export const ARTICLES: TArticleSeed[] = [
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

export function articleBody(random: TRandom, language: 'en' | 'nl', paragraphs: number): string {
  const pool = PARAGRAPHS[language];
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) parts.push(`<p>${pool[(i + random.int(0, pool.length - 1)) % pool.length]}</p>`);
  if (paragraphs > 4)
    parts.splice(2, 0, language === 'en' ? '<h2>What this means for you</h2>' : '<h2>Wat dit voor jou betekent</h2>');
  return parts.join('\n');
}

export function acmeArticles(random: TRandom): NonNullable<TTenantDocumentTenant['articles']> {
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
