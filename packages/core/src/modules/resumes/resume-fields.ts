import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js';

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
/** How many non-empty lines from the top are considered for the name. */
const MAX_NAME_LINES = 25;

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

const DEFAULT_REGION = 'NL';

/** An international number as written: `+` then 8–15 digits with the usual separators. */
const INTERNATIONAL_RE = /(?<![\w+])\+\d[\d ().\/-]{5,24}\d(?![\w])/g;
/** A national number right after a label such as "Tel:" or "Mobile". */
const LABELLED_RE =
  /\b(?:phone|telephone|tel|telefoon|telefoonnummer|mobile|mobiel|mob|gsm|cell|t|m)\b\.?\s*[:.]?\s*(\(?\d[\d ().\/-]{6,24}\d)(?![\w])/giu;

/** URLs, blanked out before looking for numbers (both patterns only start at the start of a run: linear). */
const URL_RE = /(?:https?:\/\/|www\.)\S+|(?<![\w.-])[\w.-]*linkedin\.com\/\S*/giu;

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

export function findPhone(text: string): string | null {
  // Addresses and URLs are full of digit runs that are not phone numbers.
  const cleaned = text.replace(EMAIL_RE, blank).replace(URL_RE, blank);

  try {
    const found = findPhoneNumbersInText(cleaned, DEFAULT_REGION);
    const first = found[0];
    if (first !== undefined) return first.number.number;
  } catch {
    // libphonenumber-js does not throw on text, but a parser must never fail the resume.
  }

  // Not a number libphonenumber-js recognises as valid (e.g. a range it does not know): normalise it when it is at
  // least a possible number, else keep it as written.
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
    if (number === undefined) continue;
    const digits = digitsOf(number);
    if (digits.length >= 8 && digits.length <= 15) {
      candidates.push({ index: match.index, written: number.trim().startsWith('+') ? `+${digits}` : digits });
      break;
    }
  }
  candidates.sort((a, b) => a.index - b.index);
  const first = candidates[0];
  if (first === undefined) return null;
  return possibleE164(first.written) ?? first.written;
}

function possibleE164(written: string): string | null {
  try {
    const parsed = parsePhoneNumberFromString(written, DEFAULT_REGION);
    return parsed !== undefined && parsed.isPossible() ? parsed.number : null;
  } catch {
    return null;
  }
}

function blank(match: string): string {
  return ' '.repeat(match.length);
}

// ---------------------------------------------------------------------------
// Name

/** Lower-case name particles ("Jane van der Berg", "Ana de los Santos", "Omar bin Laden"). */
const PARTICLES = new Set([
  'van', 'von', 'der', 'den', 'de', 'del', 'della', 'dello', 'di', 'da', 'das', 'dos', 'do', 'du', 'des', 'la', 'le',
  'lo', 'los', 'las', 'het', 'ter', 'ten', 'te', "'t", '’t', 'in', 'op', 'zu', 'zum', 'bin', 'ibn', 'al', 'el', 'y',
  'e', 'st', 'af', 'av',
]);

/** Words that show a line is a heading or a sentence, not a name. */
const NOT_NAME_WORDS = new Set([
  'curriculum', 'vitae', 'vita', 'resume', 'résumé', 'resumé', 'cv', 'lebenslauf', 'levensloop', 'profile', 'profiel',
  'summary', 'samenvatting', 'contact', 'contactgegevens', 'information', 'informatie', 'personal', 'persoonlijke',
  'personalia', 'details', 'gegevens', 'experience', 'ervaring', 'werkervaring', 'education', 'opleiding',
  'opleidingen', 'skills', 'vaardigheden', 'competences', 'competenties', 'languages', 'talen', 'address', 'adres',
  'phone', 'telephone', 'telefoon', 'mobile', 'email', 'e-mail', 'page', 'pagina', 'objective', 'references',
  'referenties', 'hobbies', 'interests', 'interesses', 'certifications', 'certificaten', 'projects', 'projecten',
  'employment', 'history', 'work', 'about', 'me', 'over', 'mij', 'name', 'naam', 'date', 'birth', 'nationality',
  'linkedin', 'github', 'website', 'the', 'and', 'of', 'en', 'for', 'voor', 'with', 'met', 'to', 'at', 'senior',
  'junior', 'medior', 'manager', 'engineer', 'developer', 'consultant', 'director', 'assistant', 'specialist',
  'designer', 'analyst', 'officer', 'software', 'marketing', 'netherlands',
  'nederland', 'amsterdam', 'rotterdam', 'utrecht', 'street', 'straat', 'road', 'avenue', 'confidential',
]);

