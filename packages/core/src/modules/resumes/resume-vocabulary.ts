/**
 * Words a resume is written with, in the languages the service is used in (en, nl, de, fr, es, pl): section headings,
 * field labels, job titles and places. Lower-case, without accents removed (compare with {@link fold}).
 */

/** Lower-case, trimmed, inner blanks collapsed, trailing colon and decoration dropped. */
export function fold(text: string): string {
  return text
    .normalize('NFC')
    .toLocaleLowerCase()
    .replace(/[\s\u00a0]+/gu, ' ')
    .replace(/^[\s\-–—•·*#|:_]+|[\s\-–—•·*#|:._]+$/gu, '');
}

/** Letters only, accents and ligatures reduced to ASCII ("Zoë Ødegård" → "zoeodegard"), for matching against emails. */
export function asciiLetters(text: string): string {
  return text
    .toLocaleLowerCase()
    .replace(/[øØ]/gu, 'o')
    .replace(/[łŁ]/gu, 'l')
    .replace(/[đĐ]/gu, 'd')
    .replace(/ß/gu, 'ss')
    .replace(/[æÆ]/gu, 'ae')
    .replace(/[œŒ]/gu, 'oe')
    .replace(/[þÞ]/gu, 'th')
    .normalize('NFKD')
    .replace(/[^a-z]/gu, '');
}

export type TSectionKind = 'references' | 'personal' | 'title' | 'other';

const HEADINGS: Record<TSectionKind, string[]> = {
  references: [
    'references', 'reference', 'referees', 'referenties', 'referentie', 'referenzen', 'referenz', 'références',
    'référence', 'referencias', 'referencia', 'referencje', 'referencja', 'professional references', 'references available',
  ],
  personal: [
    'contact', 'contact details', 'contact information', 'contact info', 'contactgegevens', 'contactinformatie', 'kontakt',
    'kontaktdaten', 'kontaktinformationen', 'coordonnées', 'contacto', 'datos de contacto', 'dane kontaktowe',
    'personal details', 'personal information', 'personal data', 'personal info', 'personalia', 'persoonlijke gegevens',
    'persoonsgegevens', 'persönliche daten', 'persönliche angaben', 'persönliches', 'informations personnelles',
    'état civil', 'datos personales', 'información personal', 'dane osobowe', 'informacje osobiste', 'dane personalne',
    'angaben zur person', 'persoonlijke informatie', 'dati personali', 'informazioni personali', 'recapiti', 'contatti',
  ],
  title: [
    'curriculum vitae', 'cv', 'resume', 'résumé', 'resumé', 'lebenslauf', 'tabellarischer lebenslauf', 'levensloop',
    'curriculum', 'currículum', 'currículum vitae', 'curriculum vitæ', 'życiorys', 'hoja de vida',
  ],
  other: [
    'profile', 'profiel', 'profil', 'perfil', 'perfil profesional', 'summary', 'professional summary', 'samenvatting',
    'about me', 'about', 'over mij', 'über mich', 'à propos', 'à propos de moi', 'sobre mí', 'o mnie', 'objective',
    'career objective', 'doel', 'kurzprofil', 'experience', 'work experience', 'professional experience',
    'employment history', 'employment', 'work history', 'career', 'werkervaring', 'ervaring', 'loopbaan',
    'berufserfahrung', 'erfahrung', 'berufliche erfahrung', 'beruflicher werdegang', 'praxiserfahrung',
    'expérience professionnelle', 'expérience', 'expériences professionnelles', 'parcours professionnel', 'experiencia',
    'experiencia laboral', 'experiencia profesional', 'doświadczenie', 'doświadczenie zawodowe', 'przebieg kariery',
    'education', 'opleiding', 'opleidingen', 'ausbildung', 'bildung', 'bildungsweg', 'schulbildung', 'studium', 'formation',
    'éducation', 'diplômes', 'educación', 'formación', 'formación académica', 'wykształcenie', 'edukacja', 'skills',
    'key skills', 'core skills', 'technical skills', 'core competencies', 'competencies', 'vaardigheden', 'competenties',
    'kenntnisse', 'fähigkeiten', 'kompetenzen', 'fachkenntnisse', 'it-kenntnisse', 'compétences', 'habilidades',
    'competencias', 'aptitudes', 'umiejętności', 'kompetencje', 'languages', 'talen', 'talenkennis', 'sprachen',
    'sprachkenntnisse', 'langues', 'idiomas', 'języki', 'języki obce', 'certifications', 'certificates', 'certificaten',
    'certificeringen', 'zertifikate', 'zertifizierungen', 'certificats', 'certificaciones', 'certyfikaty', 'courses',
    'training', 'trainingen', 'cursussen', 'weiterbildung', 'kurse', 'cours', 'cursos', 'kursy', 'szkolenia', 'interests',
    'hobbies', 'hobby', "hobby's", 'interesses', 'interessen', 'hobbys', "centres d'intérêt", "centres d’intérêt",
    'loisirs', 'intereses', 'aficiones', 'zainteresowania', 'hobby i zainteresowania', 'projects', 'projecten',
    'projekte', 'projets', 'proyectos', 'projekty', 'achievements', 'prestaties', 'erfolge', 'réalisations', 'logros',
    'osiągnięcia', 'publications', 'publicaties', 'publikationen', 'volunteering', 'volunteer work', 'vrijwilligerswerk',
    'ehrenamt', 'ehrenamtliches engagement', 'bénévolat', 'voluntariado', 'wolontariat', 'awards', 'tools', 'software',
    'nevenactiviteiten', 'overig', 'sonstiges', 'divers', 'otros', 'inne', 'additional information', 'aanvullende informatie',
  ],
};

const HEADING_KIND = new Map<string, TSectionKind>();
for (const [kind, words] of Object.entries(HEADINGS) as [TSectionKind, string[]][]) {
  for (const word of words) HEADING_KIND.set(word, kind);
}

/** The kind of section a line opens, when the whole line is a heading ("REFERENCES", "Persoonlijke gegevens:"). */
export function headingKind(line: string): TSectionKind | null {
  const folded = fold(line);
  if (folded.length > 40) return null;
  const exact = HEADING_KIND.get(folded);
  if (exact !== undefined) return exact;
  // "References available upon request", "Referenties op aanvraag": a references line of its own.
  if (/^(?:references?|referenties|referenzen|références|referencias|referencje)\b/u.test(folded)) return 'references';
  return null;
}

export type TNameLabel = 'full' | 'first' | 'last';

/** Labels of the candidate's name in a "Label: value" line or a personal-details table. */
export const NAME_LABELS = new Map<string, TNameLabel>([
  ...(['name', 'full name', 'naam', 'volledige naam', 'name des bewerbers', 'vor- und nachname', 'nom complet',
    'nom et prénom', 'prénom et nom', 'prénom nom', 'nombre completo', 'nombre y apellidos', 'imię i nazwisko',
    'candidate', 'kandidaat', 'candidat', 'candidato'] as const).map((label) => [label, 'full'] as [string, TNameLabel]),
  ...(['first name', 'first names', 'given name', 'given names', 'forename', 'voornaam', 'voornamen', 'roepnaam',
    'vorname', 'vornamen', 'prénom', 'prénoms', 'nombre', 'imię', 'imiona'] as const).map((label) => [label, 'first'] as [string, TNameLabel]),
  ...(['last name', 'surname', 'family name', 'achternaam', 'familienaam', 'nachname', 'familienname', 'nom',
    'nom de famille', 'apellido', 'apellidos', 'nazwisko'] as const).map((label) => [label, 'last'] as [string, TNameLabel]),
]);

/** Labels of other fields: their values are never a name (a city, a date, a nationality …). */
const FIELD_LABELS = [
  'address', 'adres', 'adresse', 'anschrift', 'dirección', 'direccion', 'domicilio', 'adres zamieszkania', 'street',
  'straat', 'straße', 'strasse', 'rue', 'calle', 'ulica', 'city', 'town', 'residence', 'location', 'woonplaats',
  'plaats', 'stad', 'wohnort', 'ort', 'stadt', 'ville', 'lieu', 'ciudad', 'localidad', 'miasto', 'miejscowość',
  'postcode', 'postal code', 'zip', 'zip code', 'plz', 'postleitzahl', 'code postal', 'código postal', 'kod pocztowy',
  'country', 'land', 'pays', 'país', 'kraj', 'phone', 'telephone', 'phone number', 'mobile', 'mobile phone', 'cell',
  'tel', 'telefoon', 'telefoonnummer', 'mobiel', 'mobiele telefoon', 'gsm', 'telefon', 'telefonnummer', 'handy',
  'mobil', 'mobiltelefon', 'téléphone', 'portable', 'mobile', 'teléfono', 'móvil', 'celular', 'telefon komórkowy',
  'komórka', 'tel. kom', 'email', 'e-mail', 'e-mailadres', 'e-mail address', 'email address', 'mail', 'courriel',
  'correo', 'correo electrónico', 'adres e-mail', 'date of birth', 'birth date', 'born', 'birthday', 'geboortedatum',
  'geboren', 'geburtsdatum', 'geburtsort', 'date de naissance', 'né le', 'née le', 'fecha de nacimiento',
  'data urodzenia', 'place of birth', 'geboorteplaats', 'lieu de naissance', 'lugar de nacimiento', 'miejsce urodzenia',
  'nationality', 'nationaliteit', 'staatsangehörigkeit', 'nationalität', 'nationalité', 'nacionalidad', 'narodowość',
  'obywatelstwo', 'gender', 'geslacht', 'geschlecht', 'sexe', 'sexo', 'płeć', 'marital status', 'burgerlijke staat',
  'familienstand', 'situation familiale', 'estado civil', 'stan cywilny', 'driving licence', "driver's license",
  'driving license', 'rijbewijs', 'führerschein', 'permis de conduire', 'carnet de conducir', 'prawo jazdy', 'linkedin',
  'github', 'website', 'web', 'homepage', 'portfolio', 'internet', 'strona www', 'skype', 'availability',
  'beschikbaarheid', 'verfügbarkeit', 'disponibilité', 'disponibilidad', 'dostępność', 'title', 'titel', 'position',
  'functie', 'role', 'job title', 'beruf', 'poste', 'puesto', 'stanowisko',
];

/** Words that are labels or headings anywhere in a line: such a line is not a name. */
export const LABEL_WORDS = new Set<string>();
for (const phrase of [...FIELD_LABELS, ...NAME_LABELS.keys(), ...Object.values(HEADINGS).flat()]) {
  for (const word of phrase.split(/[\s/]+/u)) if (word.length > 1) LABEL_WORDS.add(word);
}
// Words of the label phrases that are also common in names are not labels on their own.
for (const word of ['de', 'la', 'le', 'des', 'van', 'von', 'des', 'du', 'del', 'i', 'y', 'et', 'und', 'en', 'e']) {
  LABEL_WORDS.delete(word);
}
for (const word of [
  'page', 'pagina', 'seite', 'página', 'strona', 'confidential', 'vertrouwelijk', 'vertraulich', 'the', 'and', 'of',
  'for', 'voor', 'with', 'met', 'to', 'at', 'my', 'mijn', 'mein', 'meine', 'mój', 'moje', 'me', 'mij',
  'over', 'personal', 'persoonlijke', 'details', 'gegevens', 'information', 'informatie', 'data', 'daten', 'dane',
  'contact', 'available', 'upon', 'request', 'op', 'aanvraag', 'auf', 'anfrage', 'sur', 'demande', 'petición',
  'solicitud', 'życzenie', 'prośbę', 'street', 'road', 'avenue', 'lane', 'laan', 'weg', 'plein', 'gracht', 'kade',
  'straße', 'allee', 'platz', 'rue', 'boulevard', 'calle', 'avenida', 'ulica', 'aleja',
]) {
  LABEL_WORDS.add(word);
}

/** The label a field value follows, when `segment` is exactly a label ("Naam", "E-mail:", "Date of birth"). */
export function isFieldLabel(segment: string): boolean {
  const folded = fold(segment);
  return FIELD_LABEL_SET.has(folded) || NAME_LABELS.has(folded);
}
const FIELD_LABEL_SET = new Set(FIELD_LABELS);

/**
 * Words of job titles and occupations: a line holding one is a title ("Product Owner", "Senior Software Engineer"),
 * not a name. Only words that are not also common surnames.
 */
export const JOB_TITLE_WORDS = new Set([
  'owner', 'product', 'project', 'program', 'programme', 'manager', 'management', 'engineer', 'engineering',
  'developer', 'development', 'designer', 'design', 'consultant', 'consulting', 'analyst', 'analytics', 'architect',
  'scientist', 'science', 'specialist', 'assistant', 'director', 'officer', 'coordinator', 'administrator', 'accountant',
  'controller', 'teacher', 'nurse', 'advisor', 'adviser', 'adviseur', 'medewerker', 'verpleegkundige', 'docent',
  'leraar', 'leerkracht', 'projectleider', 'teamleider', 'teamlead', 'lead', 'leader', 'head', 'chief', 'ceo', 'cto',
  'cfo', 'coo', 'vp', 'president', 'intern', 'trainee', 'stagiair', 'student', 'graduate', 'recruiter', 'recruitment',
  'sales', 'marketing', 'finance', 'financial', 'operations', 'support', 'customer', 'service', 'services', 'data',
  'software', 'frontend', 'front-end', 'backend', 'back-end', 'full-stack', 'fullstack', 'stack', 'web', 'mobile',
  'devops', 'cloud', 'security', 'network', 'systems', 'system', 'it', 'ict', 'ux', 'ui', 'qa', 'test', 'tester',
  'senior', 'junior', 'medior', 'principal', 'staff', 'associate', 'executive', 'representative', 'agent', 'clerk',
  'secretary', 'receptionist', 'technician', 'mechanic', 'electrician', 'operator', 'planner', 'buyer', 'inkoper',
  'logistics', 'logistiek', 'warehouse', 'driver', 'chauffeur', 'pharmacist', 'physician', 'doctor', 'therapist',
  'psychologist', 'lawyer', 'advocaat', 'jurist', 'paralegal', 'editor', 'writer', 'journalist', 'copywriter',
  'photographer', 'researcher', 'professor', 'lecturer', 'scrum', 'master', 'agile', 'coach', 'hr', 'human', 'resources',
  'business', 'commercial', 'commercieel', 'technical', 'technisch', 'manager', 'beheerder', 'ontwikkelaar',
  'ingenieur', 'entwickler', 'softwareentwickler', 'berater', 'leiter', 'leiterin', 'projektleiter', 'projektmanager',
  'kaufmann', 'kauffrau', 'sachbearbeiter', 'sachbearbeiterin', 'mitarbeiter', 'mitarbeiterin', 'referent',
  'referentin', 'assistent', 'assistentin', 'krankenschwester', 'lehrer', 'lehrerin', 'développeur', 'développeuse',
  'ingénieur', 'chef', 'responsable', 'chargé', 'chargée', 'conseiller', 'conseillère', 'directeur', 'directrice',
  'gestionnaire', 'infirmier', 'infirmière', 'enseignant', 'enseignante', 'commercial', 'comptable', 'desarrollador',
  'desarrolladora', 'ingeniero', 'ingeniera', 'jefe', 'jefa', 'gerente', 'director', 'directora', 'asesor', 'asesora',
  'técnico', 'técnica', 'enfermero', 'enfermera', 'profesor', 'profesora', 'analista', 'programista', 'programistka',
  'inżynier', 'kierownik', 'kierowniczka', 'specjalista', 'specjalistka', 'menedżer', 'konsultant', 'konsultantka',
  'księgowy', 'księgowa', 'asystent', 'asystentka', 'nauczyciel', 'nauczycielka', 'pielęgniarka', 'dyrektor',
  'starszy', 'młodszy', 'tester', 'projektant', 'projektantka', 'grafik', 'analityk', 'administrator',
]);

/** Places a resume names (cities and countries), with the country they are in, for phone numbers without a code. */
const PLACES: Record<string, string[]> = {
  NL: [
    'netherlands', 'the netherlands', 'nederland', 'niederlande', 'pays-bas', 'países bajos', 'holandia', 'holland',
    'amsterdam', 'rotterdam', 'den haag', 'the hague', "'s-gravenhage", 'utrecht', 'eindhoven', 'groningen', 'tilburg',
    'almere', 'breda', 'nijmegen', 'haarlem', 'arnhem', 'zwolle', 'leiden', 'delft', 'maastricht', 'amersfoort',
    'apeldoorn', 'enschede', 'den bosch', 'zwijndrecht', 'kampen', 'venlo', 'roermond', 'emmen', 'assen', 'helmond', 'oss', "'s-hertogenbosch", 'hilversum', 'zaandam', 'alkmaar', 'leeuwarden', 'zoetermeer',
    'dordrecht', 'deventer', 'gouda', 'schiedam', 'amstelveen', 'hoofddorp', 'diemen', 'wageningen', 'zeist', 'heerlen',
  ],
  BE: [
    'belgium', 'belgië', 'belgie', 'belgien', 'belgique', 'bélgica', 'belgia', 'brussels', 'brussel', 'bruxelles',
    'antwerpen', 'antwerp', 'anvers', 'gent', 'ghent', 'gand', 'leuven', 'louvain', 'liège', 'luik', 'brugge', 'bruges',
    'charleroi', 'namur', 'mechelen', 'hasselt',
  ],
  DE: [
    'germany', 'duitsland', 'deutschland', 'allemagne', 'alemania', 'niemcy', 'berlin', 'hamburg', 'münchen', 'munich',
    'köln', 'cologne', 'frankfurt', 'frankfurt am main', 'stuttgart', 'düsseldorf', 'dortmund', 'essen', 'leipzig',
    'bremen', 'dresden', 'hannover', 'nürnberg', 'nuremberg', 'bonn', 'mannheim', 'karlsruhe', 'münster', 'aachen',
    'heidelberg', 'freiburg', 'wiesbaden', 'mainz', 'augsburg', 'potsdam', 'ulm', 'kiel', 'lübeck', 'rostock', 'kassel',
    'regensburg', 'würzburg', 'erfurt', 'magdeburg', 'braunschweig', 'osnabrück', 'bielefeld', 'chemnitz', 'saarbrücken',
  ],
  FR: [
    'france', 'frankrijk', 'frankreich', 'francia', 'francja', 'paris', 'marseille', 'lyon', 'toulouse', 'nice', 'nantes',
    'strasbourg', 'montpellier', 'bordeaux', 'lille', 'rennes', 'grenoble', 'toulon', 'reims', 'dijon', 'angers',
    'le havre', 'saint-étienne', 'clermont-ferrand', 'tours', 'limoges', 'amiens', 'metz', 'nancy', 'caen', 'rouen', 'orléans',
  ],
  ES: [
    'spain', 'spanje', 'spanien', 'espagne', 'españa', 'hiszpania', 'madrid', 'barcelona', 'valencia', 'sevilla',
    'seville', 'zaragoza', 'málaga', 'malaga', 'bilbao', 'palma', 'palma de mallorca', 'granada', 'alicante', 'murcia',
    'valladolid', 'vigo', 'gijón', 'a coruña', 'salamanca', 'san sebastián', 'donostia', 'córdoba', 'oviedo', 'santander',
    'pamplona', 'vitoria', 'cádiz', 'almería', 'toledo', 'getafe', 'alcalá de henares', 'tarragona', 'girona', 'lleida',
  ],
  PL: [
    'poland', 'polen', 'pologne', 'polonia', 'polska', 'warszawa', 'warsaw', 'kraków', 'krakow', 'cracow', 'łódź',
    'lodz', 'wrocław', 'wroclaw', 'poznań', 'poznan', 'gdańsk', 'gdansk', 'szczecin', 'lublin', 'katowice', 'gdynia',
    'białystok', 'bydgoszcz', 'rzeszów', 'toruń', 'sopot', 'kielce', 'olsztyn', 'opole',
  ],
  GB: [
    'united kingdom', 'uk', 'u.k.', 'great britain', 'england', 'scotland', 'wales', 'verenigd koninkrijk',
    'vereinigtes königreich', 'royaume-uni', 'reino unido', 'wielka brytania', 'london', 'manchester', 'birmingham',
    'leeds', 'glasgow', 'edinburgh', 'liverpool', 'bristol', 'sheffield', 'cardiff', 'belfast', 'cambridge', 'oxford',
    'newcastle', 'nottingham', 'brighton', 'reading', 'londen', 'londres', 'londyn', 'bath', 'york', 'exeter', 'coventry',
    'leicester', 'southampton', 'portsmouth', 'aberdeen', 'dundee', 'swansea', 'norwich', 'plymouth', 'derby', 'milton keynes',
  ],
  IE: ['ireland', 'ierland', 'irland', 'irlande', 'irlanda', 'irlandia', 'dublin', 'cork', 'galway', 'limerick'],
  US: [
    'united states', 'usa', 'u.s.a.', 'u.s.', 'us', 'united states of america', 'verenigde staten', 'vereinigte staaten',
    'états-unis', 'estados unidos', 'stany zjednoczone', 'new york', 'new york city', 'nyc', 'san francisco',
    'los angeles', 'chicago', 'boston', 'seattle', 'houston', 'dallas', 'denver', 'atlanta', 'miami', 'philadelphia',
    'san diego', 'san jose', 'phoenix', 'brooklyn', 'oakland', 'palo alto', 'mountain view', 'pittsburgh', 'minneapolis',
    'detroit', 'baltimore', 'nashville', 'new orleans', 'las vegas', 'salt lake city', 'sacramento', 'cupertino',
  ],
  CA: ['canada', 'kanada', 'canadá', 'toronto', 'vancouver', 'montreal', 'montréal', 'ottawa', 'calgary'],
  IT: ['italy', 'italië', 'italien', 'italie', 'italia', 'włochy', 'rome', 'roma', 'milan', 'milano', 'napoli', 'naples', 'turin', 'torino', 'bologna',
    'firenze', 'genova', 'genoa', 'venezia', 'venice', 'padova', 'padua', 'verona', 'trieste', 'brescia', 'bergamo', 'parma',
    'modena', 'bari', 'palermo', 'catania', 'pisa', 'perugia', 'salerno', 'cagliari', 'monza', 'reggio emilia'],
  PT: ['portugal', 'portugalia', 'lisbon', 'lisboa', 'porto'],
  AT: ['austria', 'oostenrijk', 'österreich', 'autriche', 'vienna', 'wien', 'graz', 'salzburg', 'linz', 'innsbruck'],
  CH: ['switzerland', 'zwitserland', 'schweiz', 'suisse', 'suiza', 'szwajcaria', 'zürich', 'zurich', 'geneva', 'genève', 'genf', 'basel', 'bern', 'lausanne'],
  LU: ['luxembourg', 'luxemburg', 'luksemburg'],
  NO: ['norway', 'noorwegen', 'norwegen', 'norvège', 'noruega', 'norwegia', 'norge', 'oslo', 'bergen', 'trondheim', 'stavanger'],
  SE: ['sweden', 'zweden', 'schweden', 'suède', 'suecia', 'szwecja', 'sverige', 'stockholm', 'göteborg', 'gothenburg', 'malmö', 'uppsala'],
  DK: ['denmark', 'denemarken', 'dänemark', 'danemark', 'dinamarca', 'dania', 'danmark', 'copenhagen', 'københavn', 'kopenhagen', 'aarhus', 'odense'],
  FI: ['finland', 'finnland', 'finlande', 'finlandia', 'suomi', 'helsinki', 'espoo', 'tampere'],
  CZ: ['czech republic', 'czechia', 'tsjechië', 'tschechien', 'république tchèque', 'república checa', 'czechy', 'prague', 'praha', 'prag', 'brno'],
  AU: ['australia', 'australië', 'australien', 'australie', 'sydney', 'melbourne', 'brisbane', 'perth'],
};

/** Every place name → its ISO 3166-1 alpha-2 region. */
export const PLACE_REGION = new Map<string, string>();
for (const [region, names] of Object.entries(PLACES)) for (const name of names) PLACE_REGION.set(name, region);

/** US states (and Canadian provinces) as written after a city: "San Francisco, CA 94105". */
export const STATE_CODES = new Map<string, string>([
  ...'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
    .split(' ')
    .map((code) => [code, 'US'] as [string, string]),
  ...'AB BC MB NB NS NT NU ON PE QC SK YT'.split(' ').map((code) => [code, 'CA'] as [string, string]),
]);

/** Common words of each language a resume is written in (besides English), with the country where it is spoken most. */
const LANGUAGE_WORDS: [region: string, words: string[]][] = [
  ['NL', ['werkervaring', 'opleiding', 'vaardigheden', 'talen', 'ervaring', 'het', 'een', 'van', 'met', 'voor', 'bij', 'heden', 'geboortedatum', 'woonplaats']],
  ['DE', ['berufserfahrung', 'ausbildung', 'kenntnisse', 'sprachen', 'und', 'mit', 'der', 'die', 'das', 'für', 'bei', 'heute', 'geburtsdatum', 'wohnort']],
  ['FR', ['expérience', 'formation', 'compétences', 'langues', 'et', 'avec', 'les', 'des', 'pour', 'dans', 'aujourd’hui', "aujourd'hui", 'naissance']],
  ['ES', ['experiencia', 'formación', 'habilidades', 'idiomas', 'y', 'con', 'los', 'las', 'del', 'para', 'actualidad', 'nacimiento']],
  ['PL', ['doświadczenie', 'wykształcenie', 'umiejętności', 'języki', 'oraz', 'w', 'z', 'na', 'dla', 'obecnie', 'urodzenia']],
  ['IT', ['esperienza', 'istruzione', 'formazione', 'competenze', 'lingue', 'il', 'della', 'di', 'per', 'nel', 'oggi', 'nascita']],
];

/**
 * The country whose language a resume is written in, when it clearly is one of these (counted over its words); null
 * for English or a mix. A last resort for a national phone number that is valid neither where the resume's address
 * is nor in the tenant's country.
 */
export function languageRegion(text: string): string | null {
  const counts = new Map<string, number>();
  let total = 0;
  for (const word of text.slice(0, 20_000).toLocaleLowerCase().split(/[^\p{L}'’]+/u)) {
    if (word === '') continue;
    total++;
    for (const [region, words] of LANGUAGE_WORDS) if (words.includes(word)) counts.set(region, (counts.get(region) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best === undefined || best[1] < 5 || best[1] < total * 0.03) return null;
  return second === undefined || best[1] >= second[1] * 2 ? best[0] : null;
}
