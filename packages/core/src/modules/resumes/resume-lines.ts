import {
  NAME_LABELS,
  asciiLetters,
  fold,
  headingKind,
  isFieldLabel,
  type TNameLabel,
  type TSectionKind,
} from './resume-vocabulary.ts';
import {
  type TParsedName,
  SEGMENT_SEPARATOR_RE,
  TITLE_PREFIX_RE,
  emailAgreement,
  emailSpellsName,
  nameWords,
  splitName,
  startsWithParticle,
  withSplitLettersJoined,
} from './resume-name.ts';

/* The resume as lines in sections, the candidate's own first, and the name found among them. */

/** How many non-empty lines from the top are considered for the name (more beside the contact details). */
export const MAX_NAME_LINES = 40;
/** Lines of a resume read at most. */
const MAX_LINES = 5_000;
/** The top lines of a block (a column or table cell) are read for the name however far down the text they come. */
const MAX_BLOCK_TOP_RANK = 2;
/** …as long as they are within this many lines (a DOCX sidebar comes before the main column, long as it may be). */
const MAX_BLOCK_TOP_INDEX = 400;
/** A name-like line scoring less than this (far down, in no contact block, unlike the email) is not taken. */
const MIN_NAME_SCORE = 20;

type TZone = 'top' | TSectionKind;

export interface TResumeLine {
  /** Position among the non-empty lines. */
  index: number;
  /** Position within its block (a column or a page region the text extraction marked with a form feed). */
  rank: number;
  text: string;
  cells: string[];
  zone: TZone;
  heading: boolean;
}

