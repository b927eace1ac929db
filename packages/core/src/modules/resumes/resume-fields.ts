import { asciiLetters, languageRegion } from './resume-vocabulary.ts';
import {
  COMMON_TLDS,
  findEmail,
  findEmailWithQAsAt,
  findLinkedinUrl,
  topLevelDomain,
  wrappedEmail,
} from './resume-email.ts';
import { DEFAULT_REGION, findPhoneInLines } from './resume-phone.ts';
import { regionOfLine } from './resume-region.ts';
import { nameFromEmail, type TParsedName } from './resume-name.ts';
import {
  MAX_NAME_LINES,
  type TResumeLine,
  byPriority,
  findCandidateName,
  isOwnZone,
  nameMatchingEmail,
  readLines,
} from './resume-lines.ts';

export { findEmail, findLinkedinUrl } from './resume-email.ts';
export { findPhone } from './resume-phone.ts';
export { regionOfLine } from './resume-region.ts';
export { nameFromEmail, parseNameLine } from './resume-name.ts';

/** The candidate details read from a resume's text. */
export interface TCandidateFields {
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

/** Country-code top-level domains of the countries whose resumes we read most, and their regions. */
const DOMAIN_REGION: Readonly<Record<string, string>> = {
  uk: 'GB',
  nl: 'NL',
  de: 'DE',
  fr: 'FR',
  es: 'ES',
  it: 'IT',
  pl: 'PL',
  ie: 'IE',
  be: 'BE',
  at: 'AT',
  ch: 'CH',
  pt: 'PT',
  se: 'SE',
  no: 'NO',
  dk: 'DK',
  fi: 'FI',
  cz: 'CZ',
  lu: 'LU',
};

/** Only the start of a long text is searched: contact details sit at the top of a resume. */
const MAX_SCAN_LENGTH = 100_000;

export interface TExtractOptions {
  /** ISO 3166-1 alpha-2 region for national phone numbers when the resume names no country (the tenant's). */
  defaultRegion?: string;
  /** The text was read by OCR: an email that misses the name by one misread letter is read as the name spells it. */
  ocr?: boolean;
}

/**
 * Finds the candidate's name, email, phone number and LinkedIn profile in the text of a resume, reading it as a
 * person would: the candidate's own details (top of the resume, contact block, personal details) before anything
 * else, never those in a references section; a name is not a label, a heading, a job title or a place. Never throws;
 * every field it cannot find is null (the name falls back to the email's local part, then to "Unknown").
 */
export function extractCandidateFields(text: string, options: TExtractOptions = {}): TCandidateFields {
  const scanned =
    typeof text === 'string' ? text.slice(0, MAX_SCAN_LENGTH).normalize('NFC').replace(/\r\n?/g, '\n') : '';
  const lines = safely(() => readLines(scanned)) ?? [];
  const ordered = byPriority(lines);

  let email: string | null = null;
  let emailLine: number | null = null;
  for (const line of ordered) {
    email = safely(() => {
      const found = findEmail(line.text, { ocr: options.ocr === true });
      if (found !== null && COMMON_TLDS.has(topLevelDomain(found))) return found;
      return wrappedEmail(line, lines[line.index + 1]) ?? found;
    });
    if (email !== null) {
      emailLine = line.index;
      break;
    }
  }
  // No address at all in an OCR'd text: one whose "@" was read as "Q" ("grzegorz.nowakQprzyklad.pl").
  if (email === null && options.ocr === true) {
    for (const line of ordered) {
      email = safely(() => findEmailWithQAsAt(line.text));
      if (email !== null) {
        emailLine = line.index;
        break;
      }
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
  const regionFrom = (candidates: readonly TResumeLine[]): string | null => {
    for (const line of candidates) {
      const region = safely(() => regionOfLine(line.text));
      if (region !== null) return region;
    }
    return null;
  };
  const near = (line: TResumeLine): boolean => emailLine !== null && Math.abs(line.index - emailLine) <= 4;
  const fallbackRegion = normaliseRegion(options.defaultRegion) ?? DEFAULT_REGION;
  const ownLines = lines.filter((line) => line.zone !== 'references' && (isOwnZone(line.zone) || near(line)));
  const named = regionFrom(ownLines.filter((line) => line.index < MAX_NAME_LINES * 2 || near(line)));
  // Last, the country of the resume's language: a Dutch resume's "020 123 4567" is Dutch when nothing else fits.
  const spoken = safely(() => languageRegion(scanned));
  // Then any place the resume names (a past employer's city): "020 7946 0321" beside "London" is British.
  const mentioned = regionFrom(lines.filter((line) => line.zone !== 'references'));
  // A personal address at a country's domain ("…@example.co.uk") says where the candidate lives, when the address does not.
  const domainRegion = email === null ? null : (DOMAIN_REGION[topLevelDomain(email)] ?? null);
  const regions = [
    ...new Set([named, domainRegion, fallbackRegion, spoken, mentioned].filter((region) => region !== null)),
  ];
  const phoneFound = safely(() =>
    findPhoneInLines(
      ordered.map((line) => line.text),
      regions,
      { ocr: options.ocr === true },
    ),
  );
  const phone = phoneFound?.phone ?? null;
  if (phoneFound !== null) {
    const line = ordered[phoneFound.line];
    if (line !== undefined) contactLines.add(line.index);
  }

  const fromLine = safely(() => findCandidateName(lines, emailLocal, contactLines));
  const repaired = (name: TParsedName): string | null =>
    options.ocr === true && email !== null
      ? (safely(() =>
          emailAsNameSpellsIt(email as string, name, emailLine === null ? '' : (lines[emailLine]?.text ?? '')),
        ) ?? email)
      : email;
  if (fromLine !== null) return { ...fromLine, email: repaired(fromLine), phone, linkedinUrl, nameSource: 'line' };
  if (emailLocal !== null) {
    const written = safely(() => nameMatchingEmail(lines, emailLocal));
    if (written !== null) return { ...written, email, phone, linkedinUrl, nameSource: 'line' };
  }
  const fromEmail = email === null ? null : safely(() => nameFromEmail(email));
  if (fromEmail !== null) return { ...fromEmail, email, phone, linkedinUrl, nameSource: 'email' };
  return { firstName: UNKNOWN_FIRST_NAME, lastName: '', email, phone, linkedinUrl, nameSource: 'none' };
}

/** Letters OCR takes for one another ("rhys" read as "thys", "lchevalier" as "ichevalier", "mlambert" as "mtambert"). */
const OCR_CONFUSABLE = new Set([
  'rt',
  'lt',
  'li',
  'l1',
  'i1',
  'o0',
  'ec',
  'nh',
  'uv',
  's5',
  'gq',
  'mn',
  'ao',
  'il',
  'jl',
  'ij',
]);

/** Letters so thin that OCR reads one where there is none, or none where there is one. */
const THIN_LETTERS = new Set(['i', 'l', 'j', '1']);

function confusable(a: string, b: string): boolean {
  return OCR_CONFUSABLE.has(a + b) || OCR_CONFUSABLE.has(b + a);
}

/**
 * An OCR'd email whose local part misses one of the usual spellings of the candidate's name (first.last, flast, …) by
 * one letter OCR confuses, by a thin letter more or less, or by the first name that OCR split off with a space ("sergio jimeneztorres@…"): the email
 * as the name spells it. Null when nothing needs repair.
 */
function emailAsNameSpellsIt(email: string, name: TParsedName, line: string): string | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at);
  const first = asciiLetters(name.firstName.split(/\s+/u)[0] ?? '');
  const last = asciiLetters(name.lastName);
  const lastWord = asciiLetters(name.lastName.split(/\s+/u).at(-1) ?? '');
  if (first.length < 2 || last.length < 2) return null;
  const forms = new Set<string>();
  for (const surname of new Set([last, lastWord])) {
    for (const form of [
      `${first}.${surname}`,
      `${first}${surname}`,
      `${first[0]}${surname}`,
      `${first[0]}.${surname}`,
      `${first}_${surname}`,
      `${first}-${surname}`,
      `${surname}.${first}`,
    ]) {
      forms.add(form);
    }
  }
  if (forms.has(local)) return null;
  for (const form of forms) {
    if (form.length !== local.length) continue;
    const differences = [...form].flatMap((letter, index) =>
      letter === local[index] ? [] : [[letter, local[index] ?? '']],
    );
    if (differences.length === 1 && confusable(differences[0]![0]!, differences[0]![1]!)) return form + domain;
  }
  // A thin letter OCR split off or lost ("grzegorzlewandowska" read as "grzegorzilewandowska" or "grzegorzewandowska").
  for (const form of forms) {
    const [longer, shorter] = form.length > local.length ? [form, local] : [local, form];
    if (longer.length !== shorter.length + 1) continue;
    // Inside a word only: "jl.darcy" is Jean-Luc's initials, not "j.darcy" with an "l" more.
    for (let at = 1; at < longer.length - 1; at++) {
      const inside = /[a-z]/u.test(longer[at - 1]!) && /[a-z]/u.test(longer[at + 1]!);
      if (inside && THIN_LETTERS.has(longer[at]!) && longer.slice(0, at) + longer.slice(at + 1) === shorter)
        return form + domain;
    }
  }
  const split = new RegExp(`(?<![\\p{L}])(\\p{L}+)\\s+${escapeRegExp(email)}`, 'iu').exec(line);
  if (split !== null) {
    const joined = `${asciiLetters(split[1] ?? '')}.${local}`;
    if (forms.has(joined)) return joined + domain;
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
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
