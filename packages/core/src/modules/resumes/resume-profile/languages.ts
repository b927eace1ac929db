/**
 * Spoken languages and their levels, as written in en, nl, de, fr, es, it and pl resumes: "Nederlands (moedertaal)",
 * "Englisch – verhandlungssicher", "Anglais : courant", "Inglés (C1)", "angielski B2".
 *
 * Levels follow the usual four-step scale of resume parsers; CEFR levels map as A1–B1 basic, B2–C1 professional,
 * C2 fluent (a C1 speaker works in the language; C2 is near-native mastery).
 */
import { fold } from '../resume-vocabulary.ts';

export type TLanguageLevel = 'native' | 'fluent' | 'professional' | 'basic';
export type TSpokenLanguage = { language: string; level: TLanguageLevel | null };

/** ISO 639-1 code → the language's names in en, nl, de, fr, es, it, pl and its own name. */
const LANGUAGE_NAMES: Record<string, string[]> = {
  en: ['english', 'engels', 'englisch', 'anglais', 'inglés', 'ingles', 'inglese', 'angielski'],
  nl: [
    'dutch',
    'nederlands',
    'niederländisch',
    'holländisch',
    'néerlandais',
    'neerlandés',
    'holandés',
    'olandese',
    'niderlandzki',
    'holenderski',
    'flemish',
    'vlaams',
  ],
  de: ['german', 'duits', 'deutsch', 'allemand', 'alemán', 'aleman', 'tedesco', 'niemiecki'],
  fr: ['french', 'frans', 'französisch', 'français', 'francais', 'francés', 'frances', 'francese', 'francuski'],
  es: [
    'spanish',
    'spaans',
    'spanisch',
    'espagnol',
    'español',
    'espanol',
    'castellano',
    'castillan',
    'spagnolo',
    'hiszpański',
  ],
  it: ['italian', 'italiaans', 'italienisch', 'italien', 'italiano', 'włoski'],
  pl: ['polish', 'pools', 'polnisch', 'polonais', 'polaco', 'polacco', 'polski'],
  pt: ['portuguese', 'portugees', 'portugiesisch', 'portugais', 'portugués', 'portoghese', 'portugalski', 'português'],
  ar: ['arabic', 'arabisch', 'arabe', 'árabe', 'arabo', 'arabski'],
  tr: ['turkish', 'turks', 'türkisch', 'turc', 'turco', 'turecki', 'türkçe'],
  ru: ['russian', 'russisch', 'russe', 'ruso', 'russo', 'rosyjski'],
  uk: ['ukrainian', 'oekraïens', 'ukrainisch', 'ukrainien', 'ucraniano', 'ucraino', 'ukraiński'],
  zh: [
    'chinese',
    'mandarin',
    'mandarin chinese',
    'chinees',
    'chinesisch',
    'chinois',
    'chino',
    'cinese',
    'chiński',
    'mandarijn',
    'cantonese',
  ],
  ja: ['japanese', 'japans', 'japanisch', 'japonais', 'japonés', 'giapponese', 'japoński'],
  ko: ['korean', 'koreaans', 'koreanisch', 'coréen', 'coreano', 'koreański'],
  no: ['norwegian', 'noors', 'norwegisch', 'norvégien', 'noruego', 'norvegese', 'norweski', 'norsk'],
  sv: ['swedish', 'zweeds', 'schwedisch', 'suédois', 'sueco', 'svedese', 'szwedzki', 'svenska'],
  da: ['danish', 'deens', 'dänisch', 'danois', 'danés', 'danese', 'duński', 'dansk'],
  fi: ['finnish', 'fins', 'finnisch', 'finnois', 'finlandés', 'finlandese', 'fiński', 'suomi'],
  cs: ['czech', 'tsjechisch', 'tschechisch', 'tchèque', 'checo', 'ceco', 'czeski'],
  sk: ['slovak', 'slowaaks', 'slowakisch', 'slovaque', 'eslovaco', 'slovacco', 'słowacki'],
  hu: ['hungarian', 'hongaars', 'ungarisch', 'hongrois', 'húngaro', 'ungherese', 'węgierski'],
  ro: ['romanian', 'roemeens', 'rumänisch', 'roumain', 'rumano', 'rumeno', 'rumuński'],
  bg: ['bulgarian', 'bulgaars', 'bulgarisch', 'bulgare', 'búlgaro', 'bulgaro', 'bułgarski'],
  el: ['greek', 'grieks', 'griechisch', 'grec', 'griego', 'greco', 'grecki'],
  hr: ['croatian', 'kroatisch', 'croate', 'croata', 'chorwacki'],
  sr: ['serbian', 'servisch', 'serbisch', 'serbe', 'serbio', 'serbo', 'serbski'],
  he: ['hebrew', 'hebreeuws', 'hebräisch', 'hébreu', 'hebreo', 'ebraico', 'hebrajski'],
  fa: ['persian', 'farsi', 'perzisch', 'persisch', 'persan', 'persa', 'persiano', 'perski'],
  hi: ['hindi'],
  ur: ['urdu', 'ourdou'],
  bn: ['bengali', 'bengaals', 'bengalisch', 'bengalí', 'bengalski'],
  ta: ['tamil', 'tamoul', 'tamilisch', 'tamilski'],
  pa: ['punjabi', 'pendjabi', 'panjabi'],
  id: ['indonesian', 'indonesisch', 'indonésien', 'indonesio', 'indonesiano', 'indonezyjski', 'bahasa indonesia'],
  ms: ['malay', 'maleis', 'malaiisch', 'malais', 'malayo', 'malese'],
  th: ['thai', 'thais', 'thailändisch', 'thaï', 'tailandés', 'tailandese', 'tajski'],
  vi: ['vietnamese', 'vietnamees', 'vietnamesisch', 'vietnamien', 'vietnamita', 'wietnamski'],
  sw: ['swahili', 'kiswahili', 'suahili'],
  ga: ['irish', 'iers', 'irisch', 'irlandais', 'irlandés', 'irlandese', 'irlandzki', 'gaeilge', 'irish gaelic'],
  cy: ['welsh', 'wels', 'walisisch', 'gallois', 'galés', 'gallese', 'walijski'],
  eu: ['basque', 'baskisch', 'euskera', 'euskara', 'vasco', 'basco', 'baskijski'],
  ca: ['catalan', 'catalaans', 'katalanisch', 'catalán', 'català', 'catalano', 'kataloński'],
  gl: ['galician', 'galicisch', 'galicien', 'gallego', 'galego', 'galiziano'],
  fy: ['frisian', 'fries', 'friesisch', 'frison', 'frisón', 'frisone', 'fryzyjski', 'frysk'],
  lb: ['luxembourgish', 'luxemburgs', 'luxemburgisch', 'luxembourgeois', 'luxemburgués', 'lussemburghese'],
  af: ['afrikaans'],
  et: ['estonian', 'estisch', 'estnisch', 'estonien', 'estonio', 'estone', 'estoński'],
  lv: ['latvian', 'lets', 'lettisch', 'letton', 'letón', 'lettone', 'łotewski'],
  lt: ['lithuanian', 'litouws', 'litauisch', 'lituanien', 'lituano', 'litewski'],
  sl: ['slovenian', 'sloveens', 'slowenisch', 'slovène', 'esloveno', 'sloveno', 'słoweński'],
  be: ['belarusian', 'wit-russisch', 'weißrussisch', 'biélorusse', 'bielorruso', 'bielorusso', 'białoruski'],
  sq: ['albanian', 'albanees', 'albanisch', 'albanais', 'albanés', 'albanese', 'albański'],
  tl: ['tagalog', 'filipino'],
  so: ['somali', 'somalisch', 'somalí'],
  am: ['amharic', 'amhaars', 'amharisch', 'amharique', 'amárico'],
  ku: ['kurdish', 'koerdisch', 'kurdisch', 'kurde', 'kurdo', 'kurdyjski'],
  hy: ['armenian', 'armeens', 'armenisch', 'arménien', 'armenio', 'armeno', 'ormiański'],
  ka: ['georgian', 'georgisch', 'géorgien', 'georgiano', 'gruziński'],
};
const LANGUAGE_CODE = new Map<string, string>();
for (const [code, names] of Object.entries(LANGUAGE_NAMES)) for (const name of names) LANGUAGE_CODE.set(name, code);

