import { Buffer } from 'node:buffer';
import WordExtractor from 'word-extractor';
import type { ResumeKind } from './resume-file.ts';

/**
 * A resume whose bytes could not be turned into text. The message is meant for
 * people (it ends up in the processing status); the library error, if any, is
 * kept as `cause` for logs only.
 */
export class ResumeParseError extends Error {
  override readonly name = 'ResumeParseError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Pages of a PDF read at most; a resume longer than this is cut, not refused. */
export const MAX_PDF_PAGES = 50;
/** Characters of text kept at most (a resume is a few thousand). */
export const MAX_TEXT_LENGTH = 500_000;

type Unpdf = typeof import('unpdf');

let unpdfPromise: Promise<Unpdf> | undefined;

/**
 * pdf.js (inside unpdf) adds tens of MB to the process, so it is imported on
 * first use only, and once.
 */
function loadUnpdf(): Promise<Unpdf> {
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
export async function extractResumeText(bytes: Uint8Array, kind: ResumeKind, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const raw = kind === 'pdf' ? await extractPdfText(bytes, signal) : await extractWordText(bytes, kind, signal);
  signal?.throwIfAborted();
  return normaliseText(raw);
}

interface PdfPasswordLike {
  name?: unknown;
}

async function extractPdfText(bytes: Uint8Array, signal: AbortSignal | undefined): Promise<string> {
  const { getDocumentProxy } = await loadUnpdf();
  signal?.throwIfAborted();

  // pdf.js may transfer (detach) the buffer it is given: hand it a copy so the
  // caller's bytes stay intact.
  const data = new Uint8Array(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { verbosity: 0, stopAtErrors: false });
  } catch (error) {
    const name = (error as PdfPasswordLike | null)?.name;
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
    const pages: string[] = [];
    let length = 0;
    const last = Math.min(pdf.numPages, MAX_PDF_PAGES);
    for (let pageNumber = 1; pageNumber <= last && length < MAX_TEXT_LENGTH; pageNumber++) {
      signal?.throwIfAborted();
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      pages.push(text);
      length += text.length;
    }
    return pages.join('\n');
  } catch (error) {
    signal?.throwIfAborted();
    throw new ResumeParseError('The PDF could not be read.', { cause: error });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}

async function extractWordText(bytes: Uint8Array, kind: 'doc' | 'docx', signal: AbortSignal | undefined): Promise<string> {
  const label = kind === 'docx' ? 'DOCX document' : 'Word (.doc) document';
  // word-extractor reads a short file past its end; anything under a header is not a document.
  if (bytes.byteLength < 512) throw new ResumeParseError(`The ${label} could not be read.`);

  const expectedMagic = kind === 'docx' ? 0x504b : 0xd0cf; // "PK" (zip) or OLE compound file
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.readUInt16BE(0) !== expectedMagic) throw new ResumeParseError(`The file is not a ${label}.`);

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
    const parts = [document.getHeaders({ includeFooters: false }), document.getBody(), document.getTextboxes({
      includeHeadersAndFooters: false,
      includeBody: true,
    }), document.getFooters()];
    return parts.filter((part) => part.trim() !== '').join('\n');
  } catch (error) {
    throw new ResumeParseError(`The ${label} could not be read.`, { cause: error });
  }
}

/**
 * Unifies line endings, turns Word's cell/paragraph marks and other control
 * characters into line breaks or spaces, trims trailing blanks and collapses
 * runs of blank lines.
 */
export function normaliseText(raw: string): string {
  let text = raw.length > MAX_TEXT_LENGTH ? raw.slice(0, MAX_TEXT_LENGTH) : raw;
  text = text
    .replace(/\r\n?/g, '\n')
    // Word: \u0007 cell end, \u000b vertical tab (soft line break), \u000c page/section break.
    .replace(/[\u0007\u000b\u000c\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\u00ad\u200b\ufeff]/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
  return text.trim();
}
