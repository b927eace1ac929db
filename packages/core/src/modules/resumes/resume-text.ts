import { Buffer } from 'node:buffer';
import WordExtractor from 'word-extractor';
import { extractDocxText } from './docx-text.ts';
import { layoutPage, type TPositionedText } from './pdf-layout.ts';
import { headingKind, isFieldLabel } from './resume-vocabulary.ts';
import { sectionOf } from './resume-profile/sections.ts';
import type { TResumeKind } from './resume-file.ts';
import { ResumeParseError } from './resume-parse-error.ts';
import { BLOCK_BREAK, MAX_TEXT_LENGTH, TextSink } from './text-sink.ts';
import { checkImageSize } from './resume-image.ts';
import { ocrImage, ocrPdf, ocrUnavailableReason, withoutOcrBullets, type TOcrPage } from './resume-ocr.ts';

export { ResumeParseError } from './resume-parse-error.ts';
export { MAX_TEXT_LENGTH } from './text-sink.ts';

/** Pages of a PDF read at most; a resume longer than this is cut, not refused. */
export const MAX_PDF_PAGES = 50;
/** Text pieces of one PDF page laid out at most (a dense page has a few thousand); the rest is dropped. */
export const MAX_PDF_ITEMS_PER_PAGE = 20_000;
/** Objects a PDF may declare (its cross-reference `/Size`); a resume has hundreds, a crafted file millions. */
export const MAX_PDF_OBJECTS = 1_000_000;
/**
 * A PDF with fewer letters than this in its text layer is a scan (perhaps with a page number or a scanner's stamp as
 * text): its pages are read by OCR, and the OCR text is taken when it holds more letters than the text layer.
 */
export const MIN_PDF_TEXT_LETTERS = 20;

type TUnpdf = typeof import('unpdf');

let unpdfPromise: Promise<TUnpdf> | undefined;

/**
 * pdf.js (inside unpdf) adds tens of MB to the process, so it is imported on
 * first use only, and once.
 */
function loadUnpdf(): Promise<TUnpdf> {
  unpdfPromise ??= import('unpdf').catch((error: unknown) => {
    unpdfPromise = undefined;
    throw error;
  });
  return unpdfPromise;
}

const wordExtractor = new WordExtractor();

/**
 * Extracts the plain text of a resume whose type was established by
 * `detectResumeType`. Lines are separated by `\n`; a document without text
 * (e.g. a scanned PDF) gives an empty string.
 *
 * @throws ResumeParseError when the file is corrupt or not of the given kind.
 * @throws the signal's reason when `signal` aborts.
 */
export async function extractResumeText(
  bytes: Uint8Array,
  kind: TResumeKind,
  signal?: AbortSignal,
  onOcr?: () => void,
): Promise<string> {
  signal?.throwIfAborted();
  let raw: string;
  if (kind === 'png' || kind === 'jpeg') {
    // The declared size is checked before anything decodes the image (a decompression bomb fails here, at once).
    checkImageSize(bytes, kind);
    onOcr?.();
    raw = layoutOcrPages(await ocrImage(bytes, kind, signal));
  } else if (kind === 'pdf') {
    raw = await extractPdfText(bytes, signal);
    // A scan in a PDF: no text layer, so its pages are read like a photo (when OCR is installed; else no text).
    if (letters(raw) < MIN_PDF_TEXT_LETTERS && ocrUnavailableReason() === null) {
      onOcr?.();
      const read = layoutOcrPages(await ocrPdf(bytes, signal));
      if (letters(read) > letters(raw)) raw = read;
    }
  } else {
    raw = await extractWordText(bytes, kind, signal);
  }
  signal?.throwIfAborted();
  return normaliseText(raw);
}

/** OCR'd pages laid out like PDF pages (columns, label tables), bullets dropped. */
function layoutOcrPages(pages: readonly TOcrPage[]): string {
  const sink = new TextSink();
  for (const [index, page] of pages.entries()) {
    if (sink.full) break;
    if (index > 0) sink.push('\n\n');
    sink.push(withoutOcrBullets(layoutPage(page.slice(0, MAX_PDF_ITEMS_PER_PAGE), { isLabel: isLabelText })));
  }
  return sink.toString();
}

function letters(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

interface TPdfPasswordLike {
  name?: unknown;
}

/**
 * The largest object count the file's trailers or cross-reference streams declare (`/Size n`), read from its tail
 * without parsing: pdf.js sizes its cross-reference table by it.
 */
export function declaredPdfObjectCount(bytes: Uint8Array): number {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(
    Math.max(0, bytes.byteLength - 65_536),
  );
  let most = 0;
  for (const match of tail.toString('latin1').matchAll(/\/Size\s+(\d{1,15})/g)) most = Math.max(most, Number(match[1]));
  return most;
}

/** A label, a heading or a date range: what the left column of a form-like resume holds. */
function isLabelText(text: string): boolean {
  return (
    isFieldLabel(text) ||
    headingKind(text) !== null ||
    sectionOf(text) !== null ||
    /^[\d\s./–—-]*(?:\p{L}+\.?)?[\s–—-]*(?:19|20)\d{2}\b/u.test(text)
  );
}

async function extractPdfText(bytes: Uint8Array, signal: AbortSignal | undefined): Promise<string> {
  if (declaredPdfObjectCount(bytes) > MAX_PDF_OBJECTS) {
    throw new ResumeParseError(
      `The PDF declares more than ${MAX_PDF_OBJECTS.toLocaleString('en')} objects and was refused.`,
    );
  }
  const { getDocumentProxy } = await loadUnpdf();
  signal?.throwIfAborted();

  // pdf.js may transfer (detach) the buffer it is given: hand it a copy so the
  // caller's bytes stay intact.
  const data = new Uint8Array(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { verbosity: 0, stopAtErrors: false });
  } catch (error) {
    const name = (error as TPdfPasswordLike | null)?.name;
    if (name === 'PasswordException') {
      throw new ResumeParseError('The PDF is password-protected and could not be read.', { cause: error });
    }
    throw new ResumeParseError('The PDF could not be read.', { cause: error });
  }

  const onAbort = (): void => {
    void pdf.loadingTask.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const sink = new TextSink();
    const last = Math.min(pdf.numPages, MAX_PDF_PAGES);
    for (let pageNumber = 1; pageNumber <= last && !sink.full; pageNumber++) {
      signal?.throwIfAborted();
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      const pieces: TPositionedText[] = [];
      // Pieces are laid out per page; stop taking them once the page alone would fill what text is left.
      let room = MAX_TEXT_LENGTH - sink.size;
      for (const item of content.items) {
        if (pieces.length >= MAX_PDF_ITEMS_PER_PAGE || room <= 0) break;
        if (!('str' in item) || item.str === '') continue;
        room -= item.str.length + 1;
        const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height;
        pieces.push({ str: item.str, x, y, width: item.width, size });
      }
      page.cleanup();
      if (pageNumber > 1) sink.push('\n\n');
      // A last piece may still run past the limit: the sink cuts it.
      sink.push(layoutPage(pieces, { isLabel: isLabelText }));
    }
    return sink.toString();
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof ResumeParseError) throw error;
    throw new ResumeParseError('The PDF could not be read.', { cause: error });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}

