import { BLOCK_BREAK } from './text-sink.ts';

/**
 * Reading order of a PDF page from the positions of its text pieces (pdf.js gives each piece's baseline origin, width
 * and font size, not the order a person reads them in). Lines are rebuilt from baselines; a line's pieces far apart
 * become tab-separated segments; a run of lines with a common vertical gap is two columns (e.g. a contact sidebar
 * beside the main text), read one after the other, unless its lines pair up left and right like the rows of a table
 * ("Phone ⇥ +1 415 …"), which are read row by row.
 */

/** One piece of text at a position, in PDF units (y grows upwards). */
export interface TPositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  /** Font size (height of the text). */
  size: number;
}

interface TSegment {
  x0: number;
  x1: number;
  text: string;
}

interface TLine {
  y: number;
  size: number;
  segments: TSegment[];
}

interface TGap {
  start: number;
  end: number;
}

/** Pieces further apart than this many font sizes are separate segments of a line. */
const SEGMENT_GAP_EM = 1.2;
/** Pieces further apart than this many font sizes get a space between them. */
const WORD_GAP_EM = 0.15;
/** Part of the page's text height, from its top, where a column begins a block. */
const TOP_SHARE = 0.35;

interface TPage {
  minGutter: number;
  /** Baselines at or above this are in the upper part of the page. */
  upper: number;
  isLabel: (text: string) => boolean;
}

export interface TLayoutOptions {
  /**
   * Whether a piece of text is a label, a heading or a date (what the left column of a form or a Europass-style resume
   * holds): a run of lines whose left side is mostly such text is a table even when only some lines pair up.
   */
  isLabel?: (text: string) => boolean;
}

/** Share of lines with text on both sides of a gap from which a run of lines is a table, not two columns. */
const TABLE_ROW_SHARE = 0.85;
/** The same, when most of the left side's lines are labels, headings or dates. */
const LABELLED_TABLE_ROW_SHARE = 0.5;
const LABEL_SHARE = 0.6;

/** The page's text in reading order: lines separated by `\n`, segments by `\t`, column blocks by a blank line. */
export function layoutPage(pieces: readonly TPositionedText[], options: TLayoutOptions = {}): string {
  const lines = buildLines(pieces);
  if (lines.length === 0) return '';
  const sizes = lines.map((line) => line.size).sort((a, b) => a - b);
  const medianSize = sizes[Math.floor(sizes.length / 2)] ?? 10;
  const minGutter = Math.max(6, medianSize * SEGMENT_GAP_EM * 0.9);
  const top = lines[0]?.y ?? 0;
  const bottom = lines[lines.length - 1]?.y ?? 0;
  // Columns that start in the upper part of the page begin a block of their own (a sidebar with contact details).
  const page: TPage = { minGutter, upper: top - TOP_SHARE * (top - bottom), isLabel: options.isLabel ?? (() => false) };
  return layoutLines(lines, page).join('\n');
}

function buildLines(pieces: readonly TPositionedText[]): TLine[] {
  const usable = pieces
    .filter(
      (piece) =>
        piece.str.trim() !== '' && Number.isFinite(piece.x) && Number.isFinite(piece.y) && Number.isFinite(piece.width),
    )
    .map((piece) => ({ ...piece, str: closeLetterSpacing(piece.str) }));
  usable.sort((a, b) => b.y - a.y || a.x - b.x);

  // Pieces whose baselines are within a fraction of the font size share a line (superscripts, mixed fonts).
  const groups: { y: number; size: number; pieces: TPositionedText[] }[] = [];
  for (const piece of usable) {
    const size = piece.size > 0 ? piece.size : 10;
    const group = groups[groups.length - 1];
    if (group !== undefined && Math.abs(group.y - piece.y) <= 0.4 * Math.min(size, group.size)) {
      group.pieces.push(piece);
      group.size = Math.max(group.size, size);
    } else {
      groups.push({ y: piece.y, size, pieces: [piece] });
    }
  }

  return groups
    .map((group) => {
      group.pieces.sort((a, b) => a.x - b.x);
      const spacing = letterSpacing(group.pieces);
      const segments: TSegment[] = [];
      let current: TSegment | undefined;
      for (const piece of group.pieces) {
        const x1 = piece.x + Math.max(0, piece.width);
        if (current === undefined) {
          current = { x0: piece.x, x1, text: piece.str };
          segments.push(current);
          continue;
        }
        const gap = piece.x - current.x1;
        if (gap > SEGMENT_GAP_EM * group.size) {
          current = { x0: piece.x, x1, text: piece.str };
          segments.push(current);
          continue;
        }
        const joinsWithSpace =
          gap > spacing + WORD_GAP_EM * group.size && !/\s$/u.test(current.text) && !/^\s/u.test(piece.str);
        current.text += (joinsWithSpace ? ' ' : '') + piece.str;
        current.x1 = Math.max(current.x1, x1);
      }
      for (const segment of segments) segment.text = segment.text.replace(/\s+/gu, ' ').trim();
      return { y: group.y, size: group.size, segments: segments.filter((segment) => segment.text !== '') };
    })
    .filter((line) => line.segments.length > 0);
}

/**
 * pdf.js writes a letter-spaced heading as one piece with a space between letters ("H A N N A H  O ' B R I E N"):
 * runs of single characters become words again (two spaces, or a piece of its own, separate the words).
 */
