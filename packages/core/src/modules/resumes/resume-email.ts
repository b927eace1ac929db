/* The email address and LinkedIn profile written in a resume. */

/**
 * A pragmatic address: the characters people really use in the local part, a
 * dotted domain of valid labels and an alphabetic TLD. The lookbehind keeps
 * matching linear (a match only starts at the start of a run of local-part
 * characters) and the lookahead stops "jane@example.co" matching inside
 * "jane@example.com" or "jane@example.comx".
 */
export const EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])([A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})(?![A-Za-z0-9-]|\.[A-Za-z0-9])/g;

const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

export function findEmail(text: string, options: { ocr?: boolean } = {}): string | null {
  // In OCR text a separator glued in front of a word (" ·dan.foster@…" read as " .dan.foster@…", "✉ a.zajac@…" as
  // "-a.zajac@…") starts no address: an address written with a leading "-" or "+" is read so only from a text layer.
  const searched =
    options.ocr === true
      ? text.replace(/(?<=^|\s)[-.·•+]+(?=[A-Za-z0-9_%+])/gu, (glued) => ' '.repeat(glued.length))
      : text;
  for (const match of searched.matchAll(EMAIL_RE)) {
    const email = match[1];
    if (email === undefined) continue;
    const local = email.slice(0, email.lastIndexOf('@'));
    if (email.length <= MAX_EMAIL_LENGTH && local.length <= MAX_LOCAL_LENGTH) return email.toLowerCase();
  }
  return null;
}

/**
 * An email address whose "@" OCR read as a capital "Q" (its tail taken for the Q's), sometimes with a space after it
 * ("piotrwozniakQ poczta.example"): a lower-case local part, "Q", a lower-case dotted domain. A word may be written so
 * too ("iraQuest.com"): only read when the text has no address.
 */
const Q_AT_RE =
  /(?<![\w.+-])([a-z\d][a-z\d._+-]{0,63})Q ?([a-z\d][a-z\d-]{0,62}(?:\.[a-z\d-]{1,63})*\.[a-z]{2,12})(?![\w.-])/u;

/** The address of an OCR'd text in which no address was found, when its "@" was read as "Q"; else null. */
export function findEmailWithQAsAt(text: string): string | null {
  const match = Q_AT_RE.exec(text);
  return match === null ? null : findEmail(`${match[1]}@${match[2]}`);
}

/** Top-level domains common enough that an address ending in one is taken as complete, not as cut short. */
export const COMMON_TLDS = new Set([
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'info',
  'biz',
  'io',
  'co',
  'eu',
  'nl',
  'be',
  'de',
  'at',
  'ch',
  'fr',
  'es',
  'pt',
  'it',
  'pl',
  'uk',
  'ie',
  'us',
  'ca',
  'au',
  'no',
  'se',
  'dk',
  'fi',
  'cz',
  'lu',
  'me',
  'dev',
  'app',
  'email',
  'online',
  'example',
]);

export function topLevelDomain(email: string): string {
  return email.slice(email.lastIndexOf('.') + 1);
}

/**
 * An address a narrow column or table cell wrapped onto the next line ("hello@kowalczyk-" / "studio.example",
 * "jane@mail.exa" / "mple"): a word with an `@` (or a last word ending in "." or "-") joined with the bare lower-case
 * word that starts the next line, when that gives an address in a common domain and the word alone is none, or one
 * ending in an unusual domain.
 */
export function wrappedEmail(line: { cells: string[] }, next: { cells: string[] } | undefined): string | null {
  // The rest of an address is written in lower case; a capitalised word on the next line is something else.
  const continuation = next?.cells[0];
  if (
    continuation === undefined ||
    !/^@?[a-z0-9][a-z0-9._-]{0,62}$/u.test(continuation) ||
    findEmail(continuation) !== null
  )
    return null;
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
