import { JOB_TITLE_WORDS, LABEL_WORDS, PLACE_REGION, asciiLetters, fold } from './resume-vocabulary.ts';

/* A person's name as written: the words of a name, how they split into given and family names, how an email spells them. */

/** Lower-case name particles ("Jane van der Berg", "Ana de los Santos", "Omar bin Laden"). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'dello',
  'di',
  'da',
  'das',
  'dos',
  'do',
  'du',
  'des',
  'la',
  'le',
  'lo',
  'los',
  'las',
  'het',
  'ter',
  'ten',
  'te',
  "'t",
  '’t',
  'in',
  'op',
  'zu',
  'zum',
  'zur',
  'bin',
  'ibn',
  'al',
  'el',
  'y',
  'e',
  'st',
  'af',
  'av',
  'vom',
  'dei',
  'degli',
  // Welsh patronymics ("Rhys ap Gruffydd", "Gwen ferch Owain"), Arabic and Hebrew ones ("Ali ben Salah", "Noa bat Ami").
  'ap',
  'ab',
  'ferch',
  'verch',
  'ben',
  'bint',
  'bat',
  'abu',
]);

/** A word of a name: letters, with inner hyphens or apostrophes ("Anne-Marie", "O'Brien", "d'Ancona"). */
const NAME_WORD_RE = /^\p{L}+(?:[-'’]\p{L}+)*$/u;
/** An elided particle in front of a capital: "d'Ancona", "dell’Acqua". */
const ELIDED_PARTICLE_RE = /^(?:d|l|dell|degli|dall)['’]\p{Lu}/u;
/** An Irish surname's mutated first letter after Ó, Ní, Mac …: "Ó hEadhra", "Ní Bhriain", "Mac an tSaoi", "Uí nGallchóir". */
const IRISH_PREFIX_RE = /^(?:h|n|t|m|b|g|d|bh|bp|dt|gc|mb|nd|ng)-?\p{Lu}\p{Ll}+$/u;
const IRISH_PARTICLES = new Set(['ó', 'o', 'ní', 'ni', 'uí', 'ui', 'nic', 'mac', 'mic', 'ua', 'an']);
/** An initial such as "J." (allowed, but not as the whole name). */
const INITIAL_RE = /^\p{Lu}\.$/u;
/** Initials written as given names: "J.", "J.P.", "J.-P." ("J. R. Ewing", "J.P. de Vries"). */
const GIVEN_INITIALS_RE = /^(?:\p{Lu}\.){1,3}$|^\p{Lu}\.-\p{Lu}\.$/u;
/** A label in front of a name: "Name: Jane Doe", "Naam: Jan de Vries". */
const NAME_LABEL_RE = /^(?:full\s+name|name|naam|volledige\s+naam)\s*[:\-–]\s*/iu;
/** Separators after which a name line goes on with something else: "Jane Doe | Engineer". */
export const SEGMENT_SEPARATOR_RE = /\s*(?:[|•·–—\t,;:/]|\s-\s)\s*/u;
/** A document title in front of the name: "Curriculum Vitae – Jane Doe", "Lebenslauf von Anna Schmidt", "CV: …". */
export const TITLE_PREFIX_RE =
  /^(?:curriculum\s+vitae|cv|resume|résumé|lebenslauf|levensloop|życiorys|currículum(?:\s+vitae)?)\s*(?:[-–—:|·•,]|\s(?:of|van|von|de|del|di)\s)\s*/iu;
/** Titles written before a name. */
const HONORIFIC_RE =
  /^(?:(?:dr|drs|ir|ing|mr|mrs|ms|mw|mevr|dhr|prof|mgr|mag|lic|sr|sra|srta|mme|mlle)\.?|dipl\.-ing\.|herr|frau|mevrouw|meneer|madame|monsieur|señor|señora|pan|pani)\s+/iu;
/** Degrees and suffixes written after a name. */
const SUFFIXES = new Set([
  'msc',
  'bsc',
  'ba',
  'ma',
  'mba',
  'phd',
  'llm',
  'llb',
  'md',
  'meng',
  'beng',
  'jr',
  'sr',
  'ii',
  'iii',
  'cpa',
  'pmp',
]);

export interface TParsedName {
  firstName: string;
  lastName: string;
}

/** A line that starts with a name particle ("VAN DEN BERG", "de la Fuente"): a family name, not a whole name. */
export function startsWithParticle(line: string): boolean {
  const words = line.trim().split(/\s+/u);
  return words.length > 1 && PARTICLES.has((words[0] ?? '').toLocaleLowerCase());
}

function isParticle(word: string, allCaps: boolean): boolean {
  const lower = word.toLocaleLowerCase();
  return PARTICLES.has(lower) && (word === lower || allCaps);
}

/**
 * A name whose large type OCR split a last letter off ("Owe n Patel"): the text with every lone lower-case letter that
 * is no particle joined to the word before it, and the words so joined; null when there is none.
 */
export function withSplitLettersJoined(segment: string): { text: string; joined: string[] } | null {
  const joined: string[] = [];
  const text = segment.replace(
    /(?<![\p{L}])(\p{L}{2,}) (\p{Ll})(?![\p{L}])/gu,
    (whole, word: string, letter: string) => {
      if (PARTICLES.has(letter)) return whole;
      joined.push(word + letter);
      return word + letter;
    },
  );
  return joined.length === 0 ? null : { text, joined };
}

/** The words of a name, or null when `segment` is not one (a label, a title, a place, a sentence …). */
export function nameWords(segment: string, allowOccupations = false): string[] | null {
  let text = segment.trim().replace(HONORIFIC_RE, '').trim();
  if (text === '' || text.length > 80 || /[@\d]/u.test(text)) return null;
  const folded = fold(text);
  if (PLACE_REGION.has(folded)) return null;

  const words = text.split(/\s+/u);
  while (words.length > 2 && SUFFIXES.has((words[words.length - 1] ?? '').toLocaleLowerCase().replace(/\./gu, '')))
    words.pop();
  text = words.join(' ');
  if (words.length < 2 || words.length > 7) return null;
  const allCaps = text === text.toLocaleUpperCase() && /\p{Lu}{2}/u.test(text);

  let counted = 0;
  let places = 0;
  let initials = 0;
  if (/^p\.?\s?o\.?\s?box\b/iu.test(text)) return null;
  for (const [index, word] of words.entries()) {
    const lower = word.toLocaleLowerCase();
    if (LABEL_WORDS.has(lower) || (!allowOccupations && JOB_TITLE_WORDS.has(lower))) return null;
    if (PLACE_REGION.has(lower)) places++;
    if (INITIAL_RE.test(word) || (index < words.length - 1 && GIVEN_INITIALS_RE.test(word))) {
      initials++;
      continue;
    }
    if (index > 0 && isParticle(word, allCaps)) continue;
    if (index > 0 && ELIDED_PARTICLE_RE.test(word) && NAME_WORD_RE.test(word)) {
      counted++;
      continue;
    }
    if (!NAME_WORD_RE.test(word)) return null;
    if (index > 0 && IRISH_PREFIX_RE.test(word) && IRISH_PARTICLES.has((words[index - 1] ?? '').toLocaleLowerCase())) {
      counted++;
      continue;
    }
    // Every other word starts with a capital ("Jane", "JANE"); lower-case words make a sentence, not a name.
    if (!/^\p{Lu}/u.test(word)) return null;
    counted++;
  }
  // Two names, or initials for the given names and a surname ("J. R. Ewing").
  if (counted < 1 || counted + Math.min(initials, 1) < 2 || counted > 5 || places === words.length) return null;
  // A place of several words inside ("Kraków Den Haag"): the words of a sidebar's address, not a name.
  for (let start = 0; start < words.length - 1; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + 4); end++) {
      if (PLACE_REGION.has(words.slice(start, end).join(' ').toLocaleLowerCase())) return null;
    }
  }
  // The first and the last word are names themselves, not particles or initials.
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined || INITIAL_RE.test(last) || GIVEN_INITIALS_RE.test(last)) return null;
  if (
    INITIAL_RE.test(first) &&
    counted < 2 &&
    !words.slice(0, -1).every((word) => GIVEN_INITIALS_RE.test(word) || isParticle(word, allCaps))
  )
    return null;
  if (isParticle(last, allCaps)) return null;
  return allCaps ? words.map((word, index) => titleCaseWord(word, index)) : words;
}

