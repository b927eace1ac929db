import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { EMAIL_RE } from './resume-email.ts';

/* The phone number written in a resume, read with the country it is most likely in. */

/** Used when neither the resume nor the caller names a country. */
export const DEFAULT_REGION = 'NL';

/** An international number as written: `+` then 8–15 digits with the usual separators. */
const INTERNATIONAL_RE = /(?<![\w+])\+\d[\d ()./-]{5,24}\d(?![\w])/g;
/** A national number right after a label such as "Tel:" or "Mobile". */
const PHONE_LABEL =
  '(?:phone|telephone|tel|telefoon|telefoonnummer|mobile|mobiel|mob|gsm|cell|telefon|handy|mobil|téléphone|tél|portable|teléfono|móvil|celular|komórka|kom|t|m)(?![\\p{L}])\\.?\\s*[:.]?\\s*';
const LABELLED_RE = new RegExp(`(?<![\\p{L}])${PHONE_LABEL}(\\(?\\d[\\d ()./-]{6,24}\\d)(?![\\w])`, 'giu');

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
export function findPhoneInLines(
  allLines: readonly string[],
  regions: readonly string[],
  options: { ocr?: boolean } = {},
): { phone: string; line: number } | null {
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
  // A national number without a label that the library's plan does not hold (yet), such as the UK's drama range
  // "07700 900456": written with its trunk 0 in groups of digits, and possible in the resume's region.
  for (const [index, line] of lines.entries()) {
    const phone = possibleNational(line, regions[0] ?? DEFAULT_REGION);
    if (phone !== null) return { phone, line: index };
  }
  // OCR read a digit or two of the number as letters ("051 670 4207" as "ost 670 4207").
  if (options.ocr === true) {
    for (const region of regions) {
      for (const [index, line] of lines.entries()) {
        const phone = misreadDigitsPhone(line, region);
        if (phone !== null) return { phone, line: index };
      }
    }
  }
  return null;
}

/** Letters OCR reads in place of digits, and the digit each stands for. */
const DIGIT_OF_LETTER: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  Q: '0',
  D: '0',
  I: '1',
  l: '1',
  i: '1',
  t: '1',
  '|': '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  G: '6',
  B: '8',
  g: '9',
  q: '9',
};
/** A cell that is nothing but a number in groups (an optional "+" and phone label before it), letters allowed in it. */
const MISREAD_DIGIT = '[\\dOoQDIlit|ZzSsGBgq]';
const MISREAD_NUMBER_CELL_RE = new RegExp(
  `^(?i:${PHONE_LABEL})?(\\+?${MISREAD_DIGIT}{1,5}(?:[ ./-]${MISREAD_DIGIT}{1,5}){1,5})$`,
  'u',
);
/** Letters read for digits in one number at most: more, and it is a word, not a misread number. */
const MAX_MISREAD_DIGITS = 3;

/**
 * A number of a cell of its own whose digits OCR partly read as look-alike letters: at most three such letters, in a
 * number of groups that is otherwise digits (at least six), valid in `region` once the letters are read as digits.
 * A group without digits counts only in lower case.
 */
export function misreadDigitsPhone(line: string, region: string): string | null {
  for (const cell of line.split('\t')) {
    const written = MISREAD_NUMBER_CELL_RE.exec(cell.trim())?.[1];
    if (written === undefined) continue;
    const letters = written.replace(/[\d+ ./-]/gu, '');
    if (letters.length === 0 || letters.length > MAX_MISREAD_DIGITS || digitsOf(written).length < 6) continue;
    // A group of letters alone is a misread number only in lower case ("ost" for "051"); "ISO 9001" is a word.
    if (written.split(/[ ./-]/u).some((group) => !/\d/u.test(group) && /\p{Lu}/u.test(group))) continue;
    const read = written.replace(/[^\d+ ./-]/gu, (letter) => DIGIT_OF_LETTER[letter] ?? letter);
    const phone = validPhone(read, region);
    if (phone !== null) return phone;
  }
  return null;
}

/** "07700 900456", "0612-345678": a trunk 0, then 9–11 digits in at most five groups, alone between blanks or punctuation. */
const NATIONAL_RE = /(?<![\p{L}\p{N}+/.,-])0\d{1,4}(?:[ -]\d{2,6}){1,4}(?![\p{L}\p{N}/.,-])/gu;

function possibleNational(line: string, region: string): string | null {
  for (const match of withoutAddresses(line).matchAll(NATIONAL_RE)) {
    const digits = digitsOf(match[0]);
    if (digits.length < 10 || digits.length > 12 || looksLikeDate(match[0])) continue;
    const phone = possibleE164(digits, region);
    if (phone !== null) return phone;
  }
  return null;
}

const NANP_RE = /(?<![\d+])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?!\d)/u;
