/**
 * Positions and studies: the entries of an experience or education section. Each entry is anchored on its period
 * ("2018 – heden", "Jan 2019 – Mar 2021"); its heading is the rest of the period's line ("2019 – 2021⇥Product Owner"),
 * or the line(s) just above the period, or — where the section writes periods first — the line below it. A heading
 * "Title — Employer, City" splits into its parts; an employer or school on a line of its own is taken from the next line.
 */
import { PLACE_REGION, fold } from '../resume-vocabulary.ts';
import { findPeriod, type TPeriod } from './dates.ts';

export type TExperienceEntry = {
  title: string | null;
  employer: string | null;
  start: string | null;
  end: string | null;
  current: boolean;
};
export type TEducationEntry = {
  degree: string | null;
  institution: string | null;
  start: string | null;
  end: string | null;
};

/** Entries read from one section at most. */
const MAX_ENTRIES = 50;
/** A heading longer than this is a sentence, not a title and an employer. */
const MAX_HEADING_WORDS = 16;
const MAX_PART_LENGTH = 200;

/** Separators between a title and its employer (or a degree and its school). */
const SPLIT_RE = /\s+[—–|]\s+|\s+-\s+|\s*[|•·]\s*|\t+|(?<=\p{L})[—–]\s+|\s+[—–](?=\p{L})/u;
/** "Engineer at Acme": only for positions ("en" is "and" in Dutch and "in" in a Spanish degree: not used). */
const AT_RE = /\s+(?:at|@|bij|bei|chez|presso|w)\s+(?=\p{Lu})/u;
/** Company legal forms: a part holding one is the employer. */
const LEGAL_FORM_RE =
  /(?<![\p{L}])(?:inc|llc|ltd|plc|gmbh|ag|kg|se|sa|s\.a|sas|sarl|srl|s\.r\.l|spa|s\.p\.a|sl|s\.l|b\.?v|n\.?v|vof|sp\.? z o\.?o|s\.?a\.?|oy|ab|as|aps|corp|co|group|groep|gruppe|groupe|grupo|gruppo|holding)\.?(?![\p{L}])/iu;
const INSTITUTION_RE =
  /(?:university|universiteit|universität|université|universidad|università|uniwersytet|college|school|hogeschool|hochschule|fachhochschule|academy|academie|akademie|académie|academia|accademia|akademia|institute|instituut|institut|instituto|istituto|politechnika|politecnico|polytechnic|lyceum|gymnasium|lycée|liceo|escuela|école|ecole|scuola|szkoła|tu |rwth|eth |epfl|mbo|roc )/iu;

type TLine = { text: string };

function words(text: string): number {
  return text.split(/\s+/u).filter(Boolean).length;
}

function clean(text: string): string | null {
  const trimmed = text
    .replace(/^[\s,;:|•·*▪–—-]+|[\s,;:|•·*▪–—-]+$/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return trimmed === '' ? null : trimmed.slice(0, MAX_PART_LENGTH);
}

/** A duty or description under an entry: a bullet, or a sentence (long, or ending in a full stop after lower-case words). */
function isDescription(text: string): boolean {
  if (/^[•·*▪‣◦●■-]\s/u.test(text)) return true;
  if (words(text) > MAX_HEADING_WORDS) return true;
  return /\p{Ll}{3,}[.!]$/u.test(text) && words(text) >= 4 && !LEGAL_FORM_RE.test(text);
}

/** "Employer, City" → "Employer": a last comma part that is a place (a known one, or one or two capitalised words). */
function withoutPlace(text: string): string {
  const parts = text.split(/,\s+/u);
  if (parts.length < 2) return text;
  const last = parts.at(-1)!.trim();
  const known = PLACE_REGION.has(fold(last)) || /^\d{4,5}\s/u.test(last);
  const placeLike =
    /^\p{Lu}[\p{L}'’-]*(?:[\s-](?:am|an|de|del|la|le|sur|upon|on|im|nad)?\s?\p{Lu}?[\p{L}'’-]*){0,2}$/u.test(last) &&
    !LEGAL_FORM_RE.test(last);
  if (!known && !(placeLike && parts.length >= 2 && !INSTITUTION_RE.test(last))) return text;
  return parts.slice(0, -1).join(', ');
}

/** Splits a heading into its two parts (title/degree first), or one part when it has no separator. */
function splitHeading(text: string, kind: 'experience' | 'education'): [string, string | null] {
  const dashed = text.split(SPLIT_RE).filter((part) => part.trim() !== '');
  if (dashed.length >= 2) return [dashed[0]!, dashed.slice(1).join(', ')];
  const at = kind === 'experience' ? AT_RE.exec(text) : null;
  if (at) return [text.slice(0, at.index), text.slice(at.index + at[0].length)];
  const comma = text.indexOf(', ');
  if (comma > 0) return [text.slice(0, comma), text.slice(comma + 2)];
  return [text, null];
}

