/**
 * The corpus's HTML templates: one person record in, one resume page out. The same HTML is printed to PDF by Chromium
 * (which honours the CSS) and converted to DOCX by pandoc (which keeps the structure — headings, tables, line breaks —
 * and drops the CSS), as real resumes reach us from browsers and converters.
 */
import type { TLanguage, TLayout, TPerson, TReferee } from './people.ts';

type TLabels = {
  cv: string;
  profile: string;
  experience: string;
  education: string;
  skills: string;
  languages: string;
  references: string;
  onRequest: string;
  contact: string;
  personal: string;
  personalInfo: string;
  name: string;
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  phone: string;
  mobile: string;
  email: string;
  birthDate: string;
  nationality: string;
  desiredJob: string;
  interests: string;
};

const LABELS: Record<TLanguage, TLabels> = {
  en: {
    cv: 'Curriculum Vitae',
    profile: 'Profile',
    experience: 'Work experience',
    education: 'Education',
    skills: 'Skills',
    languages: 'Languages',
    references: 'References',
    onRequest: 'References available on request.',
    contact: 'Contact',
    personal: 'Personal details',
    personalInfo: 'Personal information',
    name: 'Name',
    firstName: 'First name',
    lastName: 'Surname',
    address: 'Address',
    city: 'City',
    phone: 'Phone',
    mobile: 'Mobile',
    email: 'E-mail',
    birthDate: 'Date of birth',
    nationality: 'Nationality',
    desiredJob: 'Desired employment',
    interests: 'Interests',
  },
  nl: {
    cv: 'Curriculum Vitae',
    profile: 'Profiel',
    experience: 'Werkervaring',
    education: 'Opleiding',
    skills: 'Vaardigheden',
    languages: 'Talen',
    references: 'Referenties',
    onRequest: 'Referenties op aanvraag beschikbaar.',
    contact: 'Contact',
    personal: 'Persoonlijke gegevens',
    personalInfo: 'Persoonlijke informatie',
    name: 'Naam',
    firstName: 'Voornaam',
    lastName: 'Achternaam',
    address: 'Adres',
    city: 'Woonplaats',
    phone: 'Telefoon',
    mobile: 'Mobiel',
    email: 'E-mail',
    birthDate: 'Geboortedatum',
    nationality: 'Nationaliteit',
    desiredJob: 'Gewenste functie',
    interests: 'Interesses',
  },
  de: {
    cv: 'Lebenslauf',
    profile: 'Profil',
    experience: 'Berufserfahrung',
    education: 'Ausbildung',
    skills: 'Kenntnisse',
    languages: 'Sprachen',
    references: 'Referenzen',
    onRequest: 'Referenzen auf Anfrage.',
    contact: 'Kontakt',
    personal: 'Persönliche Daten',
    personalInfo: 'Angaben zur Person',
    name: 'Name',
    firstName: 'Vorname',
    lastName: 'Nachname',
    address: 'Anschrift',
    city: 'Wohnort',
    phone: 'Telefon',
    mobile: 'Mobil',
    email: 'E-Mail',
    birthDate: 'Geburtsdatum',
    nationality: 'Staatsangehörigkeit',
    desiredJob: 'Gewünschte Beschäftigung',
    interests: 'Interessen',
  },
  fr: {
    cv: 'Curriculum Vitae',
    profile: 'Profil',
    experience: 'Expérience professionnelle',
    education: 'Formation',
    skills: 'Compétences',
    languages: 'Langues',
    references: 'Références',
    onRequest: 'Références sur demande.',
    contact: 'Contact',
    personal: 'Informations personnelles',
    personalInfo: 'Informations personnelles',
    name: 'Nom',
    firstName: 'Prénom',
    lastName: 'Nom',
    address: 'Adresse',
    city: 'Ville',
    phone: 'Téléphone',
    mobile: 'Portable',
    email: 'E-mail',
    birthDate: 'Date de naissance',
    nationality: 'Nationalité',
    desiredJob: 'Emploi recherché',
    interests: 'Loisirs',
  },
  es: {
    cv: 'Currículum Vitae',
    profile: 'Perfil',
    experience: 'Experiencia profesional',
    education: 'Formación',
    skills: 'Habilidades',
    languages: 'Idiomas',
    references: 'Referencias',
    onRequest: 'Referencias disponibles a petición.',
    contact: 'Contacto',
    personal: 'Datos personales',
    personalInfo: 'Información personal',
    name: 'Nombre',
    firstName: 'Nombre',
    lastName: 'Apellidos',
    address: 'Dirección',
    city: 'Ciudad',
    phone: 'Teléfono',
    mobile: 'Móvil',
    email: 'Correo electrónico',
    birthDate: 'Fecha de nacimiento',
    nationality: 'Nacionalidad',
    desiredJob: 'Puesto deseado',
    interests: 'Aficiones',
  },
  it: {
    cv: 'Curriculum Vitae',
    profile: 'Profilo',
    experience: 'Esperienza professionale',
    education: 'Istruzione e formazione',
    skills: 'Competenze',
    languages: 'Lingue',
    references: 'Referenze',
    onRequest: 'Referenze disponibili su richiesta.',
    contact: 'Contatti',
    personal: 'Dati personali',
    personalInfo: 'Informazioni personali',
    name: 'Nome e cognome',
    firstName: 'Nome',
    lastName: 'Cognome',
    address: 'Indirizzo',
    city: 'Città',
    phone: 'Telefono',
    mobile: 'Cellulare',
    email: 'E-mail',
    birthDate: 'Data di nascita',
    nationality: 'Nazionalità',
    desiredJob: 'Posizione desiderata',
    interests: 'Interessi',
  },
  pl: {
    cv: 'Curriculum Vitae',
    profile: 'Profil',
    experience: 'Doświadczenie zawodowe',
    education: 'Wykształcenie',
    skills: 'Umiejętności',
    languages: 'Języki',
    references: 'Referencje',
    onRequest: 'Referencje dostępne na życzenie.',
    contact: 'Kontakt',
    personal: 'Dane osobowe',
    personalInfo: 'Informacje osobiste',
    name: 'Imię i nazwisko',
    firstName: 'Imię',
    lastName: 'Nazwisko',
    address: 'Adres',
    city: 'Miasto',
    phone: 'Telefon',
    mobile: 'Tel. kom.',
    email: 'E-mail',
    birthDate: 'Data urodzenia',
    nationality: 'Obywatelstwo',
    desiredJob: 'Stanowisko',
    interests: 'Zainteresowania',
  },
};