/** A word of a name: letters, with inner hyphens or apostrophes ("Anne-Marie", "O'Brien", "d'Ancona"). */
const NAME_WORD_RE = /^\p{L}+(?:[-'’]\p{L}+)*$/u;
/** An initial such as "J." (allowed, but not as the whole name). */
const INITIAL_RE = /^\p{Lu}\.$/u;
/** A label in front of a name: "Name: Jane Doe", "Naam: Jan de Vries". */
const NAME_LABEL_RE = /^(?:full\s+name|name|naam|volledige\s+naam)\s*[:\-–]\s*/iu;
/** Separators after which a name line goes on with something else: "Jane Doe | Engineer". */
const SEGMENT_SEPARATOR_RE = /\s*(?:[|•·–—\t,;:/]|\s-\s)\s*/u;

interface ParsedName {
  firstName: string;
  lastName: string;
}

/** Reads one line as a person's name, or returns null. */
export function parseNameLine(line: string): ParsedName | null {
  const unlabelled = line.trim().replace(NAME_LABEL_RE, '');
  const segment = unlabelled.split(SEGMENT_SEPARATOR_RE)[0]?.trim() ?? '';
  if (segment === '' || segment.length > 80) return null;
  if (/[@\d]/u.test(segment)) return null;

  const words = segment.split(/\s+/u);
  if (words.length < 2 || words.length > 7) return null;
  const allCaps = segment === segment.toLocaleUpperCase() && /\p{Lu}{2}/u.test(segment);

  let nameWords = 0;
  for (const [index, word] of words.entries()) {
    const lower = word.toLocaleLowerCase();
    if (NOT_NAME_WORDS.has(lower)) return null;
    if (INITIAL_RE.test(word)) continue;
    if (!NAME_WORD_RE.test(word)) return null;
    if (index > 0 && PARTICLES.has(lower) && (word === lower || allCaps)) continue;
    // Every other word starts with a capital ("Jane", "JANE"); lower-case words make a sentence, not a name.
    if (!/^\p{Lu}/u.test(word)) return null;
    nameWords++;
  }
  if (nameWords < 2 || nameWords > 4) return null;
  // The first and the last word are names themselves, not particles or initials.
  const first = words[0];
  const last = words[words.length - 1];
  if (first === undefined || last === undefined || INITIAL_RE.test(first) || INITIAL_RE.test(last)) return null;
  if (PARTICLES.has(last.toLocaleLowerCase()) && (last === last.toLocaleLowerCase() || allCaps)) return null;

  const cased = allCaps ? words.map((word, index) => titleCaseWord(word, index)) : words;
  const [firstName, ...rest] = cased;
  if (firstName === undefined) return null;
  return { firstName, lastName: rest.join(' ') };
}

function titleCaseWord(word: string, index: number): string {
  const lower = word.toLocaleLowerCase();
  if (index > 0 && PARTICLES.has(lower)) return lower;
  return lower.replace(/(^|[-'’])(\p{L})/gu, (_match, separator: string, letter: string) => separator + letter.toLocaleUpperCase());
}

export function findName(text: string): ParsedName | null {
  let seen = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (++seen > MAX_NAME_LINES) break;
    const name = parseNameLine(line);
    if (name !== null) return name;
  }
  return null;
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

// ---------------------------------------------------------------------------

/**
 * Finds the candidate's name, email, phone number and LinkedIn profile in the
 * text of a resume. Never throws; every field it cannot find is null (the name
 * falls back to the email's local part, then to "Unknown").
 */
export function extractCandidateFields(text: string): CandidateFields {
  const scanned = typeof text === 'string' ? text.slice(0, MAX_SCAN_LENGTH).normalize('NFC').replace(/\r\n?/g, '\n') : '';

  const email = safely(() => findEmail(scanned));
  const phone = safely(() => findPhone(scanned));
  const linkedinUrl = safely(() => findLinkedinUrl(scanned));

  const fromLine = safely(() => findName(scanned));
  if (fromLine !== null) return { ...fromLine, email, phone, linkedinUrl, nameSource: 'line' };
  const fromEmail = email === null ? null : safely(() => nameFromEmail(email));
  if (fromEmail !== null) return { ...fromEmail, email, phone, linkedinUrl, nameSource: 'email' };
  return { firstName: UNKNOWN_FIRST_NAME, lastName: '', email, phone, linkedinUrl, nameSource: 'none' };
}

function safely<T>(find: () => T | null): T | null {
  try {
    return find();
  } catch {
    return null;
  }
}
