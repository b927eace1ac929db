import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import {
  JOB_TITLE_WORDS,
  LABEL_WORDS,
  NAME_LABELS,
  PLACE_REGION,
  STATE_CODES,
  asciiLetters,
  fold,
  headingKind,
  isFieldLabel,
  languageRegion,
  type NameLabel,
  type SectionKind,
} from './resume-vocabulary.ts';

/** The candidate details read from a resume's text. */
export interface CandidateFields {
  firstName: string;
  /** May be empty (a name of one word, or none found). */
  lastName: string;
  /** Lower-cased; null when the resume has none (the candidate then needs manual completion). */
  email: string | null;
  /** E.164 (`+31201234567`) when recognised, else the digits as written (with `+` if it had one). */
  phone: string | null;
  /** `https://www.linkedin.com/in/<handle>`. */
  linkedinUrl: string | null;
  /** Where the name came from: a line of the resume, the email's local part, or nowhere (`Unknown`). */
  nameSource: 'line' | 'email' | 'none';
}

export const UNKNOWN_FIRST_NAME = 'Unknown';

/** Only the start of a long text is searched: contact details sit at the top of a resume. */
const MAX_SCAN_LENGTH = 100_000;
/** How many non-empty lines from the top are considered for the name (more beside the contact details). */
const MAX_NAME_LINES = 40;
/** Lines of a resume read at most. */
const MAX_LINES = 5_000;
/** A name-like line scoring less than this (far down, in no contact block, unlike the email) is not taken. */
const MIN_NAME_SCORE = 20;

// ---------------------------------------------------------------------------
// Email

/**
 * A pragmatic address: the characters people really use in the local part, a
 * dotted domain of valid labels and an alphabetic TLD. The lookbehind keeps
 * matching linear (a match only starts at the start of a run of local-part
 * characters) and the lookahead stops "jane@example.co" matching inside
 * "jane@example.com" or "jane@example.comx".
 */
const EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])([A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})(?![A-Za-z0-9-]|\.[A-Za-z0-9])/g;

const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

export function findEmail(text: string): string | null {
  for (const match of text.matchAll(EMAIL_RE)) {
    const email = match[1];
    if (email === undefined) continue;
    const local = email.slice(0, email.lastIndexOf('@'));
    if (email.length <= MAX_EMAIL_LENGTH && local.length <= MAX_LOCAL_LENGTH) return email.toLowerCase();
  }
  return null;
}

/** Top-level domains common enough that an address ending in one is taken as complete, not as cut short. */
const COMMON_TLDS = new Set([
  'com', 'net', 'org', 'edu', 'gov', 'info', 'biz', 'io', 'co', 'eu', 'nl', 'be', 'de', 'at', 'ch', 'fr', 'es', 'pt', 'it',
  'pl', 'uk', 'ie', 'us', 'ca', 'au', 'no', 'se', 'dk', 'fi', 'cz', 'lu', 'me', 'dev', 'app', 'email', 'online', 'example',
]);

function topLevelDomain(email: string): string {
  return email.slice(email.lastIndexOf('.') + 1);
}

/**
 * An address a narrow column or table cell wrapped onto the next line ("hello@kowalczyk-" / "studio.example",
 * "jane@mail.exa" / "mple"): a word with an `@` (or a last word ending in "." or "-") joined with the bare lower-case
 * word that starts the next line, when that gives an address in a common domain and the word alone is none, or one
 * ending in an unusual domain.
 */
