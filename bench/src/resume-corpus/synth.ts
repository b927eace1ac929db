/**
 * Generated people for the resume corpus: a seeded generator composes person records from per-language pools (names,
 * employers, titles, studies, skills, spoken languages and their levels, date styles, phone formats), so that the
 * corpus can grow by seeds instead of by hand. The tuned part and the held-out part use different seeds, and the
 * held-out part other section headings and entry layouts (`variant`), so it measures resumes nobody tuned on.
 * Every number is checked by the generator (generate.ts) with libphonenumber-js; the truth comes from the record.
 */
import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { TLanguage, TLayout, TPerson } from './people.ts';
import type { TScan } from './scans.ts';
import { seededRandom } from '@careers/core/bench';

type TPool = {
  country: CountryCode;
  countryName: string;
  places: { city: string; postcode: string; street: string }[];
  first: string[];
  last: string[];
  titles: string[];
  employers: string[];
  degrees: string[];
  schools: string[];
  skills: string[];
  /** The resume's own language first, then others, as the resume names them. */
  spoken: string[];
  /** Level words: native first, then others. */
  levels: string[];
  months: string[];
  present: string;
  since: string;
  /** Phone formats: `d` is a random digit. */
  phones: string[];
  domains: string[];
  summary: string;
};

const POOLS: Record<TLanguage, TPool> = {
  en: {
    country: 'GB',
    countryName: 'United Kingdom',
    places: [
      { city: 'Manchester', postcode: 'M1 2AB', street: '22 Example Road' },
      { city: 'Bristol', postcode: 'BS1 4DJ', street: '5 Sample Lane' },
      { city: 'Leeds', postcode: 'LS2 7EY', street: '18 Test Street' },
      { city: 'Glasgow', postcode: 'G1 1XQ', street: '40 Model Place' },
    ],
    first: ['Olivia', 'James', 'Amelia', 'Harry', 'Chloe', 'Owen', 'Grace', 'Callum', 'Eleanor', 'Rory'],
    last: ['Thompson', 'Hughes', 'Patel', 'Fletcher', 'McAllister', "O'Brien", 'Walsh', 'Kershaw', 'Ahmed', 'Whitmore'],
    titles: [
      'Operations Manager',
      'Software Engineer',
      'Marketing Lead',
      'Financial Analyst',
      'Site Supervisor',
      'HR Advisor',
    ],
    employers: [
      'Northwind Example Ltd',
      'Sample Logistics plc',
      'Example Health Trust',
      'Brightside Example Ltd',
      'Test Bank plc',
    ],
    degrees: ['BSc Economics', 'BA History', 'MSc Data Science', 'BEng Mechanical Engineering', 'MA Marketing'],
    schools: ['University of Example', 'Example Metropolitan University', 'Sample College London'],
    skills: [
      'Excel',
      'Stakeholder management',
      'Python',
      'Budgeting',
      'Power BI',
      'Lean Six Sigma',
      'Salesforce',
      'Negotiation',
    ],
    spoken: ['English', 'French', 'German', 'Spanish', 'Polish', 'Italian'],
    levels: ['native', 'fluent', 'professional', 'conversational', 'basic'],
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    present: 'Present',
    since: 'Since',
    phones: ['020 7946 0ddd', '0113 496 0ddd', '0161 496 0ddd'],
    domains: ['example.co.uk', 'mail.example'],
    summary: 'Reliable professional with a record of delivering projects on time and within budget.',
  },
  nl: {
    country: 'NL',
    countryName: 'Nederland',
    places: [
      { city: 'Utrecht', postcode: '3511 AB', street: 'Oudegracht 12' },
      { city: 'Rotterdam', postcode: '3012 CN', street: 'Coolsingel 40' },
      { city: 'Eindhoven', postcode: '5611 EM', street: 'Stratumseind 8' },
      { city: 'Zwolle', postcode: '8011 LT', street: 'Diezerstraat 3' },
    ],
    first: ['Daan', 'Fleur', 'Bram', 'Iris', 'Joris', 'Noor', 'Sem', 'Esmée', 'Ruben', 'Maud'],
    last: [
      'de Boer',
      'van den Berg',
      'Mulder',
      'Bosman',
      'ter Horst',
      'Kuipers',
      'van Leeuwen',
      'Hendriks',
      'Smits',
      'de Wit',
    ],
    titles: [
      'Accountmanager',
      'Logistiek medewerker',
      'Teamleider klantenservice',
      'Software-ontwikkelaar',
      'Financieel adviseur',
    ],
    employers: [
      'Voorbeeld Logistiek B.V.',
      'Transport Voorbeeld B.V.',
      'Zorggroep Voorbeeld',
      'Gemeente Voorbeeld',
      'Techniek Voorbeeld N.V.',
    ],
    degrees: ['HBO Bedrijfskunde', 'MBO Logistiek', 'WO Master Economie', 'HBO Informatica', 'Bachelor Rechten'],
    schools: ['Hogeschool Voorbeeld', 'Universiteit Voorbeeld', 'ROC Voorbeeld'],
    skills: ['Exact Online', 'Klantcontact', 'Planning', 'SAP', 'Excel', 'Rijbewijs B', 'Java', 'Scrum'],
    spoken: ['Nederlands', 'Engels', 'Duits', 'Frans', 'Spaans'],
    levels: ['moedertaal', 'vloeiend', 'goed', 'redelijk', 'basis'],
    months: ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
    present: 'heden',
    since: 'sinds',
    phones: ['06-1ddd dddd', '06 2ddd dddd', '030 2dd dddd', '010-4dd dddd'],
    domains: ['example.nl', 'mail.example'],
    summary: 'Enthousiaste collega met oog voor detail en plezier in samenwerken.',
  },
  de: {
    country: 'DE',
    countryName: 'Deutschland',
    places: [
      { city: 'Hamburg', postcode: '20095', street: 'Mönckebergstraße 7' },
      { city: 'Köln', postcode: '50667', street: 'Hohe Straße 30' },
      { city: 'Leipzig', postcode: '04109', street: 'Grimmaische Straße 2' },
      { city: 'Nürnberg', postcode: '90402', street: 'Königstraße 18' },
    ],
    first: ['Jonas', 'Lea', 'Felix', 'Marie', 'Lukas', 'Johanna', 'Maximilian', 'Jana', 'Tobias', 'Sophie'],
    last: ['Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer', 'Zimmermann'],
    titles: ['Industriekauffrau', 'Softwareentwickler', 'Projektleiter Bau', 'Personalreferentin', 'Vertriebsleiter'],
    employers: [
      'Beispiel Maschinenbau GmbH',
      'Muster Logistik AG',
      'Beispiel Software GmbH',
      'Stadtwerke Beispiel',
      'Muster Handel KG',
    ],
    degrees: [
      'B.Sc. Informatik',
      'M.A. Betriebswirtschaft',
      'Ausbildung Industriekaufmann',
      'Diplom Bauingenieurwesen',
    ],
    schools: ['Universität Beispiel', 'Hochschule Beispiel', 'Berufsschule Muster'],
    skills: ['SAP', 'MS Office', 'Projektmanagement', 'Java', 'Vertrieb', 'Führerschein Klasse B', 'Controlling'],
    spoken: ['Deutsch', 'Englisch', 'Französisch', 'Spanisch', 'Polnisch'],
    levels: ['Muttersprache', 'fließend', 'verhandlungssicher', 'gut', 'Grundkenntnisse'],
    months: ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sept.', 'Okt.', 'Nov.', 'Dez.'],
    present: 'heute',
    since: 'seit',
    phones: ['0151 2ddddddd', '0176 3ddddddd', '040 3dddddd', '0221 3dddddd'],
    domains: ['example.de', 'post.example'],
    summary: 'Zuverlässig, strukturiert und teamorientiert, mit Freude an neuen Aufgaben.',
  },
  fr: {
    country: 'FR',
    countryName: 'France',
    places: [
      { city: 'Nantes', postcode: '44000', street: '12 rue Crébillon' },
      { city: 'Toulouse', postcode: '31000', street: '8 rue d’Alsace' },
      { city: 'Bordeaux', postcode: '33000', street: '25 cours de l’Intendance' },
      { city: 'Lille', postcode: '59000', street: '3 rue Esquermoise' },
    ],
    first: ['Camille', 'Lucas', 'Manon', 'Hugo', 'Chloé', 'Théo', 'Léa', 'Mathis', 'Inès', 'Antoine'],
    last: [
      'Martin',
      'Dubois',
      'Lefebvre',
      'Girard',
      'Faure',
      'Rousseau',
      'Fontaine',
      'Chevalier',
      'Lambert',
      'Mercier',
    ],
    titles: ['Chargée de recrutement', 'Développeur web', 'Responsable logistique', 'Comptable', 'Chef de projet'],
    employers: [
      'Exemple Conseil SAS',
      'Groupe Exemple SA',
      'Transports Exemple SARL',
      'Mairie d’Exemple',
      'Exemple Industrie SA',
    ],
    degrees: ['Master Ressources humaines', 'Licence Informatique', 'BTS Comptabilité', 'DUT Gestion logistique'],
    schools: ['Université Exemple', 'IUT Exemple', 'École Exemple'],
    skills: ['Excel', 'Recrutement', 'SAP', 'JavaScript', 'Gestion de projet', 'Paie', 'Permis B'],
    spoken: ['Français', 'Anglais', 'Espagnol', 'Allemand', 'Italien'],
    levels: ['langue maternelle', 'courant', 'bilingue', 'intermédiaire', 'notions'],
    months: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
    present: 'aujourd’hui',
    since: 'depuis',
    phones: ['06 1d dd dd dd', '07 5d dd dd dd', '02 4d dd dd dd', '05 6d dd dd dd'],
    domains: ['exemple.fr', 'mail.example'],
    summary: 'Professionnelle rigoureuse, à l’écoute et orientée solutions.',
  },
  es: {
    country: 'ES',
    countryName: 'España',
    places: [
      { city: 'Valencia', postcode: '46002', street: 'Calle de Colón 15' },
      { city: 'Bilbao', postcode: '48001', street: 'Gran Vía 22' },
      { city: 'Zaragoza', postcode: '50001', street: 'Calle Alfonso I 9' },
      { city: 'Málaga', postcode: '29005', street: 'Calle Larios 4' },
    ],
    first: ['Lucía', 'Pablo', 'Carmen', 'Javier', 'Marta', 'Sergio', 'Elena', 'Raúl', 'Nuria', 'Álvaro'],
    last: [
      'García Pérez',
      'Martínez',
      'Sánchez Ruiz',
      'López',
      'Gómez Navarro',
      'Díaz',
      'Moreno',
      'Jiménez Torres',
      'Romero',
      'Castillo',
    ],
    titles: [
      'Administrativa',
      'Ingeniero de software',
      'Técnico de mantenimiento',
      'Responsable de compras',
      'Enfermera',
    ],
    employers: [
      'Ejemplo Servicios S.L.',
      'Grupo Ejemplo S.A.',
      'Construcciones Ejemplo S.L.',
      'Hospital Ejemplo',
      'Ejemplo Digital S.L.',
    ],
    degrees: [
      'Grado en Administración de Empresas',
      'Grado en Ingeniería Informática',
      'Máster en Logística',
      'Grado en Enfermería',
    ],
    schools: ['Universidad de Ejemplo', 'Universidad Politécnica de Ejemplo', 'Escuela Ejemplo'],
    skills: ['SAP', 'Excel', 'Atención al cliente', 'Java', 'Gestión de compras', 'Carnet de conducir B'],
    spoken: ['Español', 'Inglés', 'Francés', 'Alemán', 'Italiano'],
    levels: ['nativo', 'fluido', 'avanzado', 'intermedio', 'básico'],
    months: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'],
    present: 'actualidad',
    since: 'desde',
    phones: ['6dd ddd ddd', '91d dd dd dd', '96d ddd ddd'],
    domains: ['correo.example', 'ejemplo.es'],
    summary: 'Profesional organizada y resolutiva, con experiencia en entornos exigentes.',
  },
  it: {
    country: 'IT',
    countryName: 'Italia',
    places: [
      { city: 'Torino', postcode: '10121', street: 'Via Roma 45' },
      { city: 'Bologna', postcode: '40121', street: 'Via Indipendenza 12' },
      { city: 'Firenze', postcode: '50123', street: 'Via dei Calzaiuoli 7' },
      { city: 'Genova', postcode: '16121', street: 'Via XX Settembre 30' },
    ],
    first: ['Francesca', 'Luca', 'Alessia', 'Matteo', 'Sara', 'Davide', 'Martina', 'Simone', 'Elisa', 'Andrea'],
    last: ['Rossi', 'Ferrari', 'Russo', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti'],
    titles: [
      'Impiegata amministrativa',
      'Sviluppatore software',
      'Responsabile vendite',
      'Tecnico di laboratorio',
      'Contabile',
    ],
    employers: [
      'Esempio Servizi S.r.l.',
      'Gruppo Esempio S.p.A.',
      'Esempio Logistica S.r.l.',
      'Comune di Esempio',
      'Esempio Tech S.r.l.',
    ],
    degrees: ['Laurea in Economia', 'Laurea magistrale in Ingegneria', 'Diploma di ragioneria', 'Laurea in Chimica'],
    schools: ['Università di Esempio', 'Politecnico di Esempio', 'Istituto Tecnico Esempio'],
    skills: ['Excel', 'SAP', 'Contabilità', 'Python', 'Vendita', 'Patente B'],
    spoken: ['Italiano', 'Inglese', 'Francese', 'Spagnolo', 'Tedesco'],
    levels: ['madrelingua', 'fluente', 'buono', 'base', 'B2'],
    months: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
    present: 'oggi',
    since: 'dal',
    phones: ['347 ddd dddd', '333 ddd dddd', '011 ddd dddd', '051 ddd dddd'],
    domains: ['posta.example', 'esempio.it'],
    summary: 'Persona precisa e affidabile, con buone capacità organizzative.',
  },
  pl: {
    country: 'PL',
    countryName: 'Polska',
    places: [
      { city: 'Wrocław', postcode: '50-001', street: 'ul. Świdnicka 10' },
      { city: 'Gdańsk', postcode: '80-831', street: 'ul. Długa 45' },
      { city: 'Poznań', postcode: '61-772', street: 'ul. Półwiejska 5' },
      { city: 'Lublin', postcode: '20-001', street: 'ul. Lipowa 3' },
    ],
    first: [
      'Anna',
      'Piotr',
      'Magdalena',
      'Tomasz',
      'Katarzyna',
      'Krzysztof',
      'Joanna',
      'Marcin',
      'Aleksandra',
      'Grzegorz',
    ],
    last: [
      'Kowalski',
      'Nowak',
      'Lewandowska',
      'Zieliński',
      'Szymańska',
      'Woźniak',
      'Kozłowski',
      'Jankowska',
      'Mazur',
      'Krawczyk',
    ],
    titles: ['Księgowa', 'Programista Java', 'Kierownik magazynu', 'Specjalista ds. kadr', 'Inżynier produkcji'],
    employers: [
      'Przykład Sp. z o.o.',
      'Firma Przykładowa S.A.',
      'Logistyka Przykład Sp. z o.o.',
      'Urząd Miasta Przykład',
      'Przykład Tech S.A.',
    ],
    degrees: ['Magister ekonomii', 'Inżynier informatyki', 'Licencjat z administracji', 'Magister inżynier mechaniki'],
    schools: ['Uniwersytet Przykładowy', 'Politechnika Przykładowa', 'Akademia Przykładowa'],
    skills: ['Excel', 'SAP', 'Java', 'Płace i kadry', 'Prawo jazdy kat. B', 'AutoCAD'],
    spoken: ['polski', 'angielski', 'niemiecki', 'francuski', 'hiszpański'],
    levels: ['ojczysty', 'biegły', 'dobry', 'podstawowy', 'B2'],
    months: ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paź', 'lis', 'gru'],
    present: 'obecnie',
    since: 'od',
    phones: ['5dd ddd ddd', '6dd ddd ddd', '7dd ddd ddd'],
    domains: ['poczta.example', 'przyklad.pl'],
    summary: 'Sumienna i zorganizowana osoba z doświadczeniem w pracy zespołowej.',
  },
};

/** How a resume writes its periods. */
type TDateStyle = 'years' | 'months' | 'numeric' | 'since';

/** Layouts the generator picks from. */
const LAYOUTS: TLayout[] = [
  'sidebar-table',
  'sidebar-flex',
  'cv-details',
  'header-table',
  'title-over-name',
  'contact-cell',
  'plain',
  'europass',
  'contact-column',
  'stacked-name',
];
const LANGUAGES: TLanguage[] = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pl'];

const ASCII: Record<string, string> = { ł: 'l', Ł: 'L', ø: 'o', æ: 'ae', ß: 'ss' };
function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/gu, '')
    .replace(/[łŁøæß]/gu, (letter) => ASCII[letter] ?? '')
    .toLowerCase()
    .replace(/[^a-z]/gu, '');
}

