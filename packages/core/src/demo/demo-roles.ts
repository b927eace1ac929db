import { type TL, tl } from './demo-taxonomies.ts';

/** The roles acme hires for, the companies it hires for, and the wording their vacancies are written in. */

export const COMPANIES = [
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

export type TRoleSeed = {
  department: number;
  title: TL;
  tags: number[];
  levels: number[];
  education: number[];
  pay: [number, number];
};

export const ROLES: TRoleSeed[] = [
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

export const LEVEL_PREFIX: Record<number, TL> = {
  1: tl('Trainee', 'Trainee'),
  2: tl('Junior', 'Junior'),
  3: tl('Medior', 'Medior'),
  4: tl('Senior', 'Senior'),
  5: tl('Lead', 'Lead'),
};

export const TEXT = {
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

export const list = (items: readonly string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