function wrappedEmail(line: { cells: string[] }, next: { cells: string[] } | undefined): string | null {
  // The rest of an address is written in lower case; a capitalised word on the next line is something else.
  const continuation = next?.cells[0];
  if (continuation === undefined || !/^@?[a-z0-9][a-z0-9._-]{0,62}$/u.test(continuation) || findEmail(continuation) !== null) return null;
  for (const cell of line.cells) {
    const words = cell.split(/\s+/u);
    for (const [index, word] of words.entries()) {
      const alone = findEmail(word);
      // Cut inside: an address without a domain yet ("b.etxe@ma"), or one in an unusual domain that ends its cell or
      // meets a neighbouring column's text ("…@correo.examp Profil"); or a cell's last word ending in "." or "-".
      const last = index === words.length - 1;
      const beforeColumn = last || /^[\p{Lu}\d+(]/u.test(words[index + 1] ?? '');
      const cut = word.includes('@') ? alone === null || beforeColumn : last && /[.-]$/u.test(word);
      if (!cut || (alone !== null && COMMON_TLDS.has(topLevelDomain(alone)))) continue;
      const joined = findEmail(word + continuation);
      if (joined !== null && COMMON_TLDS.has(topLevelDomain(joined))) return joined;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------
// LinkedIn

const LINKEDIN_RE =
  /(?<![\p{L}\p{N}.-])(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([\p{L}\p{N}_%-]{2,100})(?![\p{L}\p{N}_%-])/giu;

export function findLinkedinUrl(text: string): string | null {
  for (const match of text.matchAll(LINKEDIN_RE)) {
    const handle = match[1];
    if (handle !== undefined && /[\p{L}\p{N}]/u.test(handle)) return `https://www.linkedin.com/in/${handle}`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Phone

/** Used when neither the resume nor the caller names a country. */
const DEFAULT_REGION = 'NL';

/** An international number as written: `+` then 8–15 digits with the usual separators. */
const INTERNATIONAL_RE = /(?<![\w+])\+\d[\d ()./-]{5,24}\d(?![\w])/g;
/** A national number right after a label such as "Tel:" or "Mobile". */
const LABELLED_RE =
  /(?<![\p{L}])(?:phone|telephone|tel|telefoon|telefoonnummer|mobile|mobiel|mob|gsm|cell|telefon|handy|mobil|téléphone|tél|portable|teléfono|móvil|celular|komórka|kom|t|m)(?![\p{L}])\.?\s*[:.]?\s*(\(?\d[\d ()./-]{6,24}\d)(?![\w])/giu;

/** URLs, blanked out before looking for numbers (both patterns only start at the start of a run: linear). */
const URL_RE = /(?:https?:\/\/|www\.)\S+|(?<![\w.-])[\w.-]*linkedin\.com\/\S*/giu;

/** Characters of a line searched for a phone number. */
const MAX_PHONE_LINE_LENGTH = 500;
/** Digits a phone number has at least, without its country code. */
const MIN_NATIONAL_DIGITS = 7;

/** Year ranges and dates ("2015 - 2019", "01/2019", "12.03.1990") read as numbers in some numbering plans. */
function looksLikeDate(written: string): boolean {
  return (
    /^\s*(?:19|20)\d{2}\s*[-–—/]\s*(?:19|20)\d{2}\s*$/u.test(written) ||
    /\b\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}\b/u.test(written) ||
    /(?:^|\D)\d{1,2}\/(?:19|20)\d{2}(?!\d)/u.test(written) ||
    /^\s*(?:19|20)\d{2}\s*$/u.test(written)
  );
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

function blank(match: string): string {
  return ' '.repeat(match.length);
}

function withoutAddresses(text: string): string {
  return text.replace(EMAIL_RE, blank).replace(URL_RE, blank);
}

/** A number libphonenumber-js recognises as valid in `region` (or with its own country code), as E.164. */
function validPhone(text: string, region: string): string | null {
  try {
    for (const found of findPhoneNumbersInText(withoutAddresses(text), region as CountryCode)) {
      if (looksLikeDate(text.slice(found.startsAt, found.endsAt))) continue;
      // Valid but very short national numbers ("+49 10435") are postcodes and house numbers far more often.
      if (found.number.nationalNumber.length < MIN_NATIONAL_DIGITS) continue;
      return found.number.number;
    }
  } catch {
    // libphonenumber-js does not throw on text, but a parser must never fail the resume.
  }
  return null;
}

/** A number as written after a phone label or with a `+`: normalised when at least possible, else kept as digits. */
function writtenPhone(text: string, region: string): string | null {
  const cleaned = withoutAddresses(text);
  const candidates: { index: number; written: string }[] = [];
  for (const match of cleaned.matchAll(INTERNATIONAL_RE)) {
    const digits = digitsOf(match[0]);
    if (digits.length >= 8 && digits.length <= 15) {
      candidates.push({ index: match.index, written: `+${digits}` });
      break;
    }
  }
  for (const match of cleaned.matchAll(LABELLED_RE)) {
    const number = match[1];
    if (number === undefined || looksLikeDate(number)) continue;
    const digits = digitsOf(number);
    if (digits.length >= 8 && digits.length <= 15) {
      candidates.push({ index: match.index, written: number.trim().startsWith('+') ? `+${digits}` : digits });
      break;
    }
  }
  candidates.sort((a, b) => a.index - b.index);
  const first = candidates[0];
  if (first === undefined) return null;
  return possibleE164(first.written, region) ?? first.written;
}

function possibleE164(written: string, region: string): string | null {
  try {
    const parsed = parsePhoneNumberFromString(written, region as CountryCode);
    return parsed?.isPossible() ? parsed.number : null;
  } catch {
    return null;
  }
}

/**
 * The first phone number of a text: a valid number (national ones read in `region`), else one written as a number
 * after a label or with a `+`.
 */
export function findPhone(text: string, region: string = DEFAULT_REGION): string | null {
  return validPhone(text, region) ?? writtenPhone(text, region);
}

/** The phone number of the first line that has one: valid in the first region that gives one, else as written. */
function findPhoneInLines(allLines: readonly string[], regions: readonly string[]): { phone: string; line: number } | null {
  // A phone number sits on a short line; a line of thousands of digits is not worth a number parser's time.
  const lines = allLines.map((line) => line.slice(0, MAX_PHONE_LINE_LENGTH));
  for (const region of regions) {
    for (const [index, line] of lines.entries()) {
      const phone = validPhone(line, region);
      if (phone !== null) return { phone, line: index };
    }
  }
  // "(415) 555-0132" and "415-555-0132" are written the North American way whatever the address says.
  for (const [index, line] of lines.entries()) {
    if (!NANP_RE.test(line)) continue;
    const phone = validPhone(line, 'US');
    if (phone !== null) return { phone, line: index };
  }
  for (const [index, line] of lines.entries()) {
    const phone = writtenPhone(line, regions[0] ?? DEFAULT_REGION);
    if (phone !== null) return { phone, line: index };
  }
  return null;
}

const NANP_RE = /(?<![\d+])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?!\d)/u;

// ---------------------------------------------------------------------------
// Region named by the resume

const PLACE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}.'’-])(${[...PLACE_REGION.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('|')})(?![\\p{L}\\p{N}'’-])`,
  'giu',
);
const STATE_RE = /,\s*([A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?(?![\p{L}\p{N}])/gu;
const POSTCODE_RES: [RegExp, string][] = [
  [/(?<![\p{L}\p{N}])[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}(?![\p{L}\p{N}])/u, 'NL'],
  [/(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}(?![\p{L}\p{N}])/u, 'GB'],
  [/(?<![\p{L}\p{N}-])\d{2}-\d{3} \p{Lu}/u, 'PL'],
];

/** The country a line names (a city, a country, "City, ST", a postcode), as an ISO region. */
export function regionOfLine(line: string): string | null {
  for (const match of line.matchAll(PLACE_RE)) {
    const written = match[1] ?? '';
    // "US", "UK", "NYC" only in capitals ("contact us" is not a country).
    if (written.replace(/\./gu, '').length <= 3 && written !== written.toLocaleUpperCase()) continue;
    const region = PLACE_REGION.get(written.toLocaleLowerCase());
    if (region !== undefined) return region;
  }
  for (const match of line.matchAll(STATE_RE)) {
    const region = STATE_CODES.get(match[1] ?? '');
    if (region !== undefined) return region;
  }
  for (const [pattern, region] of POSTCODE_RES) if (pattern.test(line)) return region;
  return null;
}

// ---------------------------------------------------------------------------
// Name

/** Lower-case name particles ("Jane van der Berg", "Ana de los Santos", "Omar bin Laden"). */
const PARTICLES = new Set([
  'van', 'von', 'der', 'den', 'de', 'del', 'della', 'dello', 'di', 'da', 'das', 'dos', 'do', 'du', 'des', 'la', 'le',
  'lo', 'los', 'las', 'het', 'ter', 'ten', 'te', "'t", '’t', 'in', 'op', 'zu', 'zum', 'zur', 'bin', 'ibn', 'al', 'el',
  'y', 'e', 'st', 'af', 'av', 'vom', 'dei', 'degli',
]);

/** A word of a name: letters, with inner hyphens or apostrophes ("Anne-Marie", "O'Brien", "d'Ancona"). */
const NAME_WORD_RE = /^\p{L}+(?:[-'’]\p{L}+)*$/u;
/** An elided particle in front of a capital: "d'Ancona", "dell’Acqua". */
const ELIDED_PARTICLE_RE = /^(?:d|l|dell|degli|dall)['’]\p{Lu}/u;
/** An initial such as "J." (allowed, but not as the whole name). */
const INITIAL_RE = /^\p{Lu}\.$/u;
/** A label in front of a name: "Name: Jane Doe", "Naam: Jan de Vries". */
const NAME_LABEL_RE = /^(?:full\s+name|name|naam|volledige\s+naam)\s*[:\-–]\s*/iu;
/** Separators after which a name line goes on with something else: "Jane Doe | Engineer". */
const SEGMENT_SEPARATOR_RE = /\s*(?:[|•·–—\t,;:/]|\s-\s)\s*/u;
/** A document title in front of the name: "Curriculum Vitae – Jane Doe", "Lebenslauf von Anna Schmidt", "CV: …". */
const TITLE_PREFIX_RE =
  /^(?:curriculum\s+vitae|cv|resume|résumé|lebenslauf|levensloop|życiorys|currículum(?:\s+vitae)?)\s*(?:[-–—:|·•,]|\s(?:of|van|von|de|del|di)\s)\s*/iu;
/** Titles written before a name. */
const HONORIFIC_RE =
  /^(?:(?:dr|drs|ir|ing|mr|mrs|ms|mw|mevr|dhr|prof|mgr|mag|lic|sr|sra|srta|mme|mlle)\.?|dipl\.-ing\.|herr|frau|mevrouw|meneer|madame|monsieur|señor|señora|pan|pani)\s+/iu;
/** Degrees and suffixes written after a name. */
const SUFFIXES = new Set(['msc', 'bsc', 'ba', 'ma', 'mba', 'phd', 'llm', 'llb', 'md', 'meng', 'beng', 'jr', 'sr', 'ii', 'iii', 'cpa', 'pmp']);

interface ParsedName {
  firstName: string;
  lastName: string;
}

function isParticle(word: string, allCaps: boolean): boolean {
  const lower = word.toLocaleLowerCase();
  return PARTICLES.has(lower) && (word === lower || allCaps);
}

/** The words of a name, or null when `segment` is not one (a label, a title, a place, a sentence …). */
function nameWords(segment: string, allowOccupations = false): string[] | null {
  let text = segment.trim().replace(HONORIFIC_RE, '').trim();
  if (text === '' || text.length > 80 || /[@\d]/u.test(text)) return null;
  const folded = fold(text);
  if (PLACE_REGION.has(folded)) return null;

  const words = text.split(/\s+/u);
  while (words.length > 2 && SUFFIXES.has((words[words.length - 1] ?? '').toLocaleLowerCase().replace(/\./gu, ''))) words.pop();
  text = words.join(' ');
  if (words.length < 2 || words.length > 7) return null;
  const allCaps = text === text.toLocaleUpperCase() && /\p{Lu}{2}/u.test(text);

  let counted = 0;
  let places = 0;
  for (const [index, word] of words.entries()) {
    const lower = word.toLocaleLowerCase();
    if (LABEL_WORDS.has(lower) || (!allowOccupations && JOB_TITLE_WORDS.has(lower))) return null;
    if (PLACE_REGION.has(lower)) places++;
    if (INITIAL_RE.test(word)) continue;
    if (index > 0 && isParticle(word, allCaps)) continue;
    if (index > 0 && ELIDED_PARTICLE_RE.test(word) && NAME_WORD_RE.test(word)) {
      counted++;
      continue;
    }
    if (!NAME_WORD_RE.test(word)) return null;
    // Every other word starts with a capital ("Jane", "JANE"); lower-case words make a sentence, not a name.
    if (!/^\p{Lu}/u.test(word)) return null;
    counted++;
  }
  if (counted < 2 || counted > 5 || places === words.length) return null;
  // A place of several words inside ("Kraków Den Haag"): the words of a sidebar's address, not a name.
  for (let start = 0; start < words.length - 1; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + 4); end++) {
      if (PLACE_REGION.has(words.slice(start, end).join(' ').toLocaleLowerCase())) return null;
    }
  }
  // The first and the last word are names themselves, not particles or initials.
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined || INITIAL_RE.test(first) || INITIAL_RE.test(last)) return null;
  if (isParticle(last, allCaps)) return null;
  return allCaps ? words.map((word, index) => titleCaseWord(word, index)) : words;
}

/** Splits the words of a name: given names up to the first particle ("Anne Marie | van Dijk"), else the first word. */
function splitName(words: string[], emailLocal: string | null): ParsedName {
  let given = 1;
  const particle = words.findIndex((word, index) => index > 0 && PARTICLES.has(word.toLocaleLowerCase()) && word === word.toLocaleLowerCase());
  if (particle > 1) given = particle;
  // Four names without particles: two given names and two surnames ("María José García López").
  else if (particle === -1 && words.length === 4 && words.every((word) => !INITIAL_RE.test(word))) given = 2;
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
export function parseNameLine(line: string): ParsedName | null {
  const unlabelled = line.trim().replace(NAME_LABEL_RE, '');
  const segment = unlabelled.split(SEGMENT_SEPARATOR_RE)[0]?.trim() ?? '';
  const words = nameWords(segment);
  return words === null ? null : splitName(words, null);
}

function titleCaseWord(word: string, index: number): string {
  const lower = word.toLocaleLowerCase();
  if (index > 0 && PARTICLES.has(lower)) return lower;
  return lower
    .replace(/(^|[-'’])(\p{L})/gu, (_match, separator: string, letter: string) => separator + letter.toLocaleUpperCase())
    .replace(/^Mc(\p{Ll})/u, (_match, letter: string) => `Mc${letter.toLocaleUpperCase()}`);
}

/** "jane.doe@", "jane_van-der-berg@" → Jane / Doe, Jane / Van Der Berg; needs two alphabetic parts. */
export function nameFromEmail(email: string): ParsedName | null {
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
function emailAgreement(name: ParsedName, emailLocal: string | null): number {
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
function emailSpellsName(name: ParsedName, emailLocal: string | null): boolean {
  if (emailLocal === null) return false;
  const parts = emailLocal.replace(/\+.*$/u, '').split(/[._-]+/u).map(asciiLetters);
  const first = asciiLetters(name.firstName);
  const last = asciiLetters(name.lastName);
  if (first === '' || last === '') return false;
  const compact = parts.join('');
  return compact === first + last || compact === last + first;
}

// ---------------------------------------------------------------------------
// The resume as lines in sections

type Zone = 'top' | SectionKind;

interface ResumeLine {
  /** Position among the non-empty lines. */
  index: number;
  /** Position within its block (a column or a page region the text extraction marked with a form feed). */
  rank: number;
  text: string;
  cells: string[];
  zone: Zone;
  heading: boolean;
}

/** Lines of a resume with the section each lies in; a form-feed line starts a new block (another column). */
function readLines(text: string): ResumeLine[] {
  const lines: ResumeLine[] = [];
  let zone: Zone = 'top';
  let rank = 0;
  for (const raw of text.split('\n')) {
    if (raw.includes('\f')) {
      zone = 'top';
      rank = 0;
    }
    const line = raw.replace(/\f/gu, '').trim();
    if (line === '') continue;
    const cells = line.split('\t').map((cell) => cell.trim()).filter((cell) => cell !== '');
    // A heading may share its line with the first line of its section ("REFERENCES ⇥ Daniel Brooks, …").
    const kind = headingKind(line.replace(/\t/gu, ' ')) ?? (cells.length > 1 ? headingKind(cells[0] ?? '') : null);
    if (kind !== null && kind !== 'title') zone = kind;
    const heading = kind !== null && cells.length === 1;
    lines.push({
      index: lines.length,
      rank: rank++,
      text: line,
      cells: heading || kind === null || cells.length === 1 ? cells : cells.slice(1),
      zone,
      heading,
    });
    if (lines.length >= MAX_LINES) break;
  }
  return lines;
}

function isOwnZone(zone: Zone): boolean {
  return zone === 'top' || zone === 'personal' || zone === 'title';
}

/** The candidate's own lines first (top, contact, personal details), then the rest; references never. */
function byPriority(lines: readonly ResumeLine[]): ResumeLine[] {
  return [...lines.filter((line) => isOwnZone(line.zone)), ...lines.filter((line) => line.zone === 'other')];
}

/** Values given with a name label on a line ("Naam: Jan de Vries", "Vorname ⇥ Anna"), the next line for a lone label. */
function labelledNames(line: ResumeLine, next: ResumeLine | undefined): { label: NameLabel; value: string }[] {
  const found: { label: NameLabel; value: string }[] = [];
  for (const [index, cell] of line.cells.entries()) {
    const colon = /^([^:：]{1,40}?)\s*[:：]\s*(.*)$/u.exec(cell);
    const label = NAME_LABELS.get(fold(colon?.[1] ?? cell));
    if (label === undefined) continue;
    let value = colon?.[2]?.trim() ?? '';
    if (value === '') value = line.cells[index + 1] ?? (line.cells.length === 1 ? (next?.cells[0] ?? '') : '');
    if (value !== '' && !isFieldLabel(value) && headingKind(value) === null) found.push({ label, value });
  }
  return found;
}

function labelledName(values: { label: NameLabel; value: string }[], emailLocal: string | null): ParsedName | null {
  const part = (label: NameLabel): string | undefined => values.find((value) => value.label === label)?.value;
  const first = part('first');
  const last = part('last');
  if (first !== undefined && last !== undefined) {
    const words = nameWords(`${first} ${last}`);
    if (words !== null) {
      const firstCount = first.split(/\s+/u).length;
      return { firstName: words.slice(0, firstCount).join(' '), lastName: words.slice(firstCount).join(' ') };
    }
  }
  for (const value of values) {
    const words = nameWords(value.value.split(SEGMENT_SEPARATOR_RE)[0] ?? '');
    if (words !== null) return splitName(words, emailLocal);
  }
  return null;
}

/** Cells that hold the value of another field ("Woonplaats ⇥ Utrecht", "City: Kraków"): never a name. */
function valueCells(line: ResumeLine, previous: ResumeLine | undefined): Set<number> {
  const skipped = new Set<number>();
  if (previous !== undefined && previous.cells.length === 1 && isFieldLabel(previous.cells[0] ?? '')) skipped.add(0);
  for (const [index, cell] of line.cells.entries()) {
    const colon = /^([^:：]{1,40}?)\s*[:：]/u.exec(cell);
    if (colon !== null && isFieldLabel(colon[1] ?? '')) skipped.add(index);
    if (isFieldLabel(cell)) {
      skipped.add(index);
      skipped.add(index + 1);
    }
  }
  return skipped;
}

/** Points for the email agreeing with a name on none, the first, the last or both of its names. */
const EMAIL_AGREEMENT_POINTS = [0, 15, 35, 60];

/**
 * Points for where a name-like line is: in the candidate's own part of the resume, at the top of its block (a column),
 * near the top of the resume, beside the contact details; and for the email agreeing with it.
 */
function placeScore(line: ResumeLine, agreement: number, nearContact: boolean): number {
  return (
    (isOwnZone(line.zone) ? 20 : 0) +
    Math.max(0, 24 - 3 * line.rank) +
    Math.max(0, 10 - line.index * 0.5) +
    (nearContact ? 6 : 0) +
    (EMAIL_AGREEMENT_POINTS[agreement] ?? 0)
  );
}

/**
 * The candidate's name: a labelled one ("Naam: …", "Vorname/Nachname") first, else the best-placed name-like line
 * outside the references.
 */
function findCandidateName(
  lines: readonly ResumeLine[],
  emailLocal: string | null,
  contactLines: ReadonlySet<number>,
): ParsedName | null {
  let best: { name: ParsedName; score: number } | undefined;
  const consider = (name: ParsedName, score: number): void => {
    if (best === undefined || score > best.score) best = { name, score };
  };

  // "Voornaam ⇥ Sanne" and "Achternaam ⇥ van der Meer" may be on lines of their own: gather the labels first.
  const labels: { label: NameLabel; value: string; line: ResumeLine }[] = [];
  for (const [position, line] of lines.entries()) {
    if (line.zone === 'references' || line.heading || line.index >= MAX_NAME_LINES * 2) continue;
    for (const found of labelledNames(line, lines[position + 1])) labels.push({ ...found, line });
  }
  const labelled = labelledName(labels, emailLocal);
  if (labelled !== null) consider(labelled, 100 + emailAgreement(labelled, emailLocal) * 20);

  for (const [position, line] of lines.entries()) {
    if (line.zone === 'references' || line.heading) continue;
    const near = [...contactLines].some((index) => Math.abs(index - line.index) <= 5);
    if (line.index >= MAX_NAME_LINES && !near) continue;
    const previous = lines[position - 1];
    if (labels.some((found) => found.line === line)) continue;

    // A long name wrapped by a narrow column: "Grzegorz" / "Brzęczyszczykiewicz" at the top of a block.
    const next = lines[position + 1];
    if (line.rank <= 1 && line.cells.length === 1 && next !== undefined && next.cells.length === 1 && !next.heading) {
      const words = nameWords(`${line.cells[0]} ${next.cells[0]}`);
      if (words !== null && (line.cells[0] ?? '').split(/\s+/u).length === 1) {
        const name = splitName(words, emailLocal);
        if (isOwnZone(line.zone)) consider(name, placeScore(line, emailAgreement(name, emailLocal), near) + 4);
      }
    }

    const skipped = valueCells(line, previous);
    for (const [cellIndex, cell] of line.cells.entries()) {
      if (skipped.has(cellIndex)) continue;
      // What follows the name in its cell is cut off: a separator ("Jane Doe | Engineer"), or an email or number that
      // a neighbouring column put on the same line ("María José García López mjgarcia@…").
      const parts = cell.replace(TITLE_PREFIX_RE, '').split(SEGMENT_SEPARATOR_RE);
      parts[0] = (parts[0] ?? '').split(/\s+(?=\S*[@\d+])/u)[0] ?? '';
      const strict = nameWords(parts[0] ?? '');
      const words = strict ?? nameWords(parts[0] ?? '', true);
      if (words === null) continue;
      const name = splitName(words, emailLocal);
      const agreement = emailAgreement(name, emailLocal);
      // A surname that is also an occupation ("Minnie Driver") only when the email spells the name out.
      if (strict === null && !emailSpellsName(name, emailLocal)) continue;
      // In a section of its own (skills, experience …) a name-like line is a skill or a company, unless the email says otherwise.
      if (!isOwnZone(line.zone) && agreement < 2) continue;
      const alone = line.cells.length === 1 && parts.length === 1;
      consider(name, placeScore(line, agreement, near) + (alone ? 8 : 0) + (cellIndex === 0 ? 4 : 0));
    }
  }
  const chosen = best as { name: ParsedName; score: number } | undefined;
  return chosen !== undefined && chosen.score >= MIN_NAME_SCORE ? chosen.name : null;
}

/**
 * The name the email stands for, as the resume writes it (with its accents): any line that agrees with the email on
 * both names, outside the references.
 */
function nameMatchingEmail(lines: readonly ResumeLine[], emailLocal: string): ParsedName | null {
  for (const line of lines) {
    if (line.zone === 'references') continue;
    for (const cell of line.cells) {
      for (const part of cell.split(SEGMENT_SEPARATOR_RE)) {
        const strict = nameWords(part);
        // A surname that is also an occupation ("Minnie Driver") is a name when the email spells it out.
        const words = strict ?? nameWords(part, true);
        if (words === null) continue;
        const name = splitName(words, emailLocal);
        if (strict !== null ? emailAgreement(name, emailLocal) === 3 : emailSpellsName(name, emailLocal)) return name;
      }
    }
  }
  return null;
}

// ---------------------------------------------------------------------------

export interface TExtractOptions {
  /** ISO 3166-1 alpha-2 region for national phone numbers when the resume names no country (the tenant's). */
  defaultRegion?: string;
}

/**
 * Finds the candidate's name, email, phone number and LinkedIn profile in the text of a resume, reading it as a
 * person would: the candidate's own details (top of the resume, contact block, personal details) before anything
 * else, never those in a references section; a name is not a label, a heading, a job title or a place. Never throws;
 * every field it cannot find is null (the name falls back to the email's local part, then to "Unknown").
 */
export function extractCandidateFields(text: string, options: TExtractOptions = {}): CandidateFields {
  const scanned = typeof text === 'string' ? text.slice(0, MAX_SCAN_LENGTH).normalize('NFC').replace(/\r\n?/g, '\n') : '';
  const lines = safely(() => readLines(scanned)) ?? [];
  const ordered = byPriority(lines);

  let email: string | null = null;
  let emailLine: number | null = null;
  for (const line of ordered) {
    email = safely(() => {
      const found = findEmail(line.text);
      if (found !== null && COMMON_TLDS.has(topLevelDomain(found))) return found;
      return wrappedEmail(line, lines[line.index + 1]) ?? found;
    });
    if (email !== null) {
      emailLine = line.index;
      break;
    }
  }
  let linkedinUrl: string | null = null;
  for (const line of ordered) {
    linkedinUrl = safely(() => findLinkedinUrl(line.text));
    if (linkedinUrl !== null) break;
  }
  const emailLocal = email === null ? null : email.slice(0, email.lastIndexOf('@'));

  // The phone number is read with the country of the candidate's address, when the contact details name one.
  const contactLines = new Set<number>();
  if (emailLine !== null) contactLines.add(emailLine);
  const regionFrom = (candidates: readonly ResumeLine[]): string | null => {
    for (const line of candidates) {
      const region = safely(() => regionOfLine(line.text));
      if (region !== null) return region;
    }
    return null;
  };
  const near = (line: ResumeLine): boolean => emailLine !== null && Math.abs(line.index - emailLine) <= 4;
  const fallbackRegion = normaliseRegion(options.defaultRegion) ?? DEFAULT_REGION;
  const ownLines = lines.filter((line) => line.zone !== 'references' && (isOwnZone(line.zone) || near(line)));
  const named = regionFrom(ownLines.filter((line) => line.index < MAX_NAME_LINES * 2 || near(line)));
  // Last, the country of the resume's language: a Dutch resume's "020 123 4567" is Dutch when nothing else fits.
  const spoken = safely(() => languageRegion(scanned));
  // Then any place the resume names (a past employer's city): "020 7946 0321" beside "London" is British.
  const mentioned = regionFrom(lines.filter((line) => line.zone !== 'references'));
  const regions = [...new Set([named ?? fallbackRegion, fallbackRegion, spoken, mentioned].filter((region) => region !== null))];
  const phoneFound = safely(() => findPhoneInLines(ordered.map((line) => line.text), regions));
  const phone = phoneFound?.phone ?? null;
  if (phoneFound !== null) {
    const line = ordered[phoneFound.line];
    if (line !== undefined) contactLines.add(line.index);
  }

  const fromLine = safely(() => findCandidateName(lines, emailLocal, contactLines));
  if (fromLine !== null) return { ...fromLine, email, phone, linkedinUrl, nameSource: 'line' };
  if (emailLocal !== null) {
    const written = safely(() => nameMatchingEmail(lines, emailLocal));
    if (written !== null) return { ...written, email, phone, linkedinUrl, nameSource: 'line' };
  }
  const fromEmail = email === null ? null : safely(() => nameFromEmail(email));
  if (fromEmail !== null) return { ...fromEmail, email, phone, linkedinUrl, nameSource: 'email' };
  return { firstName: UNKNOWN_FIRST_NAME, lastName: '', email, phone, linkedinUrl, nameSource: 'none' };
}

function normaliseRegion(region: string | undefined): string | null {
  if (region === undefined) return null;
  const upper = region.trim().toUpperCase();
  return /^[A-Z]{2}$/u.test(upper) ? upper : null;
}

function safely<T>(find: () => T | null): T | null {
  try {
    return find();
  } catch {
    return null;
  }
}
