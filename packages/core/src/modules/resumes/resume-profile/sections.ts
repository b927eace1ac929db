/**
 * A resume's text cut into its sections by their headings ("Work experience", "Werkervaring", "Berufserfahrung",
 * "Expérience professionnelle", "Experiencia profesional", "Esperienza professionale", "Doświadczenie zawodowe", …).
 * A heading may stand alone on its line or lead it, as a label column does ("Talen⇥Nederlands (moedertaal), …").
 */
import { fold } from '../resume-vocabulary.ts';

export type TProfileSection =
  | 'summary'
  | 'experience'
  | 'education'
  | 'skills'
  | 'languages'
  | 'contact'
  | 'references'
  | 'other';

const HEADINGS: Record<TProfileSection, string[]> = {
  summary: [
    'profile',
    'summary',
    'professional summary',
    'about me',
    'about',
    'objective',
    'career objective',
    'personal profile',
    'profiel',
    'samenvatting',
    'over mij',
    'persoonlijk profiel',
    'profil',
    'kurzprofil',
    'über mich',
    'zusammenfassung',
    'à propos',
    'à propos de moi',
    'résumé du profil',
    'perfil',
    'perfil profesional',
    'sobre mí',
    'resumen',
    'profilo',
    'profilo professionale',
    'chi sono',
    'sommario',
    'o mnie',
    'podsumowanie',
    'profil zawodowy',
  ],
  experience: [
    'experience',
    'work experience',
    'professional experience',
    'employment history',
    'employment',
    'work history',
    'career',
    'career history',
    'relevant experience',
    'werkervaring',
    'ervaring',
    'loopbaan',
    'arbeidsverleden',
    'berufserfahrung',
    'erfahrung',
    'berufliche erfahrung',
    'beruflicher werdegang',
    'praxiserfahrung',
    'werdegang',
    'expérience professionnelle',
    'expérience',
    'expériences professionnelles',
    'expériences',
    'parcours professionnel',
    'experiencia',
    'experiencia laboral',
    'experiencia profesional',
    'trayectoria profesional',
    'esperienza',
    'esperienza professionale',
    'esperienze professionali',
    'esperienza lavorativa',
    'esperienze lavorative',
    'doświadczenie',
    'doświadczenie zawodowe',
    'przebieg kariery',
    'historia zatrudnienia',
  ],
  education: [
    'education',
    'education and training',
    'academic background',
    'qualifications',
    'opleiding',
    'opleidingen',
    'onderwijs',
    'ausbildung',
    'bildung',
    'bildungsweg',
    'schulbildung',
    'studium',
    'akademische ausbildung',
    'formation',
    'formations',
    'éducation',
    'diplômes',
    'études',
    'educación',
    'formación',
    'formación académica',
    'estudios',
    'istruzione',
    'formazione',
    'istruzione e formazione',
    'titoli di studio',
    'wykształcenie',
    'edukacja',
  ],
  skills: [
    'skills',
    'key skills',
    'core skills',
    'technical skills',
    'core competencies',
    'competencies',
    'expertise',
    'vaardigheden',
    'competenties',
    'kennis en vaardigheden',
    'kenntnisse',
    'fähigkeiten',
    'kompetenzen',
    'fachkenntnisse',
    'it-kenntnisse',
    'kenntnisse und fähigkeiten',
    'compétences',
    'compétences techniques',
    'habilidades',
    'competencias',
    'aptitudes',
    'conocimientos',
    'competenze',
    'competenze tecniche',
    'abilità',
    'capacità',
    'umiejętności',
    'kompetencje',
    'umiejętności techniczne',
  ],
  languages: [
    'languages',
    'language skills',
    'talen',
    'talenkennis',
    'sprachen',
    'sprachkenntnisse',
    'langues',
    'compétences linguistiques',
    'idiomas',
    'lenguas',
    'lingue',
    'conoscenze linguistiche',
    'competenze linguistiche',
    'lingue straniere',
    'języki',
    'języki obce',
    'znajomość języków',
  ],
  contact: [
    'contact',
    'contact details',
    'contact information',
    'contactgegevens',
    'kontakt',
    'kontaktdaten',
    'coordonnées',
    'contacto',
    'contatti',
    'recapiti',
    'dane kontaktowe',
    'personal details',
    'personal information',
    'personalia',
    'persoonlijke gegevens',
    'persoonlijke informatie',
    'persönliche daten',
    'angaben zur person',
    'informations personnelles',
    'datos personales',
    'información personal',
    'dati personali',
    'informazioni personali',
    'dane osobowe',
    'informacje osobiste',
  ],
  references: [
    'references',
    'referees',
    'referenties',
    'referenzen',
    'références',
    'referencias',
    'referenze',
    'referencje',
  ],
  other: [
    'certifications',
    'certificates',
    'certificaten',
    'zertifikate',
    'certificats',
    'certificaciones',
    'certificazioni',
    'certyfikaty',
    'courses',
    'training',
    'trainingen',
    'cursussen',
    'weiterbildung',
    'cours',
    'cursos',
    'corsi',
    'kursy',
    'szkolenia',
    'interests',
    'hobbies',
    'interesses',
    'interessen',
    'hobbys',
    "centres d'intérêt",
    'centres d’intérêt',
    'loisirs',
    'intereses',
    'aficiones',
    'interessi',
    'hobby',
    'zainteresowania',
    'projects',
    'projecten',
    'projekte',
    'projets',
    'proyectos',
    'progetti',
    'projekty',
    'publications',
    'volunteering',
    'vrijwilligerswerk',
    'ehrenamt',
    'bénévolat',
    'voluntariado',
    'volontariato',
    'wolontariat',
    'awards',
    'curriculum vitae',
    'lebenslauf',
    'cv',
  ],
};