/** Other headings for the same sections, as other resumes name them (the generated held-out people use these). */
const ALT_LABELS: Record<TLanguage, Pick<TLabels, 'profile' | 'experience' | 'education' | 'skills' | 'languages'>> = {
  en: {
    profile: 'Summary',
    experience: 'Employment history',
    education: 'Academic background',
    skills: 'Core competencies',
    languages: 'Language skills',
  },
  nl: {
    profile: 'Samenvatting',
    experience: 'Loopbaan',
    education: 'Onderwijs',
    skills: 'Competenties',
    languages: 'Talenkennis',
  },
  de: {
    profile: 'Kurzprofil',
    experience: 'Beruflicher Werdegang',
    education: 'Bildungsweg',
    skills: 'Fähigkeiten',
    languages: 'Sprachkenntnisse',
  },
  fr: {
    profile: 'À propos',
    experience: 'Parcours professionnel',
    education: 'Diplômes',
    skills: 'Compétences techniques',
    languages: 'Compétences linguistiques',
  },
  es: {
    profile: 'Resumen',
    experience: 'Trayectoria profesional',
    education: 'Formación académica',
    skills: 'Competencias',
    languages: 'Idiomas',
  },
  it: {
    profile: 'Chi sono',
    experience: 'Esperienze lavorative',
    education: 'Titoli di studio',
    skills: 'Competenze tecniche',
    languages: 'Conoscenze linguistiche',
  },
  pl: {
    profile: 'O mnie',
    experience: 'Przebieg kariery',
    education: 'Edukacja',
    skills: 'Kompetencje',
    languages: 'Języki obce',
  },
};

