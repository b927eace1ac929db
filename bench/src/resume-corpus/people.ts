/**
 * The fake people of the resume corpus. Every detail is invented: example domains, fictional number ranges where a
 * country has them (US 555-01xx, UK 020 7946 0xxx / 07700 900xxx), made-up employers.
 */
import type { CountryCode } from 'libphonenumber-js';

export type TLanguage = 'en' | 'nl' | 'de' | 'fr' | 'es' | 'it' | 'pl';

export type TLayout =
  | 'sidebar-table'
  | 'sidebar-flex'
  | 'cv-details'
  | 'header-table'
  | 'title-over-name'
  | 'contact-cell'
  | 'plain'
  | 'europass'
  /** A header table: the contact details in a narrow column beside (left of) the name. */
  | 'contact-column'
  /** A long sidebar (contact, skills, languages, interests) in a layout table, the name over two lines beside it. */
  | 'stacked-name';

import type { TScan } from './scans.ts';

export type TReferee = { name: string; role: string; company: string; email: string; phone: string };

export type TPerson = {
  slug: string;
  firstName: string;
  lastName: string;
  title: string;
  email: string;
  /** The number as the resume writes it. */
  phone: string;
  /** What it is: E.164, read with `country` (checked by the generator with libphonenumber-js). */
  phoneE164: string;
  /** The country the resume names (its address). */
  country: CountryCode;
  countryName: string;
  street: string;
  postcode: string;
  city: string;
  language: TLanguage;
  layout: TLayout;
  /** The uploading tenant's country; differs from `country` where a resume comes from abroad. */
  tenantRegion: CountryCode;
  /** Also written as a legacy Word .doc. */
  doc?: boolean;
  birthDate?: string;
  nationality?: string;
  linkedin?: string;
  /** Name rows split in two ("Voornaam" / "Achternaam") in a personal-details table. */
  splitName?: boolean;
  /** Other web addresses the resume writes beside the contact details (GitHub, a website), as written. */
  links?: string[];
  /**
   * Kept out of tuning: written after the profile extraction was tuned, and reported apart (`pnpm bench resumes`), so
   * the report shows how the extraction does on resumes nobody tuned it for.
   */
  heldOut?: boolean;
  /** A number from a range set aside for drama (UK 07700 900xxx): possible, not valid in libphonenumber-js's plan. */
  fictionalNumber?: boolean;
  /** Other section headings (`alt`) and another way of writing positions and studies (generated held-out people). */
  variant?: { headings: 'alt'; entries: 'period-first' | 'one-line' | 'dash' };
  /** Also scanned or photographed (scans.ts): a grey JPEG, a black-and-white PNG, or a PDF holding only a JPEG. */
  scans?: TScan[];
  summary: string;
  jobs: { period: string; role: string; employer: string; place: string }[];
  education: { period: string; degree: string; school: string }[];
  skills: string[];
  spoken: string[];
  references: TReferee[];
};