export type TSynthOptions = {
  /** Reported apart and never tuned on. */
  heldOut: boolean;
  /** Every how-many-th person also gets a scan (0: none); the kinds rotate jpg, png, pdf. */
  scanEvery: number;
  /** Other section headings and entry layouts than the tuned part's (the held-out part). */
  variant?: boolean;
};

/** `count` people from `seed`; the same arguments give the same people. */
export function synthPeople(seed: number, count: number, options: TSynthOptions): TPerson[] {
  const next = seededRandom(seed).next;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const people: TPerson[] = [];
  const slugs = new Set<string>();
  const scanKinds: TScan[] = ['jpg', 'png', 'pdf'];
  for (let index = 0; people.length < count && index < count * 20; index++) {
    const language = LANGUAGES[(seed + people.length) % LANGUAGES.length]!;
    const pool = POOLS[language];
    const firstName = pick(pool.first);
    const lastName = pick(pool.last);
    const slug = `${ascii(firstName)}-${ascii(lastName)}`;
    if (slugs.has(slug)) continue;
    const phone = validNumber(pool, pick);
    if (phone === null) continue;
    slugs.add(slug);
    const place = pick(pool.places);
    const style: TDateStyle = pick(['years', 'months', 'numeric', 'since'] as const);
    const jobs = periods(style, pool, next, 2 + Math.floor(next() * 2)).map((period, at) => ({
      period,
      role: at === 0 ? pick(pool.titles) : pick(pool.titles),
      employer: pool.employers[(at + Math.floor(next() * 5)) % pool.employers.length]!,
      place: pick(pool.places).city,
    }));
    const jobEmployers = new Set<string>();
    for (const job of jobs) {
      // Two positions at the same employer with the same title would be one entry twice: keep them apart.
      while (jobEmployers.has(job.employer))
        job.employer = pool.employers[(pool.employers.indexOf(job.employer) + 1) % pool.employers.length]!;
      jobEmployers.add(job.employer);
    }
    const lastStart = 1995 + Math.floor(next() * 6);
    const education = [
      { period: `${lastStart + 4} – ${lastStart + 8}`, degree: pick(pool.degrees), school: pick(pool.schools) },
    ];
    if (next() < 0.5)
      education.push({
        period: `${lastStart} – ${lastStart + 4}`,
        degree: pick(pool.degrees.filter((degree) => degree !== education[0]!.degree)),
        school: pick(pool.schools),
      });
    const skills = shuffle(pool.skills, next).slice(0, 3 + Math.floor(next() * 3));
    const others = shuffle(pool.spoken.slice(1), next).slice(0, 1 + Math.floor(next() * 2));
    const spoken = [
      `${pool.spoken[0]} (${pool.levels[0]})`,
      ...others.map((name) => `${name} (${pick(pool.levels.slice(1))})`),
    ];
    const local = pick([
      `${ascii(firstName)}.${ascii(lastName)}`,
      `${ascii(firstName)[0]}${ascii(lastName)}`,
      `${ascii(firstName)}${ascii(lastName)}`,
    ]);
    const layout = LAYOUTS[Math.floor(next() * LAYOUTS.length)]!;
    const scan =
      options.scanEvery > 0 && people.length % options.scanEvery === 0
        ? [scanKinds[(people.length / options.scanEvery) % scanKinds.length]!]
        : undefined;
    people.push({
      slug,
      firstName,
      lastName,
      title: pick(pool.titles),
      email: `${local}@${pick(pool.domains)}`,
      phone: phone.written,
      phoneE164: phone.e164,
      country: pool.country,
      countryName: pool.countryName,
      street: place.street,
      postcode: place.postcode,
      city: place.city,
      language,
      layout,
      tenantRegion: pool.country,
      ...(options.heldOut ? { heldOut: true } : {}),
      ...(scan === undefined ? {} : { scans: scan }),
      ...(options.variant === true
        ? { variant: { headings: 'alt', entries: pick(['period-first', 'one-line', 'dash'] as const) } }
        : {}),
      summary: pool.summary,
      jobs: jobs.reverse(),
      education: education,
      skills,
      spoken,
      references: [],
    });
  }
  return people;
}