const LEVEL_WORDS: [TLanguageLevel, string[]][] = [
  [
    'native',
    [
      'native',
      'native speaker',
      'mother tongue',
      'first language',
      'moedertaal',
      'muttersprache',
      'muttersprachlich',
      'langue maternelle',
      'maternelle',
      'natif',
      'native',
      'nativo',
      'nativa',
      'lengua materna',
      'idioma materno',
      'madrelingua',
      'lingua madre',
      'ojczysty',
      'język ojczysty',
      'rodzimy',
    ],
  ],
  [
    'fluent',
    [
      'fluent',
      'fluently',
      'bilingual',
      'near native',
      'near-native',
      'vloeiend',
      'vloeiend in woord en geschrift',
      'fließend',
      'fliessend',
      'verhandlungssicher fließend',
      'courant',
      'couramment',
      'bilingue',
      'fluide',
      'fluido',
      'fluida',
      'fluente',
      'biegły',
      'biegle',
      'biegła',
      'c2',
      'expert',
    ],
  ],
  [
    'professional',
    [
      'professional',
      'professional working proficiency',
      'full professional proficiency',
      'business',
      'business fluent',
      'advanced',
      'good',
      'very good',
      'proficient',
      'goed',
      'zeer goed',
      'uitstekend',
      'gut',
      'sehr gut',
      'verhandlungssicher',
      'fortgeschritten',
      'bien',
      'très bien',
      'bon',
      'bon niveau',
      'avancé',
      'professionnel',
      'avanzado',
      'alto',
      'profesional',
      'buono',
      'ottimo',
      'avanzato',
      'professionale',
      'dobry',
      'bardzo dobry',
      'zaawansowany',
      'b2',
      'c1',
    ],
  ],
  [
    'basic',
    [
      'basic',
      'elementary',
      'beginner',
      'conversational',
      'intermediate',
      'limited working proficiency',
      'schoolkennis',
      'basis',
      'basiskennis',
      'redelijk',
      'matig',
      'voldoende',
      'grundkenntnisse',
      'grundlagen',
      'gute grundkenntnisse',
      'mittel',
      'mittelstufe',
      'anfänger',
      'notions',
      'élémentaire',
      'débutant',
      'intermédiaire',
      'scolaire',
      'básico',
      'basico',
      'elemental',
      'intermedio',
      'medio',
      'principiante',
      'base',
      'di base',
      'elementare',
      'intermedio',
      'scolastico',
      'podstawowy',
      'średniozaawansowany',
      'komunikatywny',
      'średni',
      'a1',
      'a2',
      'b1',
    ],
  ],
];
const LEVEL_OF = new Map<string, TLanguageLevel>();
for (const [level, words] of LEVEL_WORDS) for (const word of words) LEVEL_OF.set(word, level);

