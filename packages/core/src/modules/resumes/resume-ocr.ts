/**
 * OCR of scanned resumes with Debian's Tesseract 5 (`tesseract-ocr` and its eng, nld, deu, fra, spa, ita and pol
 * packs) and, for PDFs without a text layer, poppler's `pdftoppm` to rasterize the pages. Both run as child processes
 * of the parse process with limits of their own — wall-clock time (`timeout -s KILL`, so they die even when the parse
 * process is killed and cannot reap them), CPU time and address space (`prlimit`), one thread — and their output is
 * read up to MAX_TEXT_LENGTH. Installed by packages/core/scripts/ensure-tesseract.sh.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TPositionedText } from './pdf-layout.ts';
import { languageRegion } from './resume-vocabulary.ts';
import { ResumeParseError } from './resume-parse-error.ts';
import { MAX_TEXT_LENGTH } from './text-sink.ts';

/** The languages of the resumes we read, as Tesseract names them. */
export const OCR_LANGUAGES = 'eng+nld+deu+fra+spa+ita+pol';
/** Pages of a PDF without text read by OCR at most (a resume has one to three; each takes ~4–10 s, the first twice). */
export const MAX_OCR_PAGES = 3;
/** The longer side of a rasterized page, in pixels (≈ 240 dpi on A4): enough for 9-point text, bounded for any page size. */
export const OCR_PAGE_PIXELS = 2_800;
/** Address space (MB) and CPU seconds of one tesseract or pdftoppm run. */
export const OCR_MEMORY_MB = 1_024;
export const OCR_CPU_SECONDS = 30;
/** Wall-clock seconds of one run (the sandbox's own time limit for the whole resume still applies). */
export const OCR_WALL_SECONDS = 40;

/** The parse process has an empty environment (no PATH): the tools are looked up where Debian puts them. */
function tool(name: string): string | null {
  for (const dir of ['/usr/bin', '/usr/local/bin', '/bin']) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Why OCR cannot run here, or null when it can. */
export function ocrUnavailableReason(): string | null {
  const missing = ['tesseract', 'pdftoppm', 'prlimit', 'timeout'].filter((name) => tool(name) === null);
  return missing.length === 0
    ? null
    : `missing ${missing.join(', ')} (install with packages/core/scripts/ensure-tesseract.sh)`;
}

export class OcrUnavailableError extends ResumeParseError {}

type TRun = { stdout: string; code: number | null; signal: NodeJS.Signals | null };

/** Words of one tesseract line further apart than this many word heights are in different columns. */
const COLUMN_GAP_EM = 2;
const DESCENDER_RE = /[gjpqyçąęŞ(),;[\]{}|/@]/u;
/** Words tesseract is less sure of (0–100) are specks, not text; a lone character needs more. */
const MIN_WORD_CONFIDENCE = 30;
/** A word that is an email address ("jan.smit@example.nl"), however sure tesseract is of it. */
const EMAIL_SHAPE_RE = /^[\p{L}\d._+-]{1,64}@[\p{L}\d-]{1,63}(?:\.[\p{L}\d-]{1,63})*\.\p{L}{2,12}$/u;
const MIN_LETTER_CONFIDENCE = 80;
/** A group of a phone number: digits, with the letters OCR reads for some of them ("o113"); at least two digits. */
const DIGIT_GROUP_RE = /^(?=(?:.*\d){2})[\dOoQDIlit|ZzSsGBgq]{2,5}$/u;
/** A number word a digit group may follow: digits in groups, with a "+" or brackets ("+44", "(020)", "7946"). */
const NUMBER_WORD_RE = /^[+(]?\d[\d()./-]*$/u;
/** Characters of tesseract's TSV read at most (a word per row with its box: ~8 × the text). */
const MAX_TSV_LENGTH = MAX_TEXT_LENGTH * 8;

/** Runs a tool under the limits, reading at most `maxOutput` characters of its output. */
function runBounded(
  command: string,
  args: string[],
  signal: AbortSignal | undefined,
  maxOutput = MAX_TEXT_LENGTH,
): Promise<TRun> {
  const prlimit = tool('prlimit');
  const timeout = tool('timeout');
  if (prlimit === null || timeout === null)
    return Promise.reject(new OcrUnavailableError('Scanned resumes cannot be read here (OCR is not installed).'));
  return new Promise<TRun>((resolve, reject) => {
    const child = spawn(
      prlimit,
      [
        `--as=${OCR_MEMORY_MB * 1024 * 1024}`,
        `--cpu=${OCR_CPU_SECONDS}`,
        '--',
        timeout,
        '-s',
        'KILL',
        String(OCR_WALL_SECONDS),
        command,
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'], env: { OMP_THREAD_LIMIT: '1', LC_ALL: 'C.UTF-8' } },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > maxOutput) {
        stdout = stdout.slice(0, maxOutput);
        child.kill('SIGKILL');
      }
    });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, exitSignal) => {
      signal?.removeEventListener('abort', onAbort);
      resolve({ stdout, code, signal: exitSignal });
    });
  });
}