/** What people list under their interests, in the resume's language. */
const INTERESTS: Record<TLanguage, string[]> = {
  en: ['Hiking', 'Photography', 'Chess', 'Volunteering at a food bank'],
  nl: ['Wielrennen', 'Koken', 'Lezen', 'Vrijwilliger bij de voetbalclub'],
  de: ['Wandern', 'Fotografie', 'Schach', 'Ehrenamt im Sportverein'],
  fr: ['Randonnée', 'Photographie', 'Échecs', 'Bénévolat associatif'],
  es: ['Senderismo', 'Fotografía', 'Ajedrez', 'Voluntariado'],
  it: ['Escursionismo', 'Fotografia', 'Scacchi', 'Volontariato'],
  pl: ['Turystyka górska', 'Fotografia', 'Szachy', 'Wolontariat'],
};

/** One work-experience line per job, in the resume's language, so the body reads like the real thing. */
const DUTIES: Record<TLanguage, string[]> = {
  en: [
    'Led a team of five across two sites.',
    'Cut lead times by 20 % in the first year.',
    'Introduced weekly reviews with stakeholders.',
    'Owned the budget and vendor contracts.',
  ],
  nl: [
    'Leiding aan een team van vijf collega’s.',
    'Doorlooptijden met 20 % verkort.',
    'Wekelijks overleg met opdrachtgevers ingevoerd.',
    'Verantwoordelijk voor budget en leveranciers.',
  ],
  de: [
    'Führung eines Teams von fünf Personen.',
    'Durchlaufzeiten um 20 % verkürzt.',
    'Wöchentliche Abstimmungen mit Kunden eingeführt.',
    'Verantwortung für Budget und Lieferanten.',
  ],
  fr: [
    'Encadrement d’une équipe de cinq personnes.',
    'Réduction des délais de 20 % la première année.',
    'Mise en place de points hebdomadaires avec les clients.',
    'Gestion du budget et des fournisseurs.',
  ],
  es: [
    'Coordinación de un equipo de cinco personas.',
    'Reducción de los plazos en un 20 %.',
    'Reuniones semanales con los clientes.',
    'Responsable del presupuesto y de los proveedores.',
  ],
  it: [
    'Coordinamento di un team di cinque persone.',
    'Riduzione dei tempi di consegna del 20 %.',
    'Riunioni settimanali con i clienti.',
    'Responsabile del budget e dei fornitori.',
  ],
  pl: [
    'Kierowanie zespołem pięciu osób.',
    'Skrócenie czasu realizacji o 20 %.',
    'Wprowadzenie cotygodniowych spotkań z klientami.',
    'Odpowiedzialność za budżet i dostawców.',
  ],
};

const BASE_CSS = `
@page { size: A4; margin: 14mm 15mm; }
body { font-family: 'Liberation Sans', 'DejaVu Sans', sans-serif; font-size: 10pt; color: #222; margin: 0; }
h1 { font-size: 22pt; margin: 0 0 2pt; }
h2 { font-size: 12pt; margin: 12pt 0 4pt; border-bottom: 1px solid #999; text-transform: uppercase; letter-spacing: 0.5pt; }
h3 { font-size: 10.5pt; margin: 10pt 0 3pt; }
p { margin: 0 0 4pt; }
ul { margin: 0 0 4pt; padding-left: 14pt; }
table { border-collapse: collapse; }
td { vertical-align: top; }
.job { margin-bottom: 6pt; }
.muted { color: #666; }
`;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fullName(person: TPerson): string {
  return `${person.firstName} ${person.lastName}`;
}

/** Address lines as the country writes them. */
function addressLines(person: TPerson): string[] {
  if (person.country === 'US') return [person.street, `${person.city}, ${person.postcode}`];
  if (person.country === 'GB' || person.country === 'IE') return [person.street, person.city, person.postcode];
  return [person.street, `${person.postcode} ${person.city}`];
}

/** The other web addresses (GitHub, a website) as written, one per line. */
function links(person: TPerson): string {
  return (person.links ?? []).map((link) => `<p>${escape(link)}</p>`).join('\n');
}