/**
 * Headings compare without accents: capitals often drop them ("EXPERIENCE PROFESSIONNELLE", "COMPETENCES"), and OCR
 * loses them too. No two headings of different sections differ only by accents.
 */
function withoutAccents(text: string): string {
  // Letters NFD does not take apart too ("WYKSZTAŁCENIE" read as "WYKSZTALCENIE").
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/gu, '')
    .replace(/’/gu, "'")
    .replace(/ł/gu, 'l')
    .replace(/ø/gu, 'o')
    .replace(/ß/gu, 'ss');
}

const SECTION_OF = new Map<string, TProfileSection>();
for (const [section, words] of Object.entries(HEADINGS) as [TProfileSection, string[]][]) {
  for (const word of words) SECTION_OF.set(withoutAccents(word), section);
}

/** The section a heading names ("WORK EXPERIENCE", "Talen:", "Référence" …), or null. */
export function sectionOf(text: string): TProfileSection | null {
  const folded = withoutAccents(fold(text));
  if (folded.length > 45) return null;
  const exact = SECTION_OF.get(folded);
  if (exact !== undefined) return exact;
  // "References available on request" / "Referenzen auf Anfrage": a references heading with its own remark.
  if (/^(?:references?|referees|referenties|referenzen|referencias|referenze|referencje)\b/u.test(folded))
    return 'references';
  return null;
}

export type TSectionLine = { text: string; index: number };
export type TSection = { kind: TProfileSection; lines: TSectionLine[] };

/**
 * The lines of each section, in the resume's order; lines before the first heading belong to a leading 'contact'
 * section. A heading that leads its line (a label column) opens its section with the rest of the line. A block break
 * (a new column or table cell, written as a form feed line) ends a section: the next column starts anew.
 */
export function splitSections(text: string): TSection[] {
  const sections: TSection[] = [{ kind: 'contact', lines: [] }];
  let current = sections[0]!;
  let index = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^[^\S\f]+|[^\S\f]+$/gu, '');
    index++;
    if (line === '\f' || line === '') {
      if (line === '\f' && current.kind !== 'contact') {
        current = { kind: 'other', lines: [] };
        sections.push(current);
      }
      continue;
    }
    const [head = '', ...cells] = line.split('\t');
    const whole = sectionOf(line);
    const leading = whole === null && cells.length > 0 ? sectionOf(head) : null;
    const kind = whole ?? leading;
    if (kind !== null) {
      current = { kind, lines: [] };
      sections.push(current);
      if (leading !== null) current.lines.push({ text: cells.join('\t').trim(), index });
      continue;
    }
    current.lines.push({ text: line, index });
  }
  return sections.filter((section) => section.lines.length > 0 || section.kind !== 'other');
}