/** A language's ISO 639-1 code from its name in one of the resume languages ("Engels", "Französisch"), or null. */
export function languageCode(name: string): string | null {
  return LANGUAGE_CODE.get(fold(name).replace(/[\s-]*language$/u, '')) ?? null;
}

/** The level a written level means ("moedertaal", "fließend", "C1", "B2 – professional"), or null. */
export function languageLevel(written: string): TLanguageLevel | null {
  const folded = fold(written)
    .replace(/[()[\]]/gu, '')
    .trim();
  const exact = LEVEL_OF.get(folded);
  if (exact !== undefined) return exact;
  // A CEFR level anywhere ("Niveau C1", "C1 – advanced") decides; else the first level word found.
  const cefr = /(?<![\p{L}\d])([abc][12])(?![\p{L}\d])/iu.exec(folded)?.[1];
  if (cefr !== undefined) return LEVEL_OF.get(cefr.toLowerCase()) ?? null;
  const words = folded.split(/[^\p{L}'’-]+/u).filter(Boolean);
  for (let size = Math.min(3, words.length); size >= 1; size--) {
    for (let at = 0; at + size <= words.length; at++) {
      const level = LEVEL_OF.get(words.slice(at, at + size).join(' '));
      if (level !== undefined) return level;
    }
  }
  return null;
}

/**
 * One entry of a languages section: a language name, optionally followed by its level in parentheses or after a
 * separator. Null when the entry names no known language.
 */
export function parseSpokenLanguage(entry: string): TSpokenLanguage | null {
  const text = entry.replace(/^[\s•·*▪‣◦-]+/u, '').trim();
  const match = /^([\p{L}][\p{L}\s'’-]{0,40}?)\s*(?:[(:–—|,-]|\s-\s|\s(?=[ABC][12]\b)|$)\s*(.*)$/u.exec(text);
  if (!match) return null;
  const code = languageCode(match[1]!);
  if (code === null) {
    // "Native English", "Fluent German": the level first.
    const words = text.split(/\s+/u);
    if (words.length === 2) {
      const flipped = languageCode(words[1]!);
      if (flipped !== null) return { language: flipped, level: languageLevel(words[0]!) };
    }
    return null;
  }
  const rest = match[2]!.replace(/[)\]]\s*$/u, '').trim();
  return { language: code, level: rest === '' ? null : languageLevel(rest) };
}

/** Splits a line of a languages section into entries: "Nederlands (moedertaal), Engels (goed)" → two. */
export function splitListLine(line: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of line) {
    if (char === '(' || char === '[') depth++;
    if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    if (depth === 0 && /[,;•·|\t▪]/u.test(char)) {
      entries.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  entries.push(current);
  return entries.map((entry) => entry.replace(/^[\s•·*▪‣◦–-]+|\s+$/gu, '').trim()).filter((entry) => entry !== '');
}

/** The languages of a languages section's lines, in order, each language once. */
export function readLanguages(lines: readonly string[]): TSpokenLanguage[] {
  const found: TSpokenLanguage[] = [];
  for (const line of lines) {
    for (const entry of splitListLine(line)) {
      const spoken = parseSpokenLanguage(entry);
      if (spoken !== null && !found.some((known) => known.language === spoken.language)) found.push(spoken);
    }
  }
  return found;
}