/** Layouts that show the candidate's title (the others have no such line: a profile's headline is then null). */
export const SHOWS_TITLE: Record<TLayout, boolean> = {
  'sidebar-table': true,
  'sidebar-flex': true,
  'cv-details': false,
  'header-table': true,
  'title-over-name': true,
  'contact-cell': true,
  plain: false,
  europass: true,
  'contact-column': true,
  'stacked-name': true,
};

/** The web addresses a layout shows: LinkedIn only in the sidebar table; every layout shows `links`. */
export function shownLinks(person: TPerson): string[] {
  return [
    ...(person.layout === 'sidebar-table' && person.linkedin !== undefined ? [person.linkedin] : []),
    ...(person.links ?? []),
  ];
}

function page(person: TPerson, css: string, body: string): string {
  // No <title>: pandoc would turn it into a title paragraph at the top of the DOCX.
  return `<!doctype html>\n<html lang="${person.language}">\n<head>\n<meta charset="utf-8">\n<style>${BASE_CSS}${css}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function profile(person: TPerson, labels: TLabels): string {
  return `<h2>${labels.profile}</h2>\n<p>${escape(person.summary)}</p>`;
}

/** A position's or study's heading and period, as the person's variant writes them. */
function entryHead(person: TPerson, first: string, second: string, period: string): string {
  const style = person.variant?.entries ?? 'dash';
  if (style === 'period-first')
    return `<p class="muted">${escape(period)}</p><p><strong>${escape(first)}</strong> — ${escape(second)}</p>`;
  if (style === 'one-line') return `<p><strong>${escape(first)}</strong> | ${escape(second)} | ${escape(period)}</p>`;
  return `<p><strong>${escape(first)}</strong> — ${escape(second)}<br><span class="muted">${escape(period)}</span></p>`;
}

function experience(person: TPerson, labels: TLabels): string {
  const duties = DUTIES[person.language];
  const jobs = person.jobs.map((job, index) =>
    person.variant === undefined
      ? `<div class="job"><p><strong>${escape(job.role)}</strong> — ${escape(job.employer)}, ${escape(job.place)}<br><span class="muted">${escape(job.period)}</span></p>` +
        `<ul><li>${escape(duties[index % duties.length]!)}</li><li>${escape(duties[(index + 2) % duties.length]!)}</li></ul></div>`
      : `<div class="job">${entryHead(person, job.role, `${job.employer}, ${job.place}`, job.period)}` +
        `<ul><li>${escape(duties[index % duties.length]!)}</li><li>${escape(duties[(index + 2) % duties.length]!)}</li></ul></div>`,
  );
  return `<h2>${labels.experience}</h2>\n${jobs.join('\n')}`;
}

function education(person: TPerson, labels: TLabels): string {
  const items = person.education.map((entry) =>
    person.variant === undefined
      ? `<p><strong>${escape(entry.degree)}</strong>, ${escape(entry.school)}<br><span class="muted">${escape(entry.period)}</span></p>`
      : entryHead(person, entry.degree, entry.school, entry.period),
  );
  return `<h2>${labels.education}</h2>\n${items.join('\n')}`;
}

function list(heading: string, items: string[], tag = 'h2'): string {
  return `<${tag}>${heading}</${tag}>\n<ul>${items.map((item) => `<li>${escape(item)}</li>`).join('')}</ul>`;
}

function referee(ref: TReferee): string {
  return `<p><strong>${escape(ref.name)}</strong>, ${escape(ref.role)}, ${escape(ref.company)}<br>${escape(ref.email)} · ${escape(ref.phone)}</p>`;
}

/** Other people's names and contact details, or the customary line saying there are none here. */
function references(person: TPerson, labels: TLabels): string {
  const body =
    person.references.length === 0 ? `<p>${labels.onRequest}</p>` : person.references.map(referee).join('\n');
  return `<h2>${labels.references}</h2>\n${body}`;
}

function body(person: TPerson, labels: TLabels, withSkills: boolean): string {
  const parts = [profile(person, labels), experience(person, labels), education(person, labels)];
  if (withSkills) parts.push(list(labels.skills, person.skills), list(labels.languages, person.spoken));
  parts.push(references(person, labels));
  return parts.join('\n');
}

/** Two columns in a layout table (as Word resumes do): contact sidebar on the left, opening with the city. */
function sidebarTable(person: TPerson, labels: TLabels): string {
  const side = [
    `<h3>${labels.contact}</h3>`,
    `<p>${escape(person.city)}</p>`,
    `<p>${escape(person.phone)}</p>`,
    `<p>${escape(person.email)}</p>`,
    person.linkedin === undefined ? '' : `<p>${escape(person.linkedin)}</p>`,
    links(person),
    person.birthDate === undefined ? '' : `<p>${labels.birthDate}<br>${escape(person.birthDate)}</p>`,
    list(labels.skills, person.skills, 'h3'),
    list(labels.languages, person.spoken, 'h3'),
  ].join('\n');
  const main = `<h1>${escape(fullName(person))}</h1>\n<p class="role">${escape(person.title)}</p>\n${body(person, labels, false)}`;
  return page(
    person,
    `.layout { width: 100%; } .side { width: 32%; background: #eef2f5; padding: 10pt; } .main { padding: 0 0 0 14pt; }
     .side p { margin-bottom: 6pt; } .role { font-size: 13pt; color: #357; }`,
    `<table class="layout"><tr>\n<td class="side">\n${side}\n</td>\n<td class="main">\n${main}\n</td>\n</tr></table>`,
  );
}

/** Two columns in CSS (as browser-made resumes do): the name in capitals over both, contact on the right. */
function sidebarFlex(person: TPerson, labels: TLabels): string {
  const aside = [
    `<h3>${labels.contact}</h3>`,
    `<p>${escape(person.phone)}</p>`,
    `<p>${escape(person.email)}</p>`,
    `<p>${addressLines(person).map(escape).join('<br>')}<br>${escape(person.countryName)}</p>`,
    links(person),
    list(labels.skills, person.skills, 'h3'),
    list(labels.languages, person.spoken, 'h3'),
  ].join('\n');
  return page(
    person,
    `header { border-bottom: 3px solid #246; padding-bottom: 6pt; margin-bottom: 8pt; }
     header h1 { text-transform: uppercase; letter-spacing: 2pt; } header p { font-size: 12pt; color: #246; }
     .cols { display: flex; gap: 16pt; } main { flex: 1; } aside { width: 30%; border-left: 1px solid #ccc; padding-left: 10pt; }`,
    `<header>\n<h1>${escape(fullName(person))}</h1>\n<p>${escape(person.title)}</p>\n</header>\n` +
      `<div class="cols">\n<main>\n${body(person, labels, false)}\n</main>\n<aside>\n${aside}\n</aside>\n</div>`,
  );
}

function row(label: string, value: string | undefined): string {
  return value === undefined ? '' : `<tr><td class="label">${label}</td><td>${escape(value)}</td></tr>\n`;
}

/** A "Curriculum Vitae" title over a personal-details table of label/value rows. */
function cvDetails(person: TPerson, labels: TLabels): string {
  const nameRows =
    person.splitName === true
      ? row(labels.firstName, person.firstName) + row(labels.lastName, person.lastName)
      : row(labels.name, fullName(person));
  const table =
    nameRows +
    row(labels.address, `${person.street}, ${person.postcode}`) +
    row(labels.city, person.city) +
    row(labels.phone, person.phone) +
    row(labels.email, person.email) +
    row(labels.birthDate, person.birthDate) +
    row(labels.nationality, person.nationality);
  return page(
    person,
    `h1.cv { text-align: center; font-size: 20pt; letter-spacing: 3pt; margin-bottom: 10pt; }
     table.details td { padding: 2pt 12pt 2pt 0; } td.label { width: 38mm; font-weight: bold; }`,
    `<h1 class="cv">${labels.cv}</h1>\n<h2>${labels.personal}</h2>\n<table class="details">\n${table}</table>\n${links(person)}\n${body(person, labels, true)}`,
  );
}

/** A header table: the name, then labelled contact fields side by side (label over value). */
function headerTable(person: TPerson, labels: TLabels): string {
  const cell = (label: string, value: string) => `<td><strong>${label}</strong><br>${escape(value)}</td>`;
  return page(
    person,
    `table.head { width: 100%; margin-bottom: 8pt; } table.head td { border: 1px solid #bbb; padding: 4pt 6pt; width: 33%; }
     td.name { background: #234; color: #fff; } td.name h1 { color: #fff; } td.name p { font-size: 12pt; }`,
    `<table class="head">\n<tr><td class="name" colspan="3"><h1>${escape(fullName(person))}</h1><p>${escape(person.title)}</p></td></tr>\n` +
      `<tr>${cell(labels.email, person.email)}${cell(labels.phone, person.phone)}${cell(labels.city, person.city)}</tr>\n</table>\n${links(person)}\n` +
      body(person, labels, true),
  );
}

/** The job title over the name, contact details on one line with separators. */
function titleOverName(person: TPerson, labels: TLabels): string {
  const contact = [`${person.city}, ${person.countryName}`, person.phone, person.email].map(escape).join(' · ');
  return page(
    person,
    `.kicker { font-size: 13pt; color: #a33; margin-bottom: 2pt; } .contact { color: #555; margin-bottom: 8pt; }`,
    `<p class="kicker">${escape(person.title)}</p>\n<h1>${escape(fullName(person))}</h1>\n<p class="contact">${contact}</p>\n${links(person)}\n` +
      body(person, labels, true),
  );
}

/** A header table whose right cell holds the address, the email and the phone on consecutive lines. */
function contactCell(person: TPerson, labels: TLabels): string {
  const contact = [...addressLines(person), person.email, `Tel.: ${person.phone}`, ...(person.links ?? [])]
    .map(escape)
    .join('<br>');
  return page(
    person,
    `table.head { width: 100%; border-bottom: 2px solid #333; margin-bottom: 8pt; } td.contact { text-align: right; width: 40%; }`,
    `<table class="head"><tr>\n<td><h1>${escape(fullName(person))}</h1><p>${escape(person.title)}</p></td>\n<td class="contact">${contact}</td>\n</tr></table>\n` +
      body(person, labels, true),
  );
}

/** One column, nothing fancy. */
function plain(person: TPerson, labels: TLabels): string {
  const contact = [...addressLines(person), person.phone, person.email, ...(person.links ?? [])]
    .map(escape)
    .join('<br>');
  return page(
    person,
    `h2 { border: none; text-transform: none; }`,
    `<h1>${escape(fullName(person))}</h1>\n<p>${contact}</p>\n${body(person, labels, true)}`,
  );
}

/** Europass-like: a narrow label column beside every detail, the name beside "Personal information". */
function europass(person: TPerson, labels: TLabels): string {
  const line = (label: string, value: string) => `<tr><td class="label">${label}</td><td>${value}</td></tr>\n`;
  const duties = DUTIES[person.language];
  const jobs = person.jobs
    .map((job, index) =>
      line(
        escape(job.period),
        `<strong>${escape(job.role)}</strong><br>${escape(job.employer)}, ${escape(job.place)}<br>${escape(duties[index % duties.length]!)}`,
      ),
    )
    .join('');
  const schools = person.education
    .map((entry) => line(escape(entry.period), `<strong>${escape(entry.degree)}</strong><br>${escape(entry.school)}`))
    .join('');
  const refs =
    person.references.length === 0
      ? line('', labels.onRequest)
      : person.references
          .map((ref) =>
            line(
              '',
              `${escape(ref.name)}, ${escape(ref.role)}, ${escape(ref.company)}<br>${escape(ref.email)} · ${escape(ref.phone)}`,
            ),
          )
          .join('');
  const section = (title: string) => `<tr><td class="label section">${title}</td><td></td></tr>\n`;
  const rows =
    line(labels.personalInfo, `<span class="name">${escape(fullName(person))}</span>`) +
    line(labels.address, [...addressLines(person), person.countryName].map(escape).join(', ')) +
    line(labels.phone, escape(person.phone)) +
    line(labels.email, escape(person.email)) +
    (person.links ?? []).map((link) => line('Web', escape(link))).join('') +
    (person.nationality === undefined ? '' : line(labels.nationality, escape(person.nationality))) +
    (person.birthDate === undefined ? '' : line(labels.birthDate, escape(person.birthDate))) +
    line(labels.desiredJob, escape(person.title)) +
    section(labels.experience) +
    jobs +
    section(labels.education) +
    schools +
    line(labels.skills, person.skills.map(escape).join(', ')) +
    line(labels.languages, person.spoken.map(escape).join(', ')) +
    section(labels.references) +
    refs;
  return page(
    person,
    `table.ep { width: 100%; } table.ep td { padding: 3pt 6pt; } td.label { width: 32%; text-align: right; color: #1a4e8a; }
     td.section { font-weight: bold; text-transform: uppercase; padding-top: 10pt; } .name { font-size: 16pt; font-weight: bold; }`,
    `<table class="ep">\n${rows}</table>`,
  );
}

/** A header table: the contact details stacked in a narrow column, the name and title beside them. */
function contactColumn(person: TPerson, labels: TLabels): string {
  const contact = [person.city, person.phone, person.email, ...(person.links ?? [])]
    .map((item) => `<p>${escape(item)}</p>`)
    .join('');
  return page(
    person,
    `table.head { width: 100%; margin-bottom: 8pt; } td.contact { width: 34%; font-size: 9pt; border-right: 2px solid #456; padding-right: 8pt; }
     td.contact p { margin: 0 0 1pt; } td.name { padding-left: 14pt; vertical-align: middle; } td.name h1 { font-size: 26pt; }`,
    `<table class="head"><tr>\n<td class="contact">${contact}</td>\n<td class="name"><h1>${escape(fullName(person))}</h1><p>${escape(person.title)}</p></td>\n</tr></table>\n` +
      body(person, labels, true),
  );
}

/** A long sidebar in a layout table (contact, skills, languages, interests), the name over two lines beside it. */
function stackedName(person: TPerson, labels: TLabels): string {
  const side = [
    `<h3>${labels.contact}</h3>`,
    `<p>${addressLines(person).map(escape).join('<br>')}</p>`,
    `<p>${escape(person.phone)}</p>`,
    `<p>${escape(person.email)}</p>`,
    links(person),
    list(labels.skills, person.skills, 'h3'),
    list(labels.languages, person.spoken, 'h3'),
    list(labels.interests, INTERESTS[person.language], 'h3'),
  ].join('\n');
  const main = `<h1 class="stacked">${escape(person.firstName)}<br>${escape(person.lastName)}</h1>\n<p class="role">${escape(person.title)}</p>\n${body(person, labels, false)}`;
  return page(
    person,
    `.layout { width: 100%; } .side { width: 30%; background: #f3efe8; padding: 10pt; font-size: 9pt; } .main { padding: 0 0 0 14pt; }
     h1.stacked { text-transform: uppercase; font-size: 28pt; line-height: 1.05; } .role { font-size: 12pt; color: #864; }`,
    `<table class="layout"><tr>\n<td class="side">\n${side}\n</td>\n<td class="main">\n${main}\n</td>\n</tr></table>`,
  );
}

const TEMPLATES: Record<TLayout, (person: TPerson, labels: TLabels) => string> = {
  'sidebar-table': sidebarTable,
  'sidebar-flex': sidebarFlex,
  'cv-details': cvDetails,
  'header-table': headerTable,
  'title-over-name': titleOverName,
  'contact-cell': contactCell,
  plain,
  europass,
  'contact-column': contactColumn,
  'stacked-name': stackedName,
};

export function renderResume(person: TPerson): string {
  const labels = LABELS[person.language];
  return TEMPLATES[person.layout](
    person,
    person.variant?.headings === 'alt' ? { ...labels, ...ALT_LABELS[person.language] } : labels,
  );
}