export const PEOPLE: TPerson[] = [
  // ── two columns, layout table: contact sidebar on the left with the city in it ──────────────────────────────────
  {
    slug: 'priya-raman', scans: ['jpg'], firstName: 'Priya', lastName: 'Raman', title: 'Product Owner',
    email: 'p.raman.work@example.com', phone: '(415) 555-0132', phoneE164: '+14155550132',
    country: 'US', countryName: 'United States', street: '1200 Example Street, Apt 4', postcode: 'CA 94110', city: 'San Francisco',
    language: 'en', layout: 'sidebar-table', tenantRegion: 'NL', linkedin: 'linkedin.com/in/priya-raman-po',
    summary: 'Product owner with eight years of experience in B2B SaaS, turning customer research into roadmaps that ship.',
    jobs: [
      { period: '2020 – present', role: 'Product Owner', employer: 'Cloudway Example Inc.', place: 'San Francisco' },
      { period: '2016 – 2020', role: 'Business Analyst', employer: 'Harbor Data Example LLC', place: 'Oakland' },
    ],
    education: [{ period: '2012 – 2016', degree: 'BSc Information Systems', school: 'Example State University' }],
    skills: ['Scrum', 'Jira', 'User research', 'SQL', 'Roadmapping'],
    spoken: ['English (native)', 'Tamil (fluent)', 'Dutch (basic)'],
    references: [{ name: 'Daniel Brooks', role: 'VP Product', company: 'Cloudway Example Inc.', email: 'daniel.brooks@cloudway.example', phone: '(415) 555-0178' }],
  },
  {
    slug: 'pieter-van-dijk', firstName: 'Pieter', lastName: 'van Dijk', title: 'Projectleider infra',
    email: 'pvdijk@example.nl', phone: '020 123 4567', phoneE164: '+31201234567',
    country: 'NL', countryName: 'Nederland', street: 'Prinsengracht 221', postcode: '1015 DT', city: 'Amsterdam',
    language: 'nl', layout: 'sidebar-table', tenantRegion: 'NL', doc: true, birthDate: '03-11-1985',
    summary: 'Projectleider met ruim tien jaar ervaring in grond-, weg- en waterbouw. Houdt van overzicht en korte lijnen.',
    jobs: [
      { period: '2018 – heden', role: 'Projectleider', employer: 'Bouwbedrijf Voorbeeld B.V.', place: 'Amsterdam' },
      { period: '2012 – 2018', role: 'Werkvoorbereider', employer: 'Infra Voorbeeld Groep', place: 'Haarlem' },
    ],
    education: [{ period: '2008 – 2012', degree: 'HBO Civiele Techniek', school: 'Hogeschool Voorbeeld' }],
    skills: ['Planning', 'Contractbeheer (UAV-GC)', 'AutoCAD', 'VCA-VOL'],
    spoken: ['Nederlands (moedertaal)', 'Engels (goed)', 'Duits (redelijk)'],
    references: [{ name: 'Jan Smit', role: 'Directeur', company: 'Bouwbedrijf Voorbeeld B.V.', email: 'jan.smit@bouw-voorbeeld.example', phone: '06-98765432' }],
  },
  {
    slug: 'lukasz-wisniewski', firstName: 'Łukasz', lastName: 'Wiśniewski', title: 'Kierownik projektu IT',
    email: 'lukasz.w@poczta.example', phone: '512 345 678', phoneE164: '+48512345678',
    country: 'PL', countryName: 'Polska', street: 'ul. Długa 12/4', postcode: '31-147', city: 'Kraków',
    language: 'pl', layout: 'sidebar-table', tenantRegion: 'PL', birthDate: '17.04.1989',
    summary: 'Kierownik projektów IT z doświadczeniem w zespołach rozproszonych i wdrożeniach systemów ERP.',
    jobs: [
      { period: '2019 – obecnie', role: 'Kierownik projektu', employer: 'Softwarehouse Przykład Sp. z o.o.', place: 'Kraków' },
      { period: '2014 – 2019', role: 'Analityk systemowy', employer: 'Przykładowa Firma S.A.', place: 'Katowice' },
    ],
    education: [{ period: '2009 – 2014', degree: 'Magister informatyki', school: 'Politechnika Przykładowa' }],
    skills: ['Prince2', 'Scrum', 'SAP', 'MS Project'],
    spoken: ['polski (ojczysty)', 'angielski (C1)', 'niemiecki (B1)'],
    references: [],
  },
  {
    slug: 'helene-lefevre', firstName: 'Hélène', lastName: 'Lefèvre', title: 'Cheffe de projet digital',
    email: 'contact@hl-conseil.example', phone: '04 72 12 34 56', phoneE164: '+33472123456',
    country: 'FR', countryName: 'France', street: '18 rue de la République', postcode: '69002', city: 'Lyon',
    language: 'fr', layout: 'sidebar-table', tenantRegion: 'FR',
    summary: 'Cheffe de projet digital, dix ans en agence et chez l’annonceur, orientée résultats et qualité.',
    jobs: [
      { period: '2019 – aujourd’hui', role: 'Cheffe de projet digital', employer: 'Agence Exemple', place: 'Lyon' },
      { period: '2014 – 2019', role: 'Chargée de communication', employer: 'Groupe Exemple SA', place: 'Grenoble' },
    ],
    education: [{ period: '2009 – 2014', degree: 'Master Communication numérique', school: 'Université Exemple' }],
    skills: ['Gestion de projet', 'Figma', 'Google Analytics', 'WordPress'],
    spoken: ['Français (langue maternelle)', 'Anglais (courant)', 'Espagnol (intermédiaire)'],
    references: [{ name: 'Pierre Martin', role: 'Directeur', company: 'Agence Exemple', email: 'p.martin@agence.example', phone: '06 98 76 54 32' }],
  },

  // ── two columns in CSS: name in capitals over both, contact sidebar on the right ───────────────────────────────
  {
    slug: 'zoe-odegard', firstName: 'Zoë', lastName: 'Ødegård', title: 'UX Researcher',
    email: 'hello@studio-nord.example', phone: '+47 412 34 567', phoneE164: '+4741234567',
    country: 'NO', countryName: 'Norway', street: 'Storgata 5', postcode: '0155', city: 'Oslo',
    language: 'en', layout: 'sidebar-flex', tenantRegion: 'GB', doc: true,
    summary: 'UX researcher who makes complex services understandable, with a background in anthropology.',
    jobs: [
      { period: '2021 – now', role: 'Senior UX Researcher', employer: 'Nordlys Example AS', place: 'Oslo' },
      { period: '2017 – 2021', role: 'UX Researcher', employer: 'Fjord Digital Example', place: 'Bergen' },
    ],
    education: [{ period: '2012 – 2017', degree: 'MA Social Anthropology', school: 'University of Example' }],
    skills: ['Interviews', 'Usability testing', 'Service design', 'Dovetail'],
    spoken: ['Norwegian (native)', 'English (fluent)'],
    references: [],
  },
  {
    slug: 'bjoern-schaefer', scans: ['png'], firstName: 'Björn', lastName: 'Schäfer', title: 'Softwareentwickler',
    email: 'bjoern.schaefer@post.example', phone: '040 1234567', phoneE164: '+49401234567',
    country: 'DE', countryName: 'Deutschland', street: 'Mönckebergstraße 7', postcode: '20095', city: 'Hamburg',
    language: 'de', layout: 'sidebar-flex', tenantRegion: 'DE',
    summary: 'Backend-Entwickler mit Schwerpunkt auf verteilten Systemen, Java und Kotlin.',
    jobs: [
      { period: '2019 – heute', role: 'Senior Softwareentwickler', employer: 'Hanse Beispiel GmbH', place: 'Hamburg' },
      { period: '2015 – 2019', role: 'Softwareentwickler', employer: 'Beispiel Logistik AG', place: 'Bremen' },
    ],
    education: [{ period: '2010 – 2015', degree: 'M.Sc. Informatik', school: 'Technische Universität Beispielstadt' }],
    skills: ['Java', 'Kotlin', 'Kafka', 'PostgreSQL', 'Kubernetes'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (verhandlungssicher)'],
    references: [],
  },
  {
    slug: 'lucia-fernandez-ortega', firstName: 'Lucía', lastName: 'Fernández Ortega', title: 'Ingeniera de datos',
    email: 'lfortega@correo.example', phone: '612 345 678', phoneE164: '+34612345678',
    country: 'ES', countryName: 'España', street: 'Calle de Alcalá 45, 3º B', postcode: '28014', city: 'Madrid',
    language: 'es', layout: 'sidebar-flex', tenantRegion: 'ES',
    summary: 'Ingeniera de datos con experiencia en plataformas en la nube y canalizaciones de datos a gran escala.',
    jobs: [
      { period: '2020 – actualidad', role: 'Ingeniera de datos', employer: 'Ejemplo Analítica S.L.', place: 'Madrid' },
      { period: '2017 – 2020', role: 'Analista de datos', employer: 'Banco Ejemplo', place: 'Madrid' },
    ],
    education: [{ period: '2012 – 2017', degree: 'Grado en Ingeniería Informática', school: 'Universidad Ejemplo' }],
    skills: ['Python', 'Spark', 'Airflow', 'BigQuery'],
    spoken: ['Español (nativo)', 'Inglés (C1)'],
    references: [],
  },
  {
    slug: 'anne-marie-de-groot', firstName: 'Anne-Marie', lastName: 'de Groot', title: 'Marketingmanager',
    email: 'amdg@example.nl', phone: '06-12345678', phoneE164: '+31612345678',
    country: 'NL', countryName: 'Nederland', street: 'Oudegracht 88', postcode: '3511 AV', city: 'Utrecht',
    language: 'nl', layout: 'sidebar-flex', tenantRegion: 'NL',
    summary: 'Marketingmanager met een hart voor merken en data; bouwt teams die campagnes meetbaar maken.',
    jobs: [
      { period: '2018 – heden', role: 'Marketingmanager', employer: 'Voorbeeld Retail B.V.', place: 'Utrecht' },
      { period: '2013 – 2018', role: 'Online marketeer', employer: 'Webwinkel Voorbeeld', place: 'Amersfoort' },
    ],
    education: [{ period: '2009 – 2013', degree: 'Bachelor Commerciële Economie', school: 'Hogeschool Voorbeeld' }],
    skills: ['Campagnemanagement', 'Google Ads', 'HubSpot', 'Teamleiderschap'],
    spoken: ['Nederlands (moedertaal)', 'Engels (vloeiend)'],
    references: [{ name: 'Mark de Boer', role: 'Commercieel directeur', company: 'Voorbeeld Retail B.V.', email: 'mark.deboer@retail-voorbeeld.example', phone: '06-11223344' }],
  },

  // ── "Curriculum Vitae" over a personal-details table; references with contact data ─────────────────────────────
  {
    slug: 'sanne-van-der-meer', firstName: 'Sanne', lastName: 'van der Meer', title: 'Verpleegkundige',
    email: 'sannevdmeer@example.nl', phone: '010 234 5678', phoneE164: '+31102345678',
    country: 'NL', countryName: 'Nederland', street: 'Coolsingel 40', postcode: '3011 AD', city: 'Rotterdam',
    language: 'nl', layout: 'cv-details', tenantRegion: 'NL', doc: true, birthDate: '21-06-1992', nationality: 'Nederlandse',
    splitName: true,
    summary: 'Betrokken verpleegkundige met ervaring op de spoedeisende hulp en in de thuiszorg.',
    jobs: [
      { period: '2017 – heden', role: 'Verpleegkundige SEH', employer: 'Ziekenhuis Voorbeeld', place: 'Rotterdam' },
      { period: '2014 – 2017', role: 'Wijkverpleegkundige', employer: 'Thuiszorg Voorbeeld', place: 'Schiedam' },
    ],
    education: [{ period: '2010 – 2014', degree: 'HBO-V', school: 'Hogeschool Voorbeeld Rotterdam' }],
    skills: ['BIG-geregistreerd', 'Triage', 'BLS/ALS'],
    spoken: ['Nederlands (moedertaal)', 'Engels (goed)'],
    references: [
      { name: 'Jan Smit', role: 'Teamleider SEH', company: 'Ziekenhuis Voorbeeld', email: 'j.smit@ziekenhuis.example', phone: '010 987 6543' },
      { name: 'Ingrid Visser', role: 'Manager zorg', company: 'Thuiszorg Voorbeeld', email: 'ingrid.visser@thuiszorg.example', phone: '06 55443322' },
    ],
  },
  {
    slug: 'lena-von-hagen', firstName: 'Lena', lastName: 'von Hagen', title: 'Personalreferentin',
    email: 'lena.vh@post.example', phone: '+49 30 12345678', phoneE164: '+493012345678',
    country: 'DE', countryName: 'Deutschland', street: 'Kastanienallee 12', postcode: '10435', city: 'Berlin',
    language: 'de', layout: 'cv-details', tenantRegion: 'DE', birthDate: '08.09.1990', nationality: 'deutsch',
    summary: 'Personalreferentin mit Erfahrung in Recruiting, Onboarding und Arbeitsrecht.',
    jobs: [
      { period: '2018 – heute', role: 'Personalreferentin', employer: 'Beispiel Software GmbH', place: 'Berlin' },
      { period: '2015 – 2018', role: 'Recruiterin', employer: 'Personal Beispiel AG', place: 'Potsdam' },
    ],
    education: [{ period: '2010 – 2015', degree: 'B.A. Betriebswirtschaft', school: 'Hochschule Beispiel' }],
    skills: ['Personio', 'Arbeitsrecht', 'Active Sourcing'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (fließend)', 'Französisch (Grundkenntnisse)'],
    references: [{ name: 'Dr. Anna Schmidt', role: 'Leiterin Personal', company: 'Beispiel Software GmbH', email: 'anna.schmidt@software.example', phone: '+49 30 98765432' }],
  },
  {
    slug: 'liam-oconnor', firstName: 'Liam', lastName: "O'Connor", title: 'Site Reliability Engineer',
    email: 'liam.oc@example.net', phone: '087 123 4567', phoneE164: '+353871234567',
    country: 'IE', countryName: 'Ireland', street: '14 Example Lane', postcode: 'D02 X285', city: 'Dublin',
    language: 'en', layout: 'cv-details', tenantRegion: 'GB', doc: true, nationality: 'Irish',
    summary: 'Site reliability engineer keeping payment platforms fast and boring.',
    jobs: [
      { period: '2019 – present', role: 'Site Reliability Engineer', employer: 'Example Payments Ltd', place: 'Dublin' },
      { period: '2015 – 2019', role: 'Systems Administrator', employer: 'Example Hosting Ltd', place: 'Galway' },
    ],
    education: [{ period: '2011 – 2015', degree: 'BSc Computer Science', school: 'Example Institute of Technology' }],
    skills: ['Linux', 'Terraform', 'Prometheus', 'Go'],
    spoken: ['English (native)', 'Irish (fluent)'],
    references: [
      { name: 'Sarah Johnson', role: 'Head of Infrastructure', company: 'Example Payments Ltd', email: 'sarah.johnson@payments.example', phone: '+353 1 555 0100' },
    ],
  },
  {
    slug: 'katarzyna-nowak-dabrowska', firstName: 'Katarzyna', lastName: 'Nowak-Dąbrowska', title: 'Accountant',
    email: 'kasia.nd@example.com', phone: '601 234 567', phoneE164: '+48601234567',
    country: 'PL', countryName: 'Poland', street: 'ul. Floriańska 3', postcode: '31-019', city: 'Kraków',
    language: 'en', layout: 'cv-details', tenantRegion: 'NL', birthDate: '02.02.1993', nationality: 'Polish',
    summary: 'Chartered accountant (ACCA) with shared-service-centre experience in Kraków.',
    jobs: [
      { period: '2018 – present', role: 'Senior Accountant', employer: 'Example Business Services', place: 'Kraków' },
      { period: '2015 – 2018', role: 'Accountant', employer: 'Example Audit Sp. z o.o.', place: 'Kraków' },
    ],
    education: [{ period: '2011 – 2015', degree: 'MA Finance and Accounting', school: 'Example University of Economics' }],
    skills: ['IFRS', 'SAP FI', 'Excel', 'Month-end close'],
    spoken: ['Polish (native)', 'English (C1)', 'Dutch (A2)'],
    references: [{ name: 'Piotr Zieliński', role: 'Finance Manager', company: 'Example Business Services', email: 'piotr.zielinski@bss.example', phone: '+48 12 555 01 99' }],
  },

  // ── a table header with labelled contact fields ─────────────────────────────────────────────────────────────────
  {
    slug: 'jean-luc-darcy', scans: ['pdf'], firstName: 'Jean-Luc', lastName: "D'Arcy", title: 'Consultant SAP',
    email: 'jl.darcy@courriel.example', phone: '01 23 45 67 89', phoneE164: '+33123456789',
    country: 'FR', countryName: 'France', street: '25 boulevard Haussmann', postcode: '75009', city: 'Paris',
    language: 'fr', layout: 'header-table', tenantRegion: 'FR',
    summary: 'Consultant SAP FI/CO, douze ans de projets de déploiement en France et en Belgique.',
    jobs: [
      { period: '2016 – aujourd’hui', role: 'Consultant SAP senior', employer: 'Conseil Exemple SAS', place: 'Paris' },
      { period: '2011 – 2016', role: 'Consultant SAP', employer: 'Intégrateur Exemple', place: 'Bruxelles' },
    ],
    education: [{ period: '2006 – 2011', degree: 'Diplôme d’ingénieur', school: 'École Exemple' }],
    skills: ['SAP FI/CO', 'S/4HANA', 'Gestion de projet'],
    spoken: ['Français (langue maternelle)', 'Anglais (courant)', 'Néerlandais (notions)'],
    references: [],
  },
  {
    slug: 'juergen-weiss-hoffmann', firstName: 'Jürgen', lastName: 'Weiß-Hoffmann', title: 'Vertriebsleiter',
    email: 'jwh@post.example', phone: '089 12345678', phoneE164: '+498912345678',
    country: 'DE', countryName: 'Deutschland', street: 'Leopoldstraße 101', postcode: '80802', city: 'München',
    language: 'de', layout: 'header-table', tenantRegion: 'DE', doc: true,
    summary: 'Vertriebsleiter mit 15 Jahren Erfahrung im B2B-Vertrieb von Industrieanlagen.',
    jobs: [
      { period: '2015 – heute', role: 'Vertriebsleiter DACH', employer: 'Beispiel Maschinenbau AG', place: 'München' },
      { period: '2009 – 2015', role: 'Key Account Manager', employer: 'Beispiel Technik GmbH', place: 'Augsburg' },
    ],
    education: [{ period: '2004 – 2009', degree: 'Dipl.-Wirtsch.-Ing.', school: 'Hochschule Beispiel' }],
    skills: ['Key Account Management', 'Salesforce', 'Verhandlungsführung'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (verhandlungssicher)'],
    references: [{ name: 'Thomas Berger', role: 'Geschäftsführer', company: 'Beispiel Maschinenbau AG', email: 't.berger@maschinenbau.example', phone: '089 87654321' }],
  },
  {
    slug: 'olivia-chen-whitfield', firstName: 'Olivia', lastName: 'Chen-Whitfield', title: 'Data Analyst',
    email: 'ocw.analytics@example.org', phone: '020 7946 0321', phoneE164: '+442079460321',
    country: 'GB', countryName: 'United Kingdom', street: '22 Example Road', postcode: 'E1 6AN', city: 'London',
    language: 'en', layout: 'header-table', tenantRegion: 'GB',
    summary: 'Data analyst turning messy operational data into decisions for retail and logistics teams.',
    jobs: [
      { period: '2020 – present', role: 'Data Analyst', employer: 'Example Retail plc', place: 'London' },
      { period: '2017 – 2020', role: 'Junior Analyst', employer: 'Example Logistics Ltd', place: 'Reading' },
    ],
    education: [{ period: '2014 – 2017', degree: 'BSc Mathematics', school: 'University of Example' }],
    skills: ['SQL', 'Python', 'Tableau', 'dbt'],
    spoken: ['English (native)', 'Mandarin (conversational)'],
    references: [],
  },
  {
    slug: 'jose-alvarez-nunez', firstName: 'José', lastName: 'Álvarez-Núñez', title: 'Desarrollador backend',
    email: 'jose.alvarez@correo.example', phone: '+34 954 12 34 56', phoneE164: '+34954123456',
    country: 'ES', countryName: 'España', street: 'Avenida de la Constitución 20', postcode: '41004', city: 'Sevilla',
    language: 'es', layout: 'header-table', tenantRegion: 'ES',
    summary: 'Desarrollador backend especializado en APIs con Node.js y PostgreSQL.',
    jobs: [
      { period: '2019 – actualidad', role: 'Desarrollador backend', employer: 'Ejemplo Tech S.L.', place: 'Sevilla' },
      { period: '2016 – 2019', role: 'Desarrollador web', employer: 'Agencia Ejemplo', place: 'Málaga' },
    ],
    education: [{ period: '2012 – 2016', degree: 'Grado en Ingeniería del Software', school: 'Universidad Ejemplo' }],
    skills: ['Node.js', 'TypeScript', 'PostgreSQL', 'Docker'],
    spoken: ['Español (nativo)', 'Inglés (B2)'],
    references: [{ name: 'Carmen Ruiz', role: 'CTO', company: 'Ejemplo Tech S.L.', email: 'carmen.ruiz@tech.example', phone: '+34 600 11 22 33' }],
  },

  // ── the job title over the name, contact details on one line ───────────────────────────────────────────────────
  {
    slug: 'marcus-reed', firstName: 'Marcus', lastName: 'Reed', title: 'Product Owner',
    email: 'mreed.po@example.com', phone: '(212) 555-0147', phoneE164: '+12125550147',
    country: 'US', countryName: 'USA', street: '350 Example Avenue', postcode: 'NY 10001', city: 'New York',
    language: 'en', layout: 'title-over-name', tenantRegion: 'US',
    summary: 'Product owner for consumer mobile apps; ships small, measures everything.',
    jobs: [
      { period: '2019 – present', role: 'Product Owner', employer: 'Example Media Inc.', place: 'New York' },
      { period: '2015 – 2019', role: 'Scrum Master', employer: 'Example Apps LLC', place: 'Brooklyn' },
    ],
    education: [{ period: '2011 – 2015', degree: 'BA Economics', school: 'Example College' }],
    skills: ['Product discovery', 'A/B testing', 'Amplitude', 'Scrum'],
    spoken: ['English (native)', 'Spanish (intermediate)'],
    references: [],
  },
  {
    slug: 'thijs-ten-brink', firstName: 'Thijs', lastName: 'ten Brink', title: 'Senior Java Developer',
    email: 'thijs@tenbrink-it.example', phone: '040-2345678', phoneE164: '+31402345678',
    country: 'NL', countryName: 'Nederland', street: 'Stratumseind 10', postcode: '5611 ET', city: 'Eindhoven',
    language: 'nl', layout: 'title-over-name', tenantRegion: 'NL',
    summary: 'Java-ontwikkelaar die graag meedenkt over architectuur en testbaarheid.',
    jobs: [
      { period: '2017 – heden', role: 'Senior Java Developer', employer: 'Hightech Voorbeeld B.V.', place: 'Eindhoven' },
      { period: '2013 – 2017', role: 'Java Developer', employer: 'Software Voorbeeld', place: 'Den Bosch' },
    ],
    education: [{ period: '2009 – 2013', degree: 'HBO Informatica', school: 'Fontys Voorbeeld' }],
    skills: ['Java 21', 'Spring Boot', 'Kafka', 'Testautomatisering'],
    spoken: ['Nederlands (moedertaal)', 'Engels (vloeiend)'],
    references: [],
  },
  {
    slug: 'noel-garnier-lambert', firstName: 'Noël', lastName: 'Garnier-Lambert', title: 'Responsable marketing',
    email: 'noel.gl@courriel.example', phone: '06 12 34 56 78', phoneE164: '+33612345678',
    country: 'FR', countryName: 'France', street: '7 cours de l’Intendance', postcode: '33000', city: 'Bordeaux',
    language: 'fr', layout: 'title-over-name', tenantRegion: 'FR', doc: true,
    summary: 'Responsable marketing dans le secteur du vin et de la gastronomie, à l’aise à l’international.',
    jobs: [
      { period: '2018 – aujourd’hui', role: 'Responsable marketing', employer: 'Maison Exemple', place: 'Bordeaux' },
      { period: '2013 – 2018', role: 'Chef de produit', employer: 'Exemple Distribution', place: 'Toulouse' },
    ],
    education: [{ period: '2008 – 2013', degree: 'Master Marketing', school: 'École de commerce Exemple' }],
    skills: ['Stratégie de marque', 'Export', 'Événementiel'],
    spoken: ['Français (langue maternelle)', 'Anglais (courant)', 'Allemand (notions)'],
    references: [],
  },
  {
    slug: 'agnieszka-zajac', scans: ['jpg'], firstName: 'Agnieszka', lastName: 'Zając', title: 'Analityk biznesowy',
    email: 'a.zajac@poczta.example', phone: '+48 58 123 45 67', phoneE164: '+48581234567',
    country: 'PL', countryName: 'Polska', street: 'ul. Mariacka 8', postcode: '80-833', city: 'Gdańsk',
    language: 'pl', layout: 'title-over-name', tenantRegion: 'PL',
    summary: 'Analityk biznesowy łączący potrzeby biznesu z możliwościami zespołów IT.',
    jobs: [
      { period: '2018 – obecnie', role: 'Analityk biznesowy', employer: 'Bank Przykładowy S.A.', place: 'Gdańsk' },
      { period: '2015 – 2018', role: 'Młodszy analityk', employer: 'Przykład Consulting', place: 'Gdynia' },
    ],
    education: [{ period: '2010 – 2015', degree: 'Magister ekonomii', school: 'Uniwersytet Przykładowy' }],
    skills: ['BPMN', 'UML', 'SQL', 'Confluence'],
    spoken: ['polski (ojczysty)', 'angielski (C1)'],
    references: [],
  },

  // ── a header table whose cell holds email and phone on consecutive lines; references with contact data ────────
  {
    slug: 'emma-bakker', firstName: 'Emma', lastName: 'Bakker', title: 'Office manager',
    email: 'e.bakker@mail.example', phone: '06 87654321', phoneE164: '+31687654321',
    country: 'NL', countryName: 'Nederland', street: 'Lange Voorhout 3', postcode: '2514 EA', city: 'Den Haag',
    language: 'nl', layout: 'contact-cell', tenantRegion: 'NL',
    summary: 'Office manager die rust brengt in drukke kantoren en graag regelt wat niemand anders regelt.',
    jobs: [
      { period: '2016 – heden', role: 'Office manager', employer: 'Advocatenkantoor Voorbeeld', place: 'Den Haag' },
      { period: '2012 – 2016', role: 'Managementassistent', employer: 'Gemeente Voorbeeld', place: 'Delft' },
    ],
    education: [{ period: '2008 – 2012', degree: 'MBO Secretarieel', school: 'ROC Voorbeeld' }],
    skills: ['Office 365', 'AFAS', 'Facilitair beheer'],
    spoken: ['Nederlands (moedertaal)', 'Engels (goed)', 'Frans (basis)'],
    references: [
      { name: 'Jan Smit', role: 'Partner', company: 'Advocatenkantoor Voorbeeld', email: 'jan.smit@advocaat.example', phone: '070 123 4567' },
      { name: 'Fatima Yilmaz', role: 'Afdelingshoofd', company: 'Gemeente Voorbeeld', email: 'f.yilmaz@gemeente.example', phone: '06 99887766' },
    ],
  },
  {
    slug: 'sinead-ni-bhriain', firstName: 'Sinéad', lastName: 'Ní Bhriain', title: 'Clinical Research Associate',
    email: 'sineadnb@mail.example', phone: '+353 21 123 4567', phoneE164: '+353211234567',
    country: 'IE', countryName: 'Ireland', street: '3 Example Quay', postcode: 'T12 AB34', city: 'Cork',
    language: 'en', layout: 'contact-cell', tenantRegion: 'GB',
    summary: 'Clinical research associate monitoring phase II–III oncology trials across Ireland and the UK.',
    jobs: [
      { period: '2019 – present', role: 'Clinical Research Associate', employer: 'Example CRO Ltd', place: 'Cork' },
      { period: '2016 – 2019', role: 'Research Nurse', employer: 'Example University Hospital', place: 'Limerick' },
    ],
    education: [{ period: '2012 – 2016', degree: 'BSc Nursing', school: 'Example College Cork' }],
    skills: ['ICH-GCP', 'Site monitoring', 'Medidata Rave'],
    spoken: ['English (native)', 'Irish (fluent)'],
    references: [
      { name: 'Dr. Michael Walsh', role: 'Medical Director', company: 'Example CRO Ltd', email: 'm.walsh@cro.example', phone: '+353 21 555 0111' },
    ],
  },
  {
    slug: 'sophie-mueller', firstName: 'Sophie', lastName: 'Müller', title: 'Grafikdesignerin',
    email: 'kontakt@sm-design.example', phone: '0221 1234567', phoneE164: '+492211234567',
    country: 'DE', countryName: 'Deutschland', street: 'Ehrenstraße 22', postcode: '50672', city: 'Köln',
    language: 'de', layout: 'contact-cell', tenantRegion: 'DE',
    summary: 'Grafikdesignerin für Corporate Design und Editorial mit eigenem Studio.',
    jobs: [
      { period: '2019 – heute', role: 'Selbstständige Grafikdesignerin', employer: 'SM Design', place: 'Köln' },
      { period: '2014 – 2019', role: 'Grafikdesignerin', employer: 'Werbeagentur Beispiel', place: 'Düsseldorf' },
    ],
    education: [{ period: '2010 – 2014', degree: 'B.A. Kommunikationsdesign', school: 'Fachhochschule Beispiel' }],
    skills: ['InDesign', 'Illustrator', 'Typografie', 'Figma'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (fließend)'],
    references: [{ name: 'Markus Weber', role: 'Creative Director', company: 'Werbeagentur Beispiel', email: 'markus.weber@werbung.example', phone: '0211 7654321' }],
  },
  {
    slug: 'maria-jose-garcia-lopez', firstName: 'María José', lastName: 'García López', title: 'Técnica de recursos humanos',
    email: 'mjgarcia@mail.example', phone: '93 123 45 67', phoneE164: '+34931234567',
    country: 'ES', countryName: 'España', street: 'Carrer de Mallorca 200, 2º 1ª', postcode: '08036', city: 'Barcelona',
    language: 'es', layout: 'contact-cell', tenantRegion: 'ES',
    summary: 'Técnica de recursos humanos con experiencia en selección y desarrollo del talento.',
    jobs: [
      { period: '2017 – actualidad', role: 'Técnica de selección', employer: 'Ejemplo Hoteles S.A.', place: 'Barcelona' },
      { period: '2014 – 2017', role: 'Auxiliar de RR. HH.', employer: 'Consultora Ejemplo', place: 'Girona' },
    ],
    education: [{ period: '2010 – 2014', degree: 'Grado en Relaciones Laborales', school: 'Universidad Ejemplo' }],
    skills: ['Selección', 'Entrevistas por competencias', 'SuccessFactors'],
    spoken: ['Español (nativo)', 'Catalán (nativo)', 'Inglés (B2)'],
    references: [{ name: 'Jordi Puig', role: 'Director de RR. HH.', company: 'Ejemplo Hoteles S.A.', email: 'jordi.puig@hoteles.example', phone: '93 555 66 77' }],
  },

  // ── one column, plain ──────────────────────────────────────────────────────────────────────────────────────────
  {
    slug: 'tom-becker', firstName: 'Tom', lastName: 'Becker', title: 'Warehouse Supervisor',
    email: 'tbecker1987@example.com', phone: '(312) 555-0199', phoneE164: '+13125550199',
    country: 'US', countryName: 'USA', street: '77 Example Blvd', postcode: 'IL 60601', city: 'Chicago',
    language: 'en', layout: 'plain', tenantRegion: 'US',
    summary: 'Warehouse supervisor with a strong safety record and a knack for scheduling.',
    jobs: [
      { period: '2016 – present', role: 'Warehouse Supervisor', employer: 'Example Distribution Co.', place: 'Chicago' },
      { period: '2010 – 2016', role: 'Forklift Operator', employer: 'Example Freight Inc.', place: 'Gary' },
    ],
    education: [{ period: '2006 – 2010', degree: 'High School Diploma', school: 'Example High School' }],
    skills: ['OSHA 30', 'WMS', 'Inventory control'],
    spoken: ['English (native)'],
    references: [],
  },
  {
    slug: 'lotte-jansen', firstName: 'Lotte', lastName: 'Jansen', title: 'Docent biologie',
    email: 'lotte_j@example.nl', phone: '050 123 4567', phoneE164: '+31501234567',
    country: 'NL', countryName: 'Nederland', street: 'Herestraat 50', postcode: '9711 LM', city: 'Groningen',
    language: 'nl', layout: 'plain', tenantRegion: 'NL',
    summary: 'Eerstegraads docent biologie die leerlingen nieuwsgierig maakt.',
    jobs: [
      { period: '2015 – heden', role: 'Docent biologie', employer: 'Voorbeeld College', place: 'Groningen' },
      { period: '2012 – 2015', role: 'Docent in opleiding', employer: 'Lyceum Voorbeeld', place: 'Assen' },
    ],
    education: [{ period: '2008 – 2013', degree: 'Master Biologie en Lerarenopleiding', school: 'Rijksuniversiteit Voorbeeld' }],
    skills: ['Didactiek', 'Magister', 'Practicumbegeleiding'],
    spoken: ['Nederlands (moedertaal)', 'Engels (goed)'],
    references: [],
  },
  {
    slug: 'inigo-etxeberria', scans: ['png'], firstName: 'Íñigo', lastName: 'Etxeberria', title: 'Ingeniero mecánico',
    email: 'ietxe@correo.example', phone: '944 12 34 56', phoneE164: '+34944123456',
    country: 'ES', countryName: 'España', street: 'Gran Vía 30', postcode: '48009', city: 'Bilbao',
    language: 'es', layout: 'plain', tenantRegion: 'ES', doc: true,
    summary: 'Ingeniero mecánico con experiencia en diseño de utillajes y mejora continua.',
    jobs: [
      { period: '2016 – actualidad', role: 'Ingeniero de procesos', employer: 'Ejemplo Industrial S.A.', place: 'Bilbao' },
      { period: '2013 – 2016', role: 'Ingeniero de diseño', employer: 'Talleres Ejemplo', place: 'Vitoria' },
    ],
    education: [{ period: '2008 – 2013', degree: 'Ingeniería Mecánica', school: 'Universidad Ejemplo' }],
    skills: ['SolidWorks', 'Lean Manufacturing', 'AMFE'],
    spoken: ['Español (nativo)', 'Euskera (nativo)', 'Inglés (C1)'],
    references: [],
  },
  {
    slug: 'amelie-rousseau', firstName: 'Amélie', lastName: 'Rousseau', title: 'Comptable',
    email: 'amelie.rousseau@courriel.example', phone: '+33 2 40 12 34 56', phoneE164: '+33240123456',
    country: 'FR', countryName: 'France', street: '4 place Royale', postcode: '44000', city: 'Nantes',
    language: 'fr', layout: 'plain', tenantRegion: 'FR',
    summary: 'Comptable générale rigoureuse, habituée aux clôtures mensuelles et aux audits.',
    jobs: [
      { period: '2017 – aujourd’hui', role: 'Comptable générale', employer: 'Exemple Industries', place: 'Nantes' },
      { period: '2013 – 2017', role: 'Assistante comptable', employer: 'Cabinet Exemple', place: 'Angers' },
    ],
    education: [{ period: '2010 – 2013', degree: 'DCG', school: 'Lycée Exemple' }],
    skills: ['Sage', 'Clôtures', 'TVA', 'Excel'],
    spoken: ['Français (langue maternelle)', 'Anglais (intermédiaire)'],
    references: [],
  },

  // ── Europass-like: a label column beside the details ───────────────────────────────────────────────────────────
  {
    slug: 'rahul-mehta', firstName: 'Rahul', lastName: 'Mehta', title: 'Mechanical Engineer',
    email: 'rm.engineering@example.org', phone: '0161 496 0456', phoneE164: '+441614960456',
    country: 'GB', countryName: 'United Kingdom', street: '9 Example Street', postcode: 'M1 1AE', city: 'Manchester',
    language: 'en', layout: 'europass', tenantRegion: 'GB', nationality: 'British', birthDate: '11/07/1988',
    summary: 'Chartered mechanical engineer in HVAC design for commercial buildings.',
    jobs: [
      { period: '2016 – present', role: 'Senior Mechanical Engineer', employer: 'Example Building Services Ltd', place: 'Manchester' },
      { period: '2011 – 2016', role: 'Graduate Engineer', employer: 'Example Consulting Engineers', place: 'Leeds' },
    ],
    education: [{ period: '2007 – 2011', degree: 'MEng Mechanical Engineering', school: 'University of Example' }],
    skills: ['Revit MEP', 'IES VE', 'CIBSE guides'],
    spoken: ['English (native)', 'Hindi (fluent)'],
    references: [{ name: 'Helen Clarke', role: 'Director', company: 'Example Building Services Ltd', email: 'helen.clarke@buildingservices.example', phone: '0161 496 0123' }],
  },
  {
    slug: 'anja-krueger', firstName: 'Anja', lastName: 'Krüger', title: 'Bilanzbuchhalterin',
    email: 'anja.krueger@post.example', phone: '+49 69 1234 5678', phoneE164: '+496912345678',
    country: 'DE', countryName: 'Deutschland', street: 'Zeil 50', postcode: '60313', city: 'Frankfurt am Main',
    language: 'de', layout: 'europass', tenantRegion: 'DE', nationality: 'deutsch', birthDate: '30.01.1986',
    summary: 'Bilanzbuchhalterin (IHK) mit Erfahrung in Konzernabschlüssen nach HGB und IFRS.',
    jobs: [
      { period: '2014 – heute', role: 'Bilanzbuchhalterin', employer: 'Beispiel Finanz AG', place: 'Frankfurt am Main' },
      { period: '2009 – 2014', role: 'Finanzbuchhalterin', employer: 'Beispiel Handel GmbH', place: 'Offenbach' },
    ],
    education: [{ period: '2006 – 2009', degree: 'Ausbildung Steuerfachangestellte', school: 'Steuerkanzlei Beispiel' }],
    skills: ['DATEV', 'SAP FI', 'HGB', 'IFRS'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (gut)'],
    references: [{ name: 'Klaus Richter', role: 'CFO', company: 'Beispiel Finanz AG', email: 'klaus.richter@finanz.example', phone: '+49 69 8765 4321' }],
  },
  {
    slug: 'rachid-el-amrani', scans: ['pdf'], firstName: 'Rachid', lastName: 'El Amrani', title: 'Logistiek coördinator',
    email: 'r.elamrani@example.nl', phone: '070 345 6789', phoneE164: '+31703456789',
    country: 'NL', countryName: 'Nederland', street: 'Laan van Meerdervoort 100', postcode: '2517 AR', city: 'Den Haag',
    language: 'nl', layout: 'europass', tenantRegion: 'NL', nationality: 'Nederlandse', birthDate: '14-05-1991',
    summary: 'Logistiek coördinator met oog voor planning, veiligheid en mensen.',
    jobs: [
      { period: '2018 – heden', role: 'Logistiek coördinator', employer: 'Distributiecentrum Voorbeeld', place: 'Zoetermeer' },
      { period: '2013 – 2018', role: 'Teamleider magazijn', employer: 'Transport Voorbeeld B.V.', place: 'Delft' },
    ],
    education: [{ period: '2009 – 2013', degree: 'HBO Logistiek', school: 'Hogeschool Voorbeeld' }],
    skills: ['SAP EWM', 'Lean', 'Heftruckcertificaat'],
    spoken: ['Nederlands (moedertaal)', 'Arabisch (goed)', 'Engels (goed)'],
    references: [{ name: 'Kees Vermeulen', role: 'Operationeel manager', company: 'Distributiecentrum Voorbeeld', email: 'kees.vermeulen@dc.example', phone: '079 555 1234' }],
  },
  {
    slug: 'michal-wojcik', firstName: 'Michał', lastName: 'Wójcik', title: 'Inżynier DevOps',
    email: 'mwojcik.dev@poczta.example', phone: '71 123 45 67', phoneE164: '+48711234567',
    country: 'PL', countryName: 'Polska', street: 'ul. Świdnicka 15', postcode: '50-066', city: 'Wrocław',
    language: 'pl', layout: 'europass', tenantRegion: 'PL', nationality: 'polskie', birthDate: '05.12.1990',
    summary: 'Inżynier DevOps automatyzujący infrastrukturę i procesy wdrożeniowe.',
    jobs: [
      { period: '2019 – obecnie', role: 'Inżynier DevOps', employer: 'Przykład Cloud Sp. z o.o.', place: 'Wrocław' },
      { period: '2015 – 2019', role: 'Administrator systemów', employer: 'Przykładowy Operator S.A.', place: 'Opole' },
    ],
    education: [{ period: '2010 – 2015', degree: 'Inżynier informatyki', school: 'Politechnika Przykładowa' }],
    skills: ['AWS', 'Terraform', 'Ansible', 'GitLab CI'],
    spoken: ['polski (ojczysty)', 'angielski (B2)'],
    references: [{ name: 'Tomasz Lewandowski', role: 'Kierownik zespołu', company: 'Przykład Cloud Sp. z o.o.', email: 't.lewandowski@cloud.example', phone: '+48 71 555 01 23' }],
  },
  // ── third stage: profiles in every resume language and date style (Italian added) ──────────────────────────────
  {
    slug: 'giulia-romano', scans: ['jpg'], firstName: 'Giulia', lastName: 'Romano', title: 'Responsabile marketing',
    email: 'giulia.romano@posta.example', phone: '02 1234 5678', phoneE164: '+390212345678',
    country: 'IT', countryName: 'Italia', street: 'Via Torino 12', postcode: '20123', city: 'Milano',
    language: 'it', layout: 'plain', tenantRegion: 'IT',
    summary: 'Responsabile marketing con dieci anni di esperienza nel retail e nel digitale.',
    jobs: [
      { period: 'gen 2019 – oggi', role: 'Responsabile marketing', employer: 'Esempio Retail S.p.A.', place: 'Milano' },
      { period: 'mar 2014 – dic 2018', role: 'Specialista marketing digitale', employer: 'Agenzia Esempio S.r.l.', place: 'Bergamo' },
    ],
    education: [{ period: '2009 – 2014', degree: 'Laurea magistrale in Economia', school: 'Università degli Studi di Esempio' }],
    skills: ['Google Ads', 'SEO', 'Salesforce Marketing Cloud', 'Budgeting'],
    spoken: ['Italiano (madrelingua)', 'Inglese (C1)', 'Francese (B1)'],
    references: [],
  },
  {
    slug: 'marco-bianchi', firstName: 'Marco', lastName: 'Bianchi', title: 'Sviluppatore backend',
    email: 'marco.bianchi@example.it', phone: '312 345 6789', phoneE164: '+393123456789',
    country: 'IT', countryName: 'Italia', street: 'Corso Vittorio Emanuele 5', postcode: '10121', city: 'Torino',
    language: 'it', layout: 'sidebar-table', tenantRegion: 'IT', links: ['github.com/marcobianchi-dev'],
    summary: 'Sviluppatore backend appassionato di sistemi distribuiti e qualità del codice.',
    jobs: [
      { period: 'dal 2021', role: 'Sviluppatore backend senior', employer: 'Esempio Cloud S.r.l.', place: 'Torino' },
      { period: '03/2017 – 05/2021', role: 'Sviluppatore Java', employer: 'Software Esempio S.p.A.', place: 'Roma' },
    ],
    education: [{ period: '2012 – 2017', degree: 'Laurea in Ingegneria Informatica', school: 'Politecnico di Esempio' }],
    skills: ['Java', 'Kotlin', 'PostgreSQL', 'Kubernetes', 'Kafka'],
    spoken: ['Italiano (madrelingua)', 'Inglese (fluente)'],
    references: [{ name: 'Paolo Ricci', role: 'CTO', company: 'Esempio Cloud S.r.l.', email: 'paolo.ricci@cloud.example', phone: '011 555 0199' }],
  },
  {
    slug: 'katrin-vogel', firstName: 'Katrin', lastName: 'Vogel', title: 'Personalreferentin',
    email: 'k.vogel@mail.example', phone: '0221 9876543', phoneE164: '+492219876543',
    country: 'DE', countryName: 'Deutschland', street: 'Aachener Straße 40', postcode: '50674', city: 'Köln',
    language: 'de', layout: 'contact-cell', tenantRegion: 'DE',
    summary: 'Personalreferentin mit Schwerpunkt Recruiting und Arbeitsrecht.',
    jobs: [
      { period: 'seit 04/2021', role: 'Personalreferentin', employer: 'Beispiel Versicherung AG', place: 'Köln' },
      { period: '09/2016 – 03/2021', role: 'Recruiterin', employer: 'Beispiel Personal GmbH', place: 'Bonn' },
    ],
    education: [{ period: '2012 – 2016', degree: 'B.A. Personalmanagement', school: 'Hochschule Beispiel' }],
    skills: ['Active Sourcing', 'SAP SuccessFactors', 'Arbeitsrecht', 'Personio'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (fließend)', 'Spanisch (Grundkenntnisse)'],
    references: [],
  },
  {
    slug: 'camille-bernard', firstName: 'Camille', lastName: 'Bernard', title: 'Contrôleuse de gestion',
    email: 'camille.bernard@exemple.fr', phone: '06 12 34 56 78', phoneE164: '+33612345678',
    country: 'FR', countryName: 'France', street: '5 place Bellecour', postcode: '69002', city: 'Lyon',
    language: 'fr', layout: 'header-table', tenantRegion: 'FR',
    summary: 'Contrôleuse de gestion rigoureuse, spécialisée dans le pilotage de la performance industrielle.',
    jobs: [
      { period: 'depuis 2020', role: 'Contrôleuse de gestion', employer: 'Industrie Exemple SA', place: 'Lyon' },
      { period: 'sept. 2015 – août 2020', role: 'Analyste financière', employer: 'Cabinet Exemple', place: 'Villeurbanne' },
    ],
    education: [{ period: '2010 – 2015', degree: 'Master Contrôle de gestion', school: 'IAE Exemple' }],
    skills: ['SAP CO', 'Power BI', 'Excel avancé', 'Budget'],
    spoken: ['Français (langue maternelle)', 'Anglais (courant)', 'Italien (notions)'],
    references: [],
  },
  {
    slug: 'daniel-foster', scans: ['pdf'], firstName: 'Daniel', lastName: 'Foster', title: 'Senior Frontend Engineer',
    email: 'dan.foster@example.com', phone: '(312) 555-0147', phoneE164: '+13125550147',
    country: 'US', countryName: 'USA', street: '400 Example Avenue', postcode: 'IL 60611', city: 'Chicago',
    language: 'en', layout: 'title-over-name', tenantRegion: 'US',
    links: ['github.com/dfoster-ui', 'https://danfoster.example.com'],
    summary: 'Frontend engineer who cares about accessible, fast interfaces and the teams that build them.',
    jobs: [
      { period: 'Apr 2021 – Present', role: 'Senior Frontend Engineer', employer: 'Example Commerce Inc.', place: 'Chicago' },
      { period: 'Jan 2018 – Mar 2021', role: 'Frontend Developer', employer: 'Sample Media LLC', place: 'Evanston' },
    ],
    education: [{ period: '2013 – 2017', degree: 'BS Computer Science', school: 'Example Tech University' }],
    skills: ['TypeScript', 'React', 'Accessibility', 'GraphQL', 'Playwright'],
    spoken: ['English (native)', 'German (basic)'],
    references: [],
  },
  {
    slug: 'femke-visser', firstName: 'Femke', lastName: 'Visser', title: 'Verpleegkundige',
    email: 'femke.visser@example.nl', phone: '06-23456789', phoneE164: '+31623456789',
    country: 'NL', countryName: 'Nederland', street: 'Vismarkt 3', postcode: '9712 CA', city: 'Groningen',
    language: 'nl', layout: 'europass', tenantRegion: 'NL', birthDate: '22-08-1993',
    summary: 'Verpleegkundige met passie voor ouderenzorg.',
    jobs: [
      { period: 'mrt 2019 – heden', role: 'Verpleegkundige', employer: 'Zorggroep Voorbeeld', place: 'Groningen' },
      { period: 'sep 2015 – feb 2019', role: 'Verzorgende IG', employer: 'Thuiszorg Voorbeeld', place: 'Assen' },
    ],
    education: [{ period: '2011 – 2015', degree: 'HBO-V Verpleegkunde', school: 'Hanzehogeschool Voorbeeld' }],
    skills: ['Wondzorg', 'Medicatiebeheer', 'BIG-registratie'],
    spoken: ['Nederlands (moedertaal)', 'Engels (goed)', 'Duits (basis)'],
    references: [],
  },
  {
    slug: 'alejandro-ruiz', firstName: 'Alejandro', lastName: 'Ruiz', title: 'Jefe de obra',
    email: 'a.ruiz@correo.example', phone: '954 12 34 56', phoneE164: '+34954123456',
    country: 'ES', countryName: 'España', street: 'Calle Sierpes 20', postcode: '41004', city: 'Sevilla',
    language: 'es', layout: 'cv-details', tenantRegion: 'ES', birthDate: '11/03/1987', nationality: 'Española',
    summary: 'Jefe de obra con experiencia en edificación residencial y obra civil.',
    jobs: [
      { period: 'desde 2019', role: 'Jefe de obra', employer: 'Construcciones Ejemplo S.L.', place: 'Sevilla' },
      { period: '01/2014 – 12/2018', role: 'Técnico de obra', employer: 'Obras Ejemplo S.A.', place: 'Córdoba' },
    ],
    education: [{ period: '2008 – 2013', degree: 'Grado en Arquitectura Técnica', school: 'Universidad de Ejemplo' }],
    skills: ['Presto', 'AutoCAD', 'Prevención de riesgos', 'Gestión de subcontratas'],
    spoken: ['Español (nativo)', 'Inglés (B2)'],
    references: [],
  },
  {
    slug: 'pawel-kaminski', firstName: 'Paweł', lastName: 'Kamiński', title: 'Specjalista ds. logistyki',
    email: 'pawel.kaminski@poczta.example', phone: '601 987 654', phoneE164: '+48601987654',
    country: 'PL', countryName: 'Polska', street: 'ul. Piotrkowska 100', postcode: '90-004', city: 'Łódź',
    language: 'pl', layout: 'sidebar-flex', tenantRegion: 'PL',
    summary: 'Specjalista ds. logistyki z doświadczeniem w magazynach wysokiego składowania.',
    jobs: [
      { period: 'od 2020', role: 'Specjalista ds. logistyki', employer: 'Logistyka Przykład Sp. z o.o.', place: 'Łódź' },
      { period: '03.2016 – 12.2019', role: 'Magazynier', employer: 'Przykładowy Handel S.A.', place: 'Stryków' },
    ],
    education: [{ period: '2012 – 2016', degree: 'Licencjat z logistyki', school: 'Uniwersytet Przykładowy' }],
    skills: ['WMS', 'SAP', 'Excel', 'Uprawnienia UDT'],
    spoken: ['polski (ojczysty)', 'angielski (B1)'],
    references: [],
  },

  // ── held out: written after tuning, never tuned on, reported apart ─────────────────────────────────────────────
  {
    slug: 'chiara-esposito', firstName: 'Chiara', lastName: 'Esposito', title: 'Architetta',
    email: 'chiara.esposito@studio.example', phone: '081 123 4567', phoneE164: '+390811234567',
    country: 'IT', countryName: 'Italia', street: 'Via Toledo 150', postcode: '80134', city: 'Napoli',
    language: 'it', layout: 'europass', tenantRegion: 'IT', heldOut: true, nationality: 'Italiana',
    summary: 'Architetta con esperienza in progettazione residenziale e restauro.',
    jobs: [
      { period: '2018 – in corso', role: 'Architetta', employer: 'Studio Esempio Associati', place: 'Napoli' },
      { period: '2014 – 2018', role: 'Progettista junior', employer: 'Esempio Costruzioni S.r.l.', place: 'Salerno' },
    ],
    education: [{ period: '2008 – 2014', degree: 'Laurea magistrale in Architettura', school: 'Università di Esempio' }],
    skills: ['AutoCAD', 'Revit', 'Rhino', 'Restauro'],
    spoken: ['Italiano (madrelingua)', 'Inglese (B2)', 'Spagnolo (A2)'],
    references: [],
  },
  {
    slug: 'hannah-price', scans: ['jpg'], firstName: 'Hannah', lastName: 'Price', title: 'Data Analyst',
    email: 'hannah.price@example.co.uk', phone: '0113 496 0321', phoneE164: '+441134960321',
    country: 'GB', countryName: 'United Kingdom', street: '14 Example Street', postcode: 'LS1 4AP', city: 'Leeds',
    language: 'en', layout: 'sidebar-flex', tenantRegion: 'GB', heldOut: true, links: ['www.hannahprice.example'],
    summary: 'Data analyst turning messy operational data into decisions.',
    jobs: [
      { period: 'Sep 2020 – now', role: 'Data Analyst', employer: 'Example Retail plc', place: 'Leeds' },
      { period: '2017 – 2020', role: 'Junior Analyst', employer: 'Sample Insights Ltd', place: 'York' },
    ],
    education: [{ period: '2014 – 2017', degree: 'BSc Mathematics', school: 'University of Example' }],
    skills: ['SQL', 'Python', 'Tableau', 'dbt'],
    spoken: ['English (native)', 'French (intermediate)'],
    references: [],
  },
  {
    slug: 'stefan-koch', scans: ['pdf'], firstName: 'Stefan', lastName: 'Koch', title: 'Elektroniker',
    email: 'stefan.koch@post.example', phone: '0711 1234567', phoneE164: '+497111234567',
    country: 'DE', countryName: 'Deutschland', street: 'Königstraße 10', postcode: '70173', city: 'Stuttgart',
    language: 'de', layout: 'plain', tenantRegion: 'DE', heldOut: true,
    summary: 'Elektroniker für Betriebstechnik mit Erfahrung in der Instandhaltung.',
    jobs: [
      { period: 'Jan. 2019 – heute', role: 'Elektroniker für Betriebstechnik', employer: 'Beispiel Automotive GmbH', place: 'Stuttgart' },
      { period: 'Aug. 2015 – Dez. 2018', role: 'Servicetechniker', employer: 'Beispiel Anlagenbau KG', place: 'Esslingen' },
    ],
    education: [{ period: '2012 – 2015', degree: 'Ausbildung Elektroniker', school: 'Berufsschule Beispiel' }],
    skills: ['SPS-Programmierung', 'Siemens S7', 'Instandhaltung'],
    spoken: ['Deutsch (Muttersprache)', 'Englisch (gut)'],
    references: [],
  },
  {
    slug: 'louise-moreau', scans: ['png'], firstName: 'Louise', lastName: 'Moreau', title: 'Juriste',
    email: 'louise.moreau@exemple.fr', phone: '01 42 12 34 56', phoneE164: '+33142123456',
    country: 'FR', countryName: 'France', street: '10 rue de Rivoli', postcode: '75004', city: 'Paris',
    language: 'fr', layout: 'cv-details', tenantRegion: 'FR', heldOut: true, nationality: 'Française',
    summary: 'Juriste en droit social, conseil et contentieux.',
    jobs: [
      { period: "2018 – aujourd'hui", role: 'Juriste droit social', employer: 'Groupe Exemple SA', place: 'Paris' },
      { period: '2014 – 2018', role: 'Assistante juridique', employer: 'Cabinet Exemple Avocats', place: 'Paris' },
    ],
    education: [{ period: '2009 – 2014', degree: 'Master 2 Droit social', school: 'Université Exemple' }],
    skills: ['Droit du travail', 'Contentieux', 'Négociation'],
    spoken: ['Français (langue maternelle)', 'Anglais (B2)'],
    references: [],
  },
];

/**
 * Resumes like those on which the extraction was reported to fail (names read from hidden corpora): each failure as a
 * generated file with its truth. Tuned on: they are what the rules must handle.
 */
export const REPORTED_PEOPLE: TPerson[] = [
  // A Welsh patronymic particle ("ap"), a UK mobile from the drama range, a Cardiff address with no country line.
  {
    slug: 'rhys-ap-gruffydd', scans: ['jpg'], firstName: 'Rhys', lastName: 'ap Gruffydd', title: 'Civil Engineer',
    email: 'rhys.apgruffydd@example.co.uk', phone: '07700 900456', phoneE164: '+447700900456', fictionalNumber: true,
    country: 'GB', countryName: 'United Kingdom', street: '7 Example Terrace', postcode: 'CF10 1AA', city: 'Cardiff',
    language: 'en', layout: 'plain', tenantRegion: 'NL',
    summary: 'Chartered civil engineer working on flood defences and coastal schemes across South Wales.',
    jobs: [
      { period: 'Apr 2021 – Present', role: 'Senior Civil Engineer', employer: 'Example Water Ltd', place: 'Cardiff' },
      { period: '01/2019 - 03/2021', role: 'Civil Engineer', employer: 'Sample Consulting plc', place: 'Swansea' },
    ],
    education: [{ period: '2013 – 2017', degree: 'MEng Civil Engineering', school: 'Example University' }],
    skills: ['AutoCAD Civil 3D', 'Hydraulic modelling', 'NEC4', 'Site supervision'],
    spoken: ['Welsh (native)', 'English (fluent)'],
    references: [],
  },
  // Europass: the name beside the "Personal information" label, a surname of particles.
  {
    slug: 'ines-de-la-fuente', scans: ['png'], firstName: 'Inés', lastName: 'de la Fuente', title: 'Técnica de laboratorio',
    email: 'ines.delafuente@correo.example', phone: '612 345 679', phoneE164: '+34612345679',
    country: 'ES', countryName: 'España', street: 'Calle Mayor 5', postcode: '28013', city: 'Madrid',
    language: 'es', layout: 'europass', tenantRegion: 'ES', nationality: 'Española',
    summary: 'Técnica de laboratorio con experiencia en control de calidad.',
    jobs: [
      { period: 'desde 2020', role: 'Técnica de laboratorio', employer: 'Laboratorios Ejemplo S.A.', place: 'Madrid' },
      { period: 'mar 2016 – dic 2019', role: 'Auxiliar de laboratorio', employer: 'Análisis Ejemplo S.L.', place: 'Getafe' },
    ],
    education: [{ period: '2012 – 2016', degree: 'Grado en Química', school: 'Universidad de Ejemplo' }],
    skills: ['HPLC', 'ISO 17025', 'LIMS', 'Excel'],
    spoken: ['Español (nativo)', 'Inglés (B2)', 'Francés (básico)'],
    references: [],
  },
  // A long DOCX sidebar first, then the name over two lines (an Irish surname with its particle).
  {
    slug: 'siobhan-o-dubhghaill', firstName: 'Siobhán', lastName: 'Ó Dubhghaill', title: 'Clinical Nurse Manager',
    email: 'siobhan.odh@example.ie', phone: '087 123 4567', phoneE164: '+353871234567',
    country: 'IE', countryName: 'Ireland', street: '12 Example Quay', postcode: 'T12 X2Y3', city: 'Cork',
    language: 'en', layout: 'stacked-name', tenantRegion: 'GB',
    summary: 'Nurse manager leading a busy surgical ward, focused on patient safety and staff development.',
    jobs: [
      { period: 'Jan 2019 – Present', role: 'Clinical Nurse Manager', employer: 'Example University Hospital', place: 'Cork' },
      { period: 'Sep 2014 – Dec 2018', role: 'Staff Nurse', employer: 'Sample Regional Hospital', place: 'Limerick' },
    ],
    education: [
      { period: '2016 – 2018', degree: 'MSc Nursing Management', school: 'University of Example' },
      { period: '2010 – 2014', degree: 'BSc General Nursing', school: 'Example Institute of Technology' },
    ],
    skills: ['Patient safety', 'Rostering', 'Infection control', 'Clinical audit', 'Staff mentoring', 'Wound care', 'Medication management', 'Epic EHR', 'Budget control', 'Quality improvement', 'Team leadership'],
    spoken: ['English (native)', 'Irish (fluent)', 'French (basic)'],
    references: [],
  },
  // A name beside a contact column in a header table, written without its diacritics.
  {
    slug: 'lukasz-wroblewski', scans: ['pdf'], firstName: 'Lukasz', lastName: 'Wróblewski', title: 'Programista Java',
    email: 'l.wroblewski@poczta.example', phone: '+48 601 234 567', phoneE164: '+48601234567',
    country: 'PL', countryName: 'Polska', street: 'ul. Mickiewicza 8', postcode: '30-059', city: 'Kraków',
    language: 'pl', layout: 'contact-column', tenantRegion: 'DE',
    summary: 'Programista Java z doświadczeniem w systemach bankowych.',
    jobs: [
      { period: 'od 03/2020', role: 'Starszy programista Java', employer: 'Bank Przykładowy S.A.', place: 'Kraków' },
      { period: '10/2016 – 02/2020', role: 'Programista Java', employer: 'Softwarehouse Przykład Sp. z o.o.', place: 'Kraków' },
    ],
    education: [{ period: '2011 – 2016', degree: 'Magister informatyki', school: 'Politechnika Przykładowa' }],
    skills: ['Java', 'Spring Boot', 'Kafka', 'PostgreSQL', 'Kubernetes'],
    spoken: ['polski (ojczysty)', 'angielski (C1)', 'niemiecki (podstawowy)'],
    references: [],
  },
];
