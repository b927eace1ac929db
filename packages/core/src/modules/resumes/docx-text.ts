import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { ResumeParseError } from './resume-parse-error.ts';
import { BLOCK_BREAK, MAX_TEXT_LENGTH } from './text-sink.ts';

/** Parts of a DOCX (zip entries) accepted at most; a real one has a few dozen. */
export const MAX_DOCX_ENTRIES = 1_000;
/** Sum of the declared uncompressed sizes of all parts, and of the bytes actually inflated. */
export const MAX_DOCX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
/** Compression ratio refused for a part above {@link RATIO_FLOOR_BYTES} (XML compresses ~10:1, a bomb ~1000:1). */
export const MAX_DOCX_COMPRESSION_RATIO = 100;
const RATIO_FLOOR_BYTES = 1024 * 1024;
/** Elements open at once in a part at most (Word nests tables in tables, a few dozen deep at worst). */
const MAX_XML_DEPTH = 512;
/** Lines from which the first cell of a table row is a column of the page layout rather than a cell of data. */
const LAYOUT_COLUMN_LINES = 6;

const UNREADABLE = 'The DOCX document could not be read.';

interface TPartInfo {
  entry: yauzl.Entry;
  name: string;
}

/**
 * The text of a DOCX: headers, body (with text boxes) and footers, one line per paragraph or line break, table cells
 * of one-line rows separated by tabs (a "label ⇥ value" row stays one line), cells of other rows on lines of their
 * own. Zip bounds are checked from the central directory before anything is inflated, inflated bytes are counted
 * (declared sizes are not trusted), and text stops being produced at `maxText` characters.
 *
 * @throws ResumeParseError when the file is not a readable DOCX or exceeds the bounds.
 */
export async function extractDocxText(
  bytes: Uint8Array,
  signal?: AbortSignal,
  maxText: number = MAX_TEXT_LENGTH,
): Promise<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (error) {
    throw new ResumeParseError(UNREADABLE, { cause: error });
  }
  if (zip.entryCount > MAX_DOCX_ENTRIES) {
    throw new ResumeParseError(
      `The DOCX document has too many parts (${zip.entryCount}; at most ${MAX_DOCX_ENTRIES}).`,
    );
  }

  const parts = await listParts(zip);
  const document = parts.find((part) => part.name === 'word/document.xml');
  if (document === undefined) throw new ResumeParseError(UNREADABLE);
  const byNumber = (a: TPartInfo, b: TPartInfo): number => a.name.localeCompare(b.name, 'en', { numeric: true });
  const headers = parts.filter((part) => /^word\/header\d*\.xml$/u.test(part.name)).sort(byNumber);
  const footers = parts.filter((part) => /^word\/footer\d*\.xml$/u.test(part.name)).sort(byNumber);

  const budget = { inflated: 0, text: 0, maxText };
  const texts: string[] = [];
  for (const part of [...headers, document, ...footers]) {
    signal?.throwIfAborted();
    if (budget.text >= maxText) break;
    const text = await readPartText(zip, part, budget, signal);
    // Word keeps up to three headers (first page, odd, even), often alike.
    if (text.trim() !== '' && !texts.includes(text)) texts.push(text);
  }
  zip.close();
  return texts.join('\n');
}

/** Reads the central directory only, refusing what a resume never is. */
async function listParts(zip: yauzl.ZipFile): Promise<TPartInfo[]> {
  const parts: TPartInfo[] = [];
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > MAX_DOCX_UNCOMPRESSED_BYTES) {
        throw new ResumeParseError(
          `The DOCX document unpacks to more than ${MAX_DOCX_UNCOMPRESSED_BYTES / 1024 / 1024} MB and was refused.`,
        );
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > MAX_DOCX_COMPRESSION_RATIO) {
        throw new ResumeParseError('The DOCX document is compressed suspiciously well (a zip bomb?) and was refused.');
      }
      parts.push({ entry, name: entry.fileName });
    }
  } catch (error) {
    if (error instanceof ResumeParseError) throw error;
    throw new ResumeParseError(UNREADABLE, { cause: error });
  }
  return parts;
}

interface TBudget {
  inflated: number;
  text: number;
  maxText: number;
}

async function readPartText(
  zip: yauzl.ZipFile,
  part: TPartInfo,
  budget: TBudget,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { entry } = part;
  if (entry.isEncrypted() || !entry.canDecodeFileData())
    throw new ResumeParseError('The DOCX document is encrypted or uses an unknown compression.');

  const walker = new WordXmlText(budget);
  let stream: Readable | undefined;
  try {
    stream = await zip.openReadStreamPromise(entry);
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      // yauzl stops an entry that inflates past its declared size; this also bounds all parts together.
      budget.inflated += chunk.byteLength;
      if (budget.inflated > MAX_DOCX_UNCOMPRESSED_BYTES) {
        throw new ResumeParseError(
          `The DOCX document unpacks to more than ${MAX_DOCX_UNCOMPRESSED_BYTES / 1024 / 1024} MB and was refused.`,
        );
      }
      walker.write(decoder.decode(chunk, { stream: true }));
      if (walker.full) break;
    }
    if (!walker.full) walker.write(decoder.decode());
    walker.close();
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof ResumeParseError) throw error;
    throw new ResumeParseError(UNREADABLE, { cause: error });
  } finally {
    stream?.destroy();
  }
  return walker.text();
}

