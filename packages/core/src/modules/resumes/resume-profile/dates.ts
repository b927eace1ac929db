/**
 * Periods of a resume's positions and studies, as people write them in en, nl, de, fr, es, it and pl:
 * "2019 – 2021", "Jan 2019 – Mar 2021", "01/2019 - 03/2021", "2019-03 – heden", "seit 04/2021", "depuis 2020",
 * "März 2018 – heute", "od 2019", "2020 –" (an open end). Dates come out as "YYYY-MM" when the month is known, else "YYYY".
 */

export type TPeriod = {
  start: string | null;
  end: string | null;
  /** Ongoing: the end is "present" (heden, heute, aujourd'hui, actualidad, oggi, obecnie …) or left open. */
  current: boolean;
  /** Where the period was found in the text it was read from. */
  index: number;
  length: number;
};

/** Month names and abbreviations (lower-case, accents kept) → month number. */
const MONTHS: [number, string[]][] = [
  [
    1,
    [
      'january',
      'jan',
      'januari',
      'januar',
      'jänner',
      'janvier',
      'janv',
      'enero',
      'ene',
      'gennaio',
      'gen',
      'styczeń',
      'stycznia',
      'sty',
    ],
  ],
  [
    2,
    [
      'february',
      'feb',
      'februari',
      'februar',
      'février',
      'févr',
      'fév',
      'fevrier',
      'febrero',
      'febbraio',
      'luty',
      'lutego',
      'lut',
    ],
  ],
  [3, ['march', 'mar', 'maart', 'mrt', 'märz', 'mär', 'mars', 'marzo', 'marzec', 'marca']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwiecień', 'kwietnia', 'kwi']],
  [5, ['may', 'mei', 'mai', 'mayo', 'may', 'maggio', 'mag', 'maj', 'maja']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'czerwiec', 'czerwca', 'cze']],
  [7, ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'lipiec', 'lipca', 'lip']],
  [8, ['august', 'aug', 'augustus', 'août', 'aout', 'agosto', 'ago', 'sierpień', 'sierpnia', 'sie']],
  [
    9,
    [
      'september',
      'sep',
      'sept',
      'septembre',
      'septiembre',
      'setiembre',
      'settembre',
      'set',
      'wrzesień',
      'września',
      'wrz',
    ],
  ],
  [
    10,
    [
      'october',
      'oct',
      'oktober',
      'okt',
      'octobre',
      'octubre',
      'ottobre',
      'ott',
      'październik',
      'października',
      'paź',
      'paz',
    ],
  ],
  [11, ['november', 'nov', 'novembre', 'noviembre', 'listopad', 'listopada', 'lis']],
  [
    12,
    [
      'december',
      'dec',
      'dezember',
      'dez',
      'décembre',
      'déc',
      'diciembre',
      'dic',
      'dicembre',
      'grudzień',
      'grudnia',
      'gru',
    ],
  ],
];
const MONTH_NUMBER = new Map<string, number>();
for (const [month, names] of MONTHS) for (const name of names) MONTH_NUMBER.set(name, month);

/** Words for "until now" as the end of a period. */
export const PRESENT_WORDS = [
  'present',
  'now',
  'current',
  'today',
  'ongoing',
  'to date',
  'date',
  'heden',
  'nu',
  'huidig',
  'thans',
  'vandaag',
  'heute',
  'jetzt',
  'aktuell',
  'bis heute',
  'dato',
  'laufend',
  "aujourd'hui",
  'aujourd’hui',
  'présent',
  'present',
  'actuel',
  'ce jour',
  "à aujourd'hui",
  'actualidad',
  'presente',
  'actual',
  'hoy',
  'la fecha',
  'oggi',
  'in corso',
  'attuale',
  'ad oggi',
  'obecnie',
  'teraz',
  'nadal',
  'dziś',
  'dzisiaj',
  'chwili obecnej',
  'do dziś',
  'do teraz',
];
/** Words that open a period with only a start: "since 2020", "seit 04/2021", "depuis 2020". */
const SINCE_WORDS = ['since', 'sinds', 'vanaf', 'seit', 'ab', 'depuis', 'desde', 'dal', 'dall', 'da', 'od', 'from'];

const escapeRegExp = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = (words: Iterable<string>): string =>
  [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');

const MONTH_NAME = `(?:${alternatives(MONTH_NUMBER.keys())})\\.?`;
const YEAR = '(?:19[5-9]\\d|20[0-4]\\d)';
/**
 * One date: "2019", "03/2019", "3.2019", "2019-03", "03-2019", "Mar 2019", "März 2019", "maart '19" is not read
 * (two-digit years are ambiguous).
 */
const DATE = `(?:(?:0?[1-9]|1[0-2])\\s?[./-]\\s?${YEAR}|${YEAR}[./-](?:0[1-9]|1[0-2])(?![\\d])|${MONTH_NAME}\\s+${YEAR}|${YEAR})`;
const PRESENT = `(?:${alternatives(PRESENT_WORDS)})`;
/** Between two dates: a dash or a word; or only a tab, where OCR lost a dash between two columns of text ("2012⇥2013"). */
const DASH = '(?:\\s*(?:[-–—−‒]+|to|tot|bis|à|au|a|al|hasta|fino a|al|do|–\\s?heute)\\s*|\\t+)';
const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

const RANGE_RE = new RegExp(
  `${NOT_WORD_BEFORE}(?:(?:${alternatives(SINCE_WORDS)})\\s+)?(${DATE})(?:${DASH}(${DATE}|${PRESENT})|\\s*[-–—]\\s*(?=$|\\t|\\s{2}))?${NOT_WORD_AFTER}`,
  'giu',
);
const SINCE_RE = new RegExp(`^(?:${alternatives(SINCE_WORDS)})\\s`, 'iu');

/** One written date → "YYYY-MM" or "YYYY". */
export function normaliseDate(written: string): string | null {
  const text = written.trim().toLocaleLowerCase();
  let match = /^(\d{1,2})\s?[./-]\s?(\d{4})$/u.exec(text);
  if (match) return `${match[2]}-${match[1]!.padStart(2, '0')}`;
  match = /^(\d{4})[./-](\d{2})$/u.exec(text);
  if (match) return `${match[1]}-${match[2]}`;
  match = /^(\p{L}+)\.?\s+(\d{4})$/u.exec(text);
  if (match) {
    const month = MONTH_NUMBER.get(match[1]!);
    return month === undefined ? match[2]! : `${match[2]}-${String(month).padStart(2, '0')}`;
  }
  match = /^(\d{4})$/u.exec(text);
  return match ? match[1]! : null;
}

/**
 * The first period written in `text`: a range, a date with "since", or a date followed by a dash and nothing (an open
 * end). A lone year is a period only when `lone` allows it (an education line "2015 Master …"); null when none.
 */
export function findPeriod(text: string, options: { lone?: boolean } = {}): TPeriod | null {
  for (const match of text.matchAll(RANGE_RE)) {
    const [whole, first, second] = match;
    if (first === undefined) continue;
    const start = normaliseDate(first);
    if (start === null) continue;
    const since = SINCE_RE.test(whole);
    const openEnd = second === undefined && /[-–—]\s*$/u.test(whole);
    if (second === undefined && !since && !openEnd && options.lone !== true) continue;
    let end: string | null = null;
    let current = since || openEnd;
    if (second !== undefined) {
      end = normaliseDate(second);
      if (end === null) current = true;
    }
    if (end !== null && end < start.slice(0, end.length)) continue;
    return { start, end, current, index: match.index, length: whole.length };
  }
  return null;
}