/** A word in capitals ("DUPONT", "NOWAK-KOWALSKA"), as many resumes write the surname beside given names in lower case. */
function isCapitalised(word: string): boolean {
  return /\p{Lu}{2}/u.test(word) && word === word.toLocaleUpperCase();
}

/**
 * "Jean DUPONT", "DUPONT Jean", "Anna DE LA FUENTE": the words in capitals are the surname (written as a person writes
 * it: "Dupont", "de la Fuente"), the others the given names, whichever comes first. Null when the name is not so.
 */
function capitalisedSurname(words: readonly string[]): TParsedName | null {
  const caps = words.map(isCapitalised);
  const given = words.filter((_, index) => !caps[index]);
  if (given.length === 0 || given.length === words.length || !given.every((word) => /^\p{Lu}\p{Ll}/u.test(word)))
    return null;
  const first = caps.indexOf(true);
  const last = caps.lastIndexOf(true);
  // One block of capitals, at the start or at the end.
  if (caps.slice(first, last + 1).includes(false) || (first !== 0 && last !== words.length - 1)) return null;
  const surname = words.filter((_, index) => caps[index]).map((word) => titleCaseWord(word, 1));
  return { firstName: given.join(' '), lastName: surname.join(' ') };
}

/** Splits the words of a name: given names up to the first particle ("Anne Marie | van Dijk"), else the first word. */
export function splitName(words: string[], emailLocal: string | null): TParsedName {
  const capitalised = capitalisedSurname(words);
  if (capitalised !== null) return capitalised;
  let given = 1;
  const particle = words.findIndex(
    (word, index) => index > 0 && PARTICLES.has(word.toLocaleLowerCase()) && word === word.toLocaleLowerCase(),
  );
  if (particle > 1) given = particle;
  // Four names without particles: two given names and two surnames ("María José García López").
  else if (particle === -1 && words.length === 4 && words.every((word) => !INITIAL_RE.test(word))) given = 2;
  // Initials after the given names are given names too ("J. R. Ewing", "Anna M. Smith").
  while (given < words.length - 1 && GIVEN_INITIALS_RE.test(words[given] ?? '')) given++;
  // "annemarie.devries@…" says where the given names end.
  if (emailLocal !== null) {
    const head = asciiLetters(emailLocal.split(/[._-]/u)[0] ?? '');
    for (let count = words.length - 1; count >= 1; count--) {
      if (head !== '' && asciiLetters(words.slice(0, count).join('')) === head) {
        given = count;
        break;
      }
    }
  }
  return { firstName: words.slice(0, given).join(' '), lastName: words.slice(given).join(' ') };
}