function closeLetterSpacing(text: string): string {
  if (!/^(?:\S ){2,}\S/u.test(text.trim())) return text;
  return text
    .split(/\s{2,}/u)
    .map((word) => (/^(?:\S ){2,}\S$/u.test(word.trim()) ? word.replace(/ /gu, '') : word))
    .join(' ');
}

/**
 * The gap between letters of a line written one letter per piece with letter spacing ("L e b e n s l a u f" in a
 * heading): the usual gap between single letters, which then does not mean a space. 0 for ordinary lines.
 */
function letterSpacing(pieces: readonly TPositionedText[]): number {
  const gaps: number[] = [];
  let singles = 0;
  for (const [index, piece] of pieces.entries()) {
    if (piece.str.trim().length === 1) singles++;
    const next = pieces[index + 1];
    if (next !== undefined && piece.str.trim().length === 1 && next.str.trim().length === 1)
      gaps.push(next.x - (piece.x + piece.width));
  }
  if (pieces.length < 3 || singles < pieces.length * 0.6 || gaps.length === 0) return 0;
  gaps.sort((a, b) => a - b);
  return Math.max(0, gaps[Math.floor(gaps.length / 2)] ?? 0);
}

/** Lays out lines (top to bottom) into output lines, splitting runs of lines that form columns. */
function layoutLines(lines: TLine[], page: TPage): string[] {
  const { minGutter } = page;
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const line of lines) {
    for (const segment of line.segments) {
      x0 = Math.min(x0, segment.x0);
      x1 = Math.max(x1, segment.x1);
    }
  }

  const out: string[] = [];
  let stretch: TLine[] = [];
  let gaps: TGap[] = [];
  for (const line of lines) {
    const lineGaps = uncovered(line, x0, x1, minGutter);
    const common = stretch.length === 0 ? lineGaps : intersect(gaps, lineGaps, minGutter);
    if (stretch.length > 0 && common.length === 0) {
      out.push(...closeStretch(stretch, gaps, page));
      stretch = [line];
      gaps = lineGaps;
    } else {
      stretch.push(line);
      gaps = common;
    }
  }
  if (stretch.length > 0) out.push(...closeStretch(stretch, gaps, page));
  return out;
}

function closeStretch(lines: TLine[], gaps: TGap[], page: TPage): string[] {
  let best: { gap: TGap; left: TLine[]; right: TLine[]; score: number } | undefined;
  for (const gap of gaps) {
    const left: TLine[] = [];
    const right: TLine[] = [];
    let both = 0;
    for (const line of lines) {
      const l = line.segments.filter((segment) => segment.x1 <= gap.start);
      const r = line.segments.filter((segment) => segment.x0 >= gap.end);
      if (l.length > 0) left.push({ ...line, segments: l });
      if (r.length > 0) right.push({ ...line, segments: r });
      if (l.length > 0 && r.length > 0) both++;
    }
    const fewer = Math.min(left.length, right.length);
    if (fewer < 2) continue;
    // Lines that pair up across the gap are the rows of a table: read them row by row.
    if (both / fewer >= TABLE_ROW_SHARE) continue;
    if (both / fewer >= LABELLED_TABLE_ROW_SHARE) {
      const labels = labelledLines(left, page);
      if (labels / left.length >= LABEL_SHARE) continue;
    }
    const score = fewer * 1000 + (gap.end - gap.start);
    if (best === undefined || score > best.score) best = { gap, left, right, score };
  }
  if (best === undefined) return lines.map(lineText);
  const block = (side: TLine[]): string[] => [
    (side[0]?.y ?? -Infinity) >= page.upper ? BLOCK_BREAK : '',
    ...layoutLines(side, page),
  ];
  return [...block(best.left), ...block(best.right), ''];
}

/**
 * Lines of a left side that hold only labels, headings or dates; a heading wrapped by a narrow label column
 * ("ESPERIENZA" / "PROFESSIONALE") counts on both of its lines.
 */
function labelledLines(left: readonly TLine[], page: TPage): number {
  const texts = left.map(lineText);
  const labelled = left.map((line) => line.segments.every((segment) => page.isLabel(segment.text)));
  for (let index = 0; index + 1 < left.length; index++) {
    if (labelled[index] === true && labelled[index + 1] === true) continue;
    if (
      left[index]!.segments.length === 1 &&
      left[index + 1]!.segments.length === 1 &&
      page.isLabel(`${texts[index]} ${texts[index + 1]}`)
    ) {
      labelled[index] = true;
      labelled[index + 1] = true;
    }
  }
  return labelled.filter(Boolean).length;
}

function lineText(line: TLine): string {
  return line.segments.map((segment) => segment.text).join('\t');
}

/** The horizontal stretches of [x0, x1] a line leaves empty, at least `min` wide. */
function uncovered(line: TLine, x0: number, x1: number, min: number): TGap[] {
  const gaps: TGap[] = [];
  let at = x0;
  for (const segment of line.segments) {
    if (segment.x0 - at >= min) gaps.push({ start: at, end: segment.x0 });
    at = Math.max(at, segment.x1);
  }
  if (x1 - at >= min) gaps.push({ start: at, end: x1 });
  return gaps;
}

function intersect(a: TGap[], b: TGap[], min: number): TGap[] {
  const out: TGap[] = [];
  for (const p of a) {
    for (const q of b) {
      const start = Math.max(p.start, q.start);
      const end = Math.min(p.end, q.end);
      if (end - start >= min) out.push({ start, end });
    }
  }
  return out;
}