/** Lines of a resume with the section each lies in; a form-feed line starts a new block (another column). */
export function readLines(text: string): TResumeLine[] {
  const lines: TResumeLine[] = [];
  let zone: TZone = 'top';
  let rank = 0;
  for (const raw of text.split('\n')) {
    if (raw.includes('\f')) {
      zone = 'top';
      rank = 0;
    }
    const line = raw.replace(/\f/gu, '').trim();
    if (line === '') continue;
    const cells = line
      .split('\t')
      .map((cell) => cell.trim())
      .filter((cell) => cell !== '');
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

export function isOwnZone(zone: TZone): boolean {
  return zone === 'top' || zone === 'personal' || zone === 'title';
}

/** The candidate's own lines first (top, contact, personal details), then the rest; references never. */
export function byPriority(lines: readonly TResumeLine[]): TResumeLine[] {
  return [...lines.filter((line) => isOwnZone(line.zone)), ...lines.filter((line) => line.zone === 'other')];
}

/** Values given with a name label on a line ("Naam: Jan de Vries", "Vorname ⇥ Anna"), the next line for a lone label. */
function labelledNames(line: TResumeLine, next: TResumeLine | undefined): { label: TNameLabel; value: string }[] {
  const found: { label: TNameLabel; value: string }[] = [];
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

function labelledName(values: { label: TNameLabel; value: string }[], emailLocal: string | null): TParsedName | null {
  const part = (label: TNameLabel): string | undefined => values.find((value) => value.label === label)?.value;
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
function valueCells(line: TResumeLine, previous: TResumeLine | undefined): Set<number> {
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

/**
 * A cell without the personal-details heading in front of it: Europass writes the name beside "Personal information"
 * ("Personal information Inés de la Fuente", as a PDF line without a tab between the columns, or OCR).
 */
function withoutSectionLabel(cell: string): string {
  const words = cell.split(/\s+/u);
  for (let count = Math.min(4, words.length - 2); count >= 1; count--) {
    if (
      headingKind(
        words
          .slice(0, count)
          .join(' ')
          .replace(/[:：]$/u, ''),
      ) === 'personal'
    )
      return words.slice(count).join(' ');
  }
  return cell;
}

/**
 * The words of a name that a line holds as two or three cells of one word each ("Francesca ⇥ Marino"), none of them a
 * field label (so "Naam ⇥ Smit" stays a label and its value); null otherwise.
 */
export function spacedName(line: Pick<TResumeLine, 'cells'>): string[] | null {
  const { cells } = line;
  if (cells.length < 2 || cells.length > 3) return null;
  if (cells.some((cell) => /\s/u.test(cell) || isFieldLabel(cell) || NAME_LABELS.has(fold(cell)))) return null;
  return nameWords(cells.join(' '));
}

/** Points for the email agreeing with a name on none, the first, the last or both of its names. */
const EMAIL_AGREEMENT_POINTS = [0, 15, 35, 60];

/**
 * Points for where a name-like line is: in the candidate's own part of the resume, at the top of its block (a column),
 * near the top of the resume, beside the contact details; and for the email agreeing with it.
 */
function placeScore(line: TResumeLine, agreement: number, nearContact: boolean): number {
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
export function findCandidateName(
  lines: readonly TResumeLine[],
  emailLocal: string | null,
  contactLines: ReadonlySet<number>,
): TParsedName | null {
  let best: { name: TParsedName; score: number } | undefined;
  const consider = (name: TParsedName, score: number): void => {
    if (best === undefined || score > best.score) best = { name, score };
  };

  // "Voornaam ⇥ Sanne" and "Achternaam ⇥ van der Meer" may be on lines of their own: gather the labels first.
  const labels: { label: TNameLabel; value: string; line: TResumeLine }[] = [];
  for (const [position, line] of lines.entries()) {
    if (line.zone === 'references' || line.heading || line.index >= MAX_NAME_LINES * 2) continue;
    for (const found of labelledNames(line, lines[position + 1])) labels.push({ ...found, line });
  }
  const labelled = labelledName(labels, emailLocal);
  if (labelled !== null) consider(labelled, 100 + emailAgreement(labelled, emailLocal) * 20);

  for (const [position, line] of lines.entries()) {
    if (line.zone === 'references' || line.heading) continue;
    const near = [...contactLines].some((index) => Math.abs(index - line.index) <= 5);
    const blockTop = line.rank <= MAX_BLOCK_TOP_RANK && line.index < MAX_BLOCK_TOP_INDEX && isOwnZone(line.zone);
    if (line.index >= MAX_NAME_LINES && !near && !blockTop) continue;
    const previous = lines[position - 1];
    if (labels.some((found) => found.line === line)) continue;

    // A long name wrapped by a narrow column: "Grzegorz" / "Brzęczyszczykiewicz" at the top of a block.
    const next = lines[position + 1];
    if (line.rank <= 1 && line.cells.length === 1 && next !== undefined && next.cells.length === 1 && !next.heading) {
      const words = nameWords(`${line.cells[0]} ${next.cells[0]}`);
      if (words !== null && (line.cells[0] ?? '').split(/\s+/u).length === 1) {
        const name = splitName(words, emailLocal);
        // A next line that starts with a particle is a family name: "RUBEN" / "VAN DEN BERG" is no "Van den Berg".
        const bonus = startsWithParticle(next.cells[0] ?? '') ? 12 : 4;
        if (isOwnZone(line.zone)) consider(name, placeScore(line, emailAgreement(name, emailLocal), near) + bonus);
      }
    }

    // A name whose words OCR read far apart (large, letter-spaced type) comes as cells of one word each: "Francesca ⇥ Marino".
    const joined = spacedName(line);
    if (joined !== null && isOwnZone(line.zone)) {
      const name = splitName(joined, emailLocal);
      consider(name, placeScore(line, emailAgreement(name, emailLocal), near) + 12);
    }

    const skipped = valueCells(line, previous);
    for (const [cellIndex, cell] of line.cells.entries()) {
      if (skipped.has(cellIndex)) continue;
      // What follows the name in its cell is cut off: a separator ("Jane Doe | Engineer"), or an email or number that
      // a neighbouring column put on the same line ("María José García López mjgarcia@…").
      const parts = withoutSectionLabel(cell.replace(TITLE_PREFIX_RE, '')).split(SEGMENT_SEPARATOR_RE);
      parts[0] = (parts[0] ?? '').split(/\s+(?=\S*[@\d+])/u)[0] ?? '';
      const strict = nameWords(parts[0] ?? '');
      const words = strict ?? nameWords(parts[0] ?? '', true);
      const rejoined = words === null ? rejoinedName(parts[0] ?? '', emailLocal) : null;
      if (rejoined !== null) {
        consider(rejoined, placeScore(line, 3, near) + (cellIndex === 0 ? 4 : 0));
        continue;
      }
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
  const chosen = best as { name: TParsedName; score: number } | undefined;
  return chosen !== undefined && chosen.score >= MIN_NAME_SCORE ? chosen.name : null;
}

/**
 * A name with a letter OCR split off a word ("Owe n Patel" for "Owen Patel"), joined again: only when the email agrees
 * on both names and spells every word so joined.
 */
function rejoinedName(segment: string, emailLocal: string | null): TParsedName | null {
  const rejoined = emailLocal === null ? null : withSplitLettersJoined(segment);
  if (rejoined === null || emailLocal === null) return null;
  const words = nameWords(rejoined.text);
  if (words === null) return null;
  const name = splitName(words, emailLocal);
  const local = asciiLetters(emailLocal);
  if (emailAgreement(name, emailLocal) < 3 || !rejoined.joined.every((word) => local.includes(asciiLetters(word))))
    return null;
  return name;
}

/**
 * The name the email stands for, as the resume writes it (with its accents): any line that agrees with the email on
 * both names, outside the references.
 */
export function nameMatchingEmail(lines: readonly TResumeLine[], emailLocal: string): TParsedName | null {
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