/** One open table row: its cells' text so far. */
interface TRow {
  cells: string[][];
}

/**
 * Turns WordprocessingML (document, header or footer part) into text while it streams through a SAX parser. Works on
 * local names, so the usual `w:`/`a:` prefixes and their rare alternatives are read alike.
 */
class WordXmlText {
  private readonly parser = new SaxesParser({ xmlns: false, position: false });
  private readonly root: string[] = [];
  /** Where text goes: the root, or the innermost open table cell. */
  private readonly targets: string[][] = [this.root];
  private readonly rows: TRow[] = [];
  private depth = 0;
  private textDepth = 0;
  private runDepth = 0;
  /** Inside `mc:Fallback` (a copy of the `mc:Choice` before it, e.g. a text box twice). */
  private skipDepth = 0;
  full = false;
  private readonly budget: TBudget;

  constructor(budget: TBudget) {
    this.budget = budget;
    this.parser.on('opentag', (tag) => {
      // The parser keeps every open element: a part nesting millions deep would cost its memory, a document never does.
      if (++this.depth > MAX_XML_DEPTH)
        throw new ResumeParseError('The DOCX document is nested too deeply and was refused.');
      this.open(localName(tag.name));
    });
    this.parser.on('closetag', (tag) => {
      this.depth--;
      this.close_(localName(tag.name));
    });
    this.parser.on('text', (text) => {
      if (this.textDepth > 0 && this.skipDepth === 0) this.emit(text);
    });
  }

  write(xml: string): void {
    if (xml !== '' && !this.full) this.parser.write(xml);
  }

  close(): void {
    if (!this.full) this.parser.close();
  }

  text(): string {
    // A part cut short at the text limit may leave rows open: keep what they hold.
    while (this.rows.length > 0) this.endRow();
    return this.root.join('');
  }

  // saxes reports a self-closing tag as an open and a close: every counter below is balanced.
  private open(name: string): void {
    if (name === 'Fallback') {
      this.skipDepth++;
      return;
    }
    if (this.skipDepth > 0) return;
    switch (name) {
      case 't':
        this.textDepth++;
        break;
      case 'r':
        this.runDepth++;
        break;
      case 'br':
      case 'cr':
        if (this.runDepth > 0) this.emit('\n');
        break;
      case 'tab':
      case 'ptab':
        // `w:tab` also defines tab stops inside paragraph properties; only the one in a run is text.
        if (this.runDepth > 0) this.emit('\t');
        break;
      case 'noBreakHyphen':
        this.emit('-');
        break;
      case 'txbxContent':
        this.lineBreak();
        break;
      case 'tr':
        this.rows.push({ cells: [] });
        break;
      case 'tc': {
        const row = this.rows[this.rows.length - 1];
        if (row !== undefined) {
          const cell: string[] = [];
          row.cells.push(cell);
          this.targets.push(cell);
        }
        break;
      }
      default:
    }
  }

  private close_(name: string): void {
    if (name === 'Fallback') {
      if (this.skipDepth > 0) this.skipDepth--;
      return;
    }
    if (this.skipDepth > 0) return;
    switch (name) {
      case 't':
        if (this.textDepth > 0) this.textDepth--;
        break;
      case 'r':
        if (this.runDepth > 0) this.runDepth--;
        break;
      case 'p':
        this.emit('\n');
        break;
      case 'txbxContent':
        this.lineBreak();
        break;
      case 'tc':
        if (this.targets.length > 1 && this.rows.length > 0) this.targets.pop();
        break;
      case 'tr':
        this.endRow();
        break;
      default:
    }
  }

  private endRow(): void {
    const row = this.rows.pop();
    if (row === undefined) return;
    // Cells still open (a part cut short) are dropped from the target stack.
    while (this.targets.length > 1 && row.cells.includes(this.targets[this.targets.length - 1] as string[]))
      this.targets.pop();
    const cells = row.cells.map((cell) => cell.join('').replace(/\s+$/u, '')).filter((cell) => cell.trim() !== '');
    if (cells.length === 0) return;
    const oneLine = cells.every((cell) => !cell.includes('\n'));
    // A first cell of many lines beside others is a column of a layout table (e.g. a contact sidebar): a block.
    const column = cells.length > 1 && (cells[0]?.split('\n').length ?? 0) >= LAYOUT_COLUMN_LINES;
    // Not counted again: the cells' text was counted when it was produced.
    this.current().push(cells.join(oneLine ? '\t' : column ? `\n${BLOCK_BREAK}\n` : '\n') + '\n');
  }

  private current(): string[] {
    return this.targets[this.targets.length - 1] ?? this.root;
  }

  private lineBreak(): void {
    const target = this.current();
    const last = target[target.length - 1];
    if (last !== undefined && !last.endsWith('\n')) this.emit('\n');
  }

  private emit(text: string): void {
    if (this.full) return;
    const room = this.budget.maxText - this.budget.text;
    const kept = text.length > room ? text.slice(0, room) : text;
    this.current().push(kept);
    this.budget.text += kept.length;
    if (this.budget.text >= this.budget.maxText) this.full = true;
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