/** Reads one line as a person's name, or returns null. */
export function parseNameLine(line: string): TParsedName | null {
  const unlabelled = line.trim().replace(NAME_LABEL_RE, '');
  const segment = unlabelled.split(SEGMENT_SEPARATOR_RE)[0]?.trim() ?? '';
  const words = nameWords(segment);
  return words === null ? null : splitName(words, null);
}

function titleCaseWord(word: string, index: number): string {
  const lower = word.toLocaleLowerCase();
  if (index > 0 && PARTICLES.has(lower)) return lower;
  return lower
    .replace(
      /(^|[-'’])(\p{L})/gu,
      (_match, separator: string, letter: string) => separator + letter.toLocaleUpperCase(),
    )
    .replace(/^Mc(\p{Ll})/u, (_match, letter: string) => `Mc${letter.toLocaleUpperCase()}`);
}

/** "jane.doe@", "jane_van-der-berg@" → Jane / Doe, Jane / Van Der Berg; needs two alphabetic parts. */
export function nameFromEmail(email: string): TParsedName | null {
  const local = email.slice(0, email.indexOf('@')).replace(/\+.*$/u, '');
  const parts = local
    .split(/[._-]+/u)
    .map((part) => part.replace(/[^\p{L}]/gu, ''))
    .filter((part) => part.length > 0);
  if (parts.length < 2 || parts.length > 4) return null;
  const [first, ...rest] = parts.map((part) => titleCaseWord(part, 0));
  if (first === undefined || first.length < 2) return null;
  return { firstName: first, lastName: rest.join(' ') };
}

/** How well a name agrees with an email's local part: 3 both names, 2 the last name, 1 the first name, 0 neither. */
export function emailAgreement(name: TParsedName, emailLocal: string | null): number {
  if (emailLocal === null) return 0;
  const local = asciiLetters(emailLocal.replace(/\+.*$/u, ''));
  if (local.length < 2) return 0;
  const first = asciiLetters(name.firstName.split(' ')[0] ?? '');
  const lastWords = name.lastName.split(' ').filter((word) => !PARTICLES.has(word.toLocaleLowerCase()));
  const last = asciiLetters(lastWords.join(''));
  const lastWord = asciiLetters(lastWords[lastWords.length - 1] ?? '');
  const lastHit = (last.length >= 2 && local.includes(last)) || (lastWord.length >= 3 && local.includes(lastWord));
  const firstHit = first.length >= 2 && local.includes(first);
  const initialHit = lastHit && first !== '' && local.startsWith(first[0] ?? '');
  if (lastHit && (firstHit || initialHit)) return 3;
  if (lastHit) return 2;
  return firstHit ? 1 : 0;
}

/** The email's local part is exactly the name: "minnie.driver", "driver_minnie", "minniedriver". */
export function emailSpellsName(name: TParsedName, emailLocal: string | null): boolean {
  if (emailLocal === null) return false;
  const parts = emailLocal
    .replace(/\+.*$/u, '')
    .split(/[._-]+/u)
    .map(asciiLetters);
  const first = asciiLetters(name.firstName);
  const last = asciiLetters(name.lastName);
  if (first === '' || last === '') return false;
  const compact = parts.join('');
  return compact === first + last || compact === last + first;
}