/** The words of one page with their boxes, in image pixels turned to PDF-like units (y grows upwards). */
export type TOcrPage = TPositionedText[];

/**
 * Words of tesseract's TSV output as positioned text: each word at the bottom of its own box (tesseract may put the
 * lines of two columns into one line; their words still sit at their own heights), sized by the median word height of
 * its line, so the PDF page layout (columns, label tables) reads a scan like a PDF.
 */
export function wordsOfTsv(tsv: string): TOcrPage {
  let pageHeight = 0;
  type TWord = { text: string; left: number; bottom: number; width: number; height: number; confidence: number };
  const read = new Map<string, TWord[]>();
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const [level, , block, paragraph, line, , left, top, width, height, confidence, ...rest] = cells;
    const [x, y, w, h] = [left, top, width, height].map(Number) as [number, number, number, number];
    if (![x, y, w, h].every(Number.isFinite)) continue;
    if (level === '1') pageHeight = y + h;
    const text = rest.join('\t').trim();
    if (level !== '5' || text === '') continue;
    const key = `${block}.${paragraph}.${line}`;
    const words = read.get(key) ?? [];
    words.push({ text, left: x, bottom: y + h, width: w, height: h, confidence: Number(confidence) });
    read.set(key, words);
  }
  const lines = new Map<string, TWord[]>();
  for (const [key, words] of read) {
    const kept: TWord[] = [];
    for (const [index, word] of words.entries()) {
      const next = words[index + 1];
      // An email is kept however unsure tesseract is of it (long addresses get low confidences), with a first part
      // it split off at a dot ("giulia." "romano@posta.example"), joined again.
      if (
        next !== undefined &&
        /[._-]$/u.test(word.text) &&
        EMAIL_SHAPE_RE.test(next.text) &&
        next.left - (word.left + word.width) <= next.height
      ) {
        words[index + 1] = {
          ...next,
          text: word.text + next.text,
          left: word.left,
          width: next.left + next.width - word.left,
        };
        continue;
      }
      if (EMAIL_SHAPE_RE.test(word.text)) {
        kept.push(word);
        continue;
      }
      // The last group of a phone number that tesseract was unsure of ("020 7946 o113") is still part of the number.
      const previous = kept.at(-1);
      const numberGroup =
        previous !== undefined &&
        NUMBER_WORD_RE.test(previous.text) &&
        DIGIT_GROUP_RE.test(word.text) &&
        word.left - (previous.left + previous.width) <= word.height;
      // Specks and rules read as letters ("d", ".", "+" in a margin) would bridge the gap between two columns.
      if (word.confidence < MIN_WORD_CONFIDENCE && !numberGroup) continue;
      if (word.text.length === 1 && word.confidence < MIN_LETTER_CONFIDENCE) continue;
      kept.push(word);
    }
    if (kept.length > 0) lines.set(key, kept);
  }
  const pieces: TOcrPage = [];
  for (const words of lines.values()) {
    const heights = words.map((word) => word.height).sort((a, b) => a - b);
    const size = heights[Math.floor(heights.length / 2)] ?? 10;
    // Tesseract follows a skewed line; the layout wants one baseline per line. Words far apart (two columns that
    // tesseract put into one line) are parts of their own, each on the median baseline of its words.
    words.sort((a, b) => a.left - b.left);
    const parts: (typeof words)[] = [];
    for (const word of words) {
      const part = parts.at(-1);
      const last = part?.at(-1);
      if (part !== undefined && last !== undefined && word.left - (last.left + last.width) <= COLUMN_GAP_EM * size)
        part.push(word);
      else parts.push([word]);
    }
    for (const part of parts) {
      // A box reaches below the baseline by the descenders of g, j, p, q, y and brackets: the baseline is above it.
      const baselines = part
        .map((word) => (DESCENDER_RE.test(word.text) ? word.bottom - size * 0.22 : word.bottom))
        .sort((a, b) => a - b);
      const baseline = baselines[Math.floor(baselines.length / 2)] ?? 0;
      for (const word of part)
        pieces.push({ str: word.text, x: word.left, y: pageHeight - baseline, width: word.width, size });
    }
  }
  return pieces;
}