async function extractWordText(
  bytes: Uint8Array,
  kind: 'doc' | 'docx',
  signal: AbortSignal | undefined,
): Promise<string> {
  const label = kind === 'docx' ? 'DOCX document' : 'Word (.doc) document';
  // Anything under a header is not a document (and word-extractor reads a short file past its end).
  if (bytes.byteLength < 512) throw new ResumeParseError(`The ${label} could not be read.`);

  const expectedMagic = kind === 'docx' ? 0x504b : 0xd0cf; // "PK" (zip) or OLE compound file
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.readUInt16BE(0) !== expectedMagic) throw new ResumeParseError(`The file is not a ${label}.`);
  if (kind === 'docx') return extractDocxText(bytes, signal);

  let document: WordExtractor.Document;
  try {
    document = await wordExtractor.extract(buffer);
  } catch (error) {
    signal?.throwIfAborted();
    // An OLE file without a WordDocument stream (e.g. an .xls) is refused here:
    // this is where a file sniffed only as "cfb" is confirmed to be Word.
    throw new ResumeParseError(`The ${label} could not be read.`, { cause: error });
  }
  try {
    // Word's cell marks (\u0007) and paragraph marks stay in the text: normaliseText turns them into line breaks.
    const parts = [
      document.getHeaders({ includeFooters: false }),
      document.getBody(),
      document.getTextboxes({
        includeHeadersAndFooters: false,
        includeBody: true,
      }),
      document.getFooters(),
    ];
    return markLayoutColumns(parts.filter((part) => part.trim() !== '').join('\n'));
  } catch (error) {
    throw new ResumeParseError(`The ${label} could not be read.`, { cause: error });
  }
}

/** Lines without a cell boundary before (the first cell then has six lines) and after a tab that make it a column boundary. */
const DOC_COLUMN_LINES_BEFORE = 5;
const DOC_COLUMN_LINES_AFTER = 3;

/**
 * word-extractor writes a table's cell marks as tabs, so a layout table (a contact sidebar beside the main text) reads
 * "last sidebar line ⇥ candidate's name". A tab between long runs of lines without tabs is such a column boundary: it
 * becomes a block break, as a DOCX's layout column does.
 */
export function markLayoutColumns(text: string): string {
  const lines = text.split('\n');
  const tabless = (line: string | undefined): boolean => line !== undefined && !line.includes('\t');
  for (let index = DOC_COLUMN_LINES_BEFORE; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const tab = line.indexOf('\t');
    if (tab === -1 || line.indexOf('\t', tab + 1) !== -1) continue;
    const before = lines.slice(index - DOC_COLUMN_LINES_BEFORE, index).every(tabless);
    const after = lines.slice(index + 1, index + 1 + DOC_COLUMN_LINES_AFTER);
    if (!before || after.length < DOC_COLUMN_LINES_AFTER || !after.every(tabless)) continue;
    lines[index] = `${line.slice(0, tab)}\n${BLOCK_BREAK}\n${line.slice(tab + 1)}`;
  }
  return lines.join('\n');
}

/**
 * Unifies line endings, turns Word's cell/paragraph marks and other control
 * characters into line breaks or spaces, keeps a tab (a cell or column boundary)
 * as one tab and a block break as a line holding a form feed, trims blanks
 * around lines and collapses runs of blank lines.
 */
export function normaliseText(raw: string): string {
  let text = raw.length > MAX_TEXT_LENGTH ? raw.slice(0, MAX_TEXT_LENGTH) : raw;
  text = text
    .replace(/\r\n?/g, '\n')
    // Word: \u0007 cell end, \u000b vertical tab (soft line break), \u000c page/section break.
    .replace(/[\u0007\u000b\u000c\u2028\u2029]/g, '\n')
    .replace(new RegExp(BLOCK_BREAK, 'g'), '\n\f\n')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\u00ad\u200b\ufeff]/g, '')
    .replace(/[^\S\n\t\f]*\t[^\S\n\f]*/g, '\t')
    .replace(/[^\S\n\t\f]+/g, ' ')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n*\f[\f\n]*/g, '\n\f\n')
    .replace(/\n{3,}/g, '\n\n');
  return text.replace(/^[\s\f]+|[\s\f]+$/g, '');
}