type TAnchor = { line: number; period: TPeriod; rest: string };

function anchors(lines: readonly TLine[], lone: boolean): TAnchor[] {
  const found: TAnchor[] = [];
  for (const [index, line] of lines.entries()) {
    const period = findPeriod(line.text, { lone });
    if (period === null) continue;
    const rest = `${line.text.slice(0, period.index)}\t${line.text.slice(period.index + period.length)}`;
    found.push({
      line: index,
      period,
      rest: rest
        .replace(/^[\s\t,;:|()–—-]+|[\s\t,;:|()–—-]+$/gu, '')
        .replace(/\(\s*\)/gu, '')
        .trim(),
    });
    if (found.length >= MAX_ENTRIES) break;
  }
  return found;
}

type TRawEntry = { first: string | null; second: string | null; period: TPeriod };

/** The heading text of each entry of a section, split in two parts, with its period. */
function readEntries(lines: readonly TLine[], kind: 'experience' | 'education'): TRawEntry[] {
  const found = anchors(lines, kind === 'education');
  if (found.length === 0) return [];
  // Periods first (nothing but the period opens the section) or headings first.
  const periodsFirst = found[0]!.line === 0 && found[0]!.rest === '';
  const used = new Set(found.map((anchor) => anchor.line));
  const entries: TRawEntry[] = [];
  const separator = kind;
  for (const [at, anchor] of found.entries()) {
    const nextAnchor = found[at + 1]?.line ?? lines.length;
    const previousAnchor = found[at - 1]?.line ?? -1;
    const take = (index: number): string | null => {
      const text = lines[index]?.text;
      if (text === undefined || used.has(index) || isDescription(text) || words(text) > MAX_HEADING_WORDS) return null;
      used.add(index);
      return text;
    };
    let heading: string[] = [];
    if (anchor.rest !== '') {
      heading = [anchor.rest];
    } else if (periodsFirst) {
      const below = anchor.line + 1 < nextAnchor ? take(anchor.line + 1) : null;
      if (below !== null) heading = [below];
    } else {
      const above = anchor.line - 1 > previousAnchor ? take(anchor.line - 1) : null;
      if (above !== null) {
        heading = [above];
        // "Title" / "Employer" on two lines above the period.
        const [, second] = splitHeading(above, separator);
        if (second === null && anchor.line - 2 > previousAnchor) {
          const higher = lines[anchor.line - 2]?.text;
          if (
            higher !== undefined &&
            !used.has(anchor.line - 2) &&
            !isDescription(higher) &&
            splitHeading(higher, separator)[1] === null
          ) {
            used.add(anchor.line - 2);
            heading = [higher, above];
          }
        }
      }
    }
    if (heading.length === 0) {
      entries.push({ first: null, second: null, period: anchor.period });
      continue;
    }
    let [first, second] = heading.length === 2 ? [heading[0]!, heading[1]!] : splitHeading(heading[0]!, separator);
    // The employer or school on the line below a heading that holds only the title ("2018 – heden⇥Coördinator").
    if (second === null && (anchor.rest !== '' || periodsFirst)) {
      const belowIndex = anchor.rest !== '' ? anchor.line + 1 : anchor.line + 2;
      if (belowIndex < nextAnchor) second = take(belowIndex);
    }
    entries.push({ first: clean(first), second: second === null ? null : clean(second), period: anchor.period });
  }
  return entries;
}

/** Decides which part of a position's heading is the employer: the one with a legal form, else the second. */
function orderPosition(first: string | null, second: string | null): [title: string | null, employer: string | null] {
  if (first !== null && second !== null && LEGAL_FORM_RE.test(first) && !LEGAL_FORM_RE.test(second))
    return [second, first];
  return [first, second];
}

export function readExperience(lines: readonly TLine[]): TExperienceEntry[] {
  return readEntries(lines, 'experience').map(({ first, second, period }) => {
    const [title, employer] = orderPosition(first, second);
    return {
      title,
      employer: employer === null ? null : clean(withoutPlace(employer)),
      start: period.start,
      end: period.end,
      current: period.current,
    };
  });
}

export function readEducation(lines: readonly TLine[]): TEducationEntry[] {
  return readEntries(lines, 'education').map(({ first, second, period }) => {
    // "Hogeschool Voorbeeld, HBO Logistiek": the school first.
    const swap = first !== null && second !== null && INSTITUTION_RE.test(first) && !INSTITUTION_RE.test(second);
    const [degree, institution] = swap ? [second, first] : [first, second];
    return {
      degree,
      institution: institution === null ? null : clean(withoutPlace(institution)),
      start: period.start,
      end: period.end,
    };
  });
}