/** Tesseract's model of the language of each country languageRegion names. */
const MODEL_OF_REGION: Readonly<Record<string, string>> = {
  NL: 'nld',
  DE: 'deu',
  FR: 'fra',
  ES: 'spa',
  IT: 'ita',
  PL: 'pol',
};

/**
 * The models to read a resume with once its language is known: that language first, then English (English alone for
 * an English resume). All seven at once lose the accents of the resume's own language ("Zając" read as "Zajac",
 * "Przykładowy" as "Przyktadowy") and misread digits.
 */
export function modelsFor(words: readonly TPositionedText[]): string | null {
  const text = words.map((word) => word.str).join(' ');
  const region = languageRegion(text);
  const model = region === null ? undefined : MODEL_OF_REGION[region];
  if (model !== undefined) return `${model}+eng`;
  // An English resume is read with English alone: the other six models turn its digits and letters into theirs
  // ("0113 496 0890" read as "0118 496 0890").
  return region === null && isEnglish(text) ? 'eng' : null;
}

/** Words only English text has many of (function words and the headings of an English resume). */
const ENGLISH_WORDS = new Set([
  'the',
  'and',
  'of',
  'with',
  'for',
  'to',
  'in',
  'experience',
  'education',
  'skills',
  'languages',
  'profile',
  'work',
  'present',
]);
/** English words of the text at least, in number and as a share of its words. */
const MIN_ENGLISH_WORDS = 8;
const MIN_ENGLISH_SHARE = 0.05;

/** Whether an OCR'd text (whose language languageRegion could not tell) reads as English. */
export function isEnglish(text: string): boolean {
  const words = text
    .slice(0, 20_000)
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((word) => word !== '');
  const english = words.filter((word) => ENGLISH_WORDS.has(word)).length;
  return english >= MIN_ENGLISH_WORDS && english >= words.length * MIN_ENGLISH_SHARE;
}

async function tesseract(image: string, signal: AbortSignal | undefined, languages = OCR_LANGUAGES): Promise<TOcrPage> {
  const command = tool('tesseract');
  if (command === null) throw new OcrUnavailableError('Scanned resumes cannot be read here (OCR is not installed).');
  const run = await runBounded(
    command,
    [image, 'stdout', '-l', languages, '--psm', '3', 'tsv'],
    signal,
    MAX_TSV_LENGTH,
  );
  signal?.throwIfAborted();
  if (run.code !== 0 && run.stdout.length < MAX_TSV_LENGTH) {
    throw new ResumeParseError('The image could not be read.', {
      cause: new Error(`tesseract ended with ${run.signal ?? `exit code ${run.code}`}`),
    });
  }
  return wordsOfTsv(run.stdout);
}

function withWorkDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'resume-ocr-'));
  return work(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The resolution a photo or scan is taken to have when it is wrapped in a page (that of office scanners). */
const SCAN_DPI = 150;

/**
 * A JPEG as a one-page PDF of its own (the JPEG's bytes as they are, DCTDecode), sized as if scanned at SCAN_DPI; null
 * when its frame header cannot be read. pdftoppm then rasterizes it at OCR_PAGE_PIXELS like a scanner's PDF: a photo
 * read at ~150 dpi loses digits and accents to blur ("05 67 89" read as "05 67 69", "Inès" as "Inés") that the same
 * image scaled up to ~240 dpi keeps.
 */
export function jpegAsPdf(bytes: Uint8Array): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let frame: { width: number; height: number; components: number } | null = null;
  for (let at = 2; frame === null && at + 9 < Math.min(bytes.byteLength, 1024 * 1024); ) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      frame = { height: view.getUint16(at + 5), width: view.getUint16(at + 7), components: view.getUint8(at + 9) };
    else at += 2 + Math.max(2, view.getUint16(at + 2));
  }
  const space =
    frame === null
      ? undefined
      : ({ 1: 'DeviceGray', 3: 'DeviceRGB', 4: 'DeviceCMYK' } as const)[frame.components as 1 | 3 | 4];
  if (frame === null || space === undefined || frame.width === 0 || frame.height === 0) return null;
  const points = (pixels: number) => ((pixels * 72) / SCAN_DPI).toFixed(2);
  const [width, height] = [points(frame.width), points(frame.height)];
  const content = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
  const parts: (string | Uint8Array)[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (part: string | Uint8Array) => {
    parts.push(part);
    length += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.byteLength;
  };
  const objects: (string | [string, Uint8Array, string])[] = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    `<</Type/Page/Parent 2 0 R/MediaBox[0 0 ${width} ${height}]/Resources<</XObject<</Im0 4 0 R>>>>/Contents 5 0 R>>`,
    [
      `<</Type/XObject/Subtype/Image/Width ${frame.width}/Height ${frame.height}/ColorSpace/${space}/BitsPerComponent 8/Filter/DCTDecode/Length ${bytes.byteLength}>>stream\n`,
      bytes,
      '\nendstream',
    ],
    `<</Length ${content.length}>>stream\n${content}\nendstream`,
  ];
  write('%PDF-1.4\n');
  for (const [index, object] of objects.entries()) {
    offsets.push(length);
    write(`${index + 1} 0 obj\n`);
    if (typeof object === 'string') write(object);
    else for (const part of object) write(part);
    write('\nendobj\n');
  }
  const xref = length;
  write(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) write(`${String(offset).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)));
}

/** The words of a photo or scan (PNG or JPEG, its size checked by the caller); a JPEG is read as a scanner's PDF. */
export function ocrImage(bytes: Uint8Array, kind: 'png' | 'jpeg', signal?: AbortSignal): Promise<TOcrPage[]> {
  const wrapped = kind === 'jpeg' ? jpegAsPdf(bytes) : null;
  if (wrapped !== null) return ocrPdf(wrapped, signal);
  return withWorkDir(async (dir) => {
    const file = join(dir, kind === 'png' ? 'page.png' : 'page.jpg');
    writeFileSync(file, bytes, { mode: 0o600 });
    const first = await tesseract(file, signal);
    const models = modelsFor(first);
    // Read once more with the resume's own language first, when it is not English.
    return [models === null ? first : await tesseract(file, signal, models)];
  });
}

/** The words of a PDF's first pages, rasterized by pdftoppm at a bounded size and read by OCR. */
export function ocrPdf(bytes: Uint8Array, signal?: AbortSignal): Promise<TOcrPage[]> {
  return withWorkDir(async (dir) => {
    const pdftoppm = tool('pdftoppm');
    if (pdftoppm === null) throw new OcrUnavailableError('Scanned resumes cannot be read here (OCR is not installed).');
    const file = join(dir, 'resume.pdf');
    writeFileSync(file, bytes, { mode: 0o600 });
    const run = await runBounded(
      pdftoppm,
      [
        '-q',
        '-f',
        '1',
        '-l',
        String(MAX_OCR_PAGES),
        '-scale-to',
        String(OCR_PAGE_PIXELS),
        '-gray',
        '-png',
        file,
        join(dir, 'page'),
      ],
      signal,
    );
    signal?.throwIfAborted();
    const pages = readdirSync(dir)
      .filter((name) => /^page-\d+\.png$/u.test(name))
      .sort((a, b) => Number(/\d+/u.exec(a)?.[0]) - Number(/\d+/u.exec(b)?.[0]));
    if (pages.length === 0) {
      throw new ResumeParseError('The PDF could not be read.', {
        cause: new Error(`pdftoppm ended with ${run.signal ?? `exit code ${run.code}`}`),
      });
    }
    // The first page tells the resume's language; it is read again with that language first, and so are the others.
    const first = await tesseract(join(dir, pages[0]!), signal);
    const models = modelsFor(first) ?? OCR_LANGUAGES;
    const read: TOcrPage[] = [models === OCR_LANGUAGES ? first : await tesseract(join(dir, pages[0]!), signal, models)];
    for (const page of pages.slice(1)) read.push(await tesseract(join(dir, page), signal, models));
    return read;
  });
}

/**
 * OCR reads list bullets as letters or signs ("• Scrum" → "e Scrum", "+ Scrum", "« Scrum", ". SQL"): the bullets go,
 * so a list item reads as the item. Applied to each line (and each tab-separated cell) of the laid-out text.
 */
export function withoutOcrBullets(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .split('\t')
        .map((cell) =>
          repairOcrMisreads(cell.replace(/^\s*(?:[•·*+«»©®°■□▪◦¢.,]+\s+(?=\S)|[oe]\s+(?=[\p{Lu}\d]))/u, '')),
        )
        .filter((cell) => !/^\s*[•·*+«»©®°■□▪◦¢.,_|-]*\s*$/u.test(cell))
        .join('\t'),
    )
    .join('\n');
}

/**
 * An email address whose "@" OCR read as "(O", "(o", "(0", "(@", "(a)", "©" or "®", or with a space beside it
 * ("tzielinski© poczta.example", "jan @example.nl"): local part, misread, domain.
 */
const MISREAD_AT_RE =
  /(?<![\w.+-])([\w.+|-]{1,64}?)(?:(?:\([Oo0@]|\(a\)|[©®]) ?| ?@ | @)([\w-]{1,63}(?:\.[\w-]{1,63})*\.\p{Ll}{2,12})(?![\w.-])/gu;
/** An email address with a "|" (a misread "l": no address has one in practice). */
const PIPE_IN_EMAIL_RE = /(?<![\w.+|-])([\w.+|-]{0,63}\|[\w.+|-]{0,63}@[\w-]{1,63}(?:\.[\w-]{1,63})+)/gu;

/**
 * Misreads of Tesseract that are certain from their shape: an email's "@" or "l" read as other signs, a company's
 * legal form read with digits ("Sp. z 0.0.", "S.r.1.") or "plc" as "pic" after a company name.
 */
export function repairOcrMisreads(text: string): string {
  return text
    .replace(MISREAD_AT_RE, (_match, local: string, domain: string) => `${local}@${domain}`)
    .replace(PIPE_IN_EMAIL_RE, (match) => match.replace(/\|/gu, 'l'))
    .replace(/(?<![\p{L}])Sp\.\s?z\s?[o0]\.[o0]\.?/gu, 'Sp. z o.o.')
    .replace(/(?<![\p{L}])S\.r\.[1lI]\./gu, 'S.r.l.')
    .replace(/(?<=\p{Lu}\p{L}+ )pic(?=$|[\s,.;)])/gu, 'plc');
}