function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let at = copy.length - 1; at > 0; at--) {
    const other = Math.floor(next() * (at + 1));
    [copy[at], copy[other]] = [copy[other]!, copy[at]!];
  }
  return copy;
}

function validNumber(pool: TPool, pick: <T>(items: readonly T[]) => T): { written: string; e164: string } | null {
  for (let attempt = 0; attempt < 50; attempt++) {
    const written = pick(pool.phones).replace(/d/gu, () => String(pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])));
    const parsed = parsePhoneNumberFromString(written, pool.country);
    if (parsed?.isValid()) return { written, e164: parsed.number };
  }
  return null;
}

/** Periods oldest first, in one style; the newest is ongoing. */
function periods(style: TDateStyle, pool: TPool, next: () => number, count: number): string[] {
  let year = 2008 + Math.floor(next() * 6);
  const written: string[] = [];
  for (let at = 0; at < count; at++) {
    const startMonth = 1 + Math.floor(next() * 12);
    const endYear = year + 1 + Math.floor(next() * 4);
    const endMonth = 1 + Math.floor(next() * 12);
    const last = at === count - 1;
    const month = (number: number) => pool.months[number - 1]!;
    const numeric = (number: number, y: number) => `${String(number).padStart(2, '0')}/${y}`;
    if (style === 'years') written.push(`${year} – ${last ? pool.present : endYear}`);
    else if (style === 'months')
      written.push(`${month(startMonth)} ${year} – ${last ? pool.present : `${month(endMonth)} ${endYear}`}`);
    else if (style === 'numeric')
      written.push(
        last
          ? `${numeric(startMonth, year)} - ${pool.present}`
          : `${numeric(startMonth, year)} - ${numeric(endMonth, endYear)}`,
      );
    else
      written.push(last ? `${pool.since} ${next() < 0.5 ? year : numeric(startMonth, year)}` : `${year} – ${endYear}`);
    year = endYear + (style === 'years' || style === 'since' ? 0 : 0);
  }
  return written;
}
