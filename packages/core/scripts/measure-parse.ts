/**
 * By-hand measurement of resume parsing throughput and memory (not part of the app or the tests):
 *
 *   cd packages/core && pnpm exec node scripts/measure-parse.ts [iterations=50] [targetKB=100]
 *
 * Builds a DOCX and a PDF resume of about `targetKB` in memory (docx and pdf-lib are dev dependencies), then
 * parses each `iterations` times in a row (detect type → extract text → find fields) in a fresh child process per
 * kind, and prints the time per resume and the child's RSS (before the first parse, after it, and at its peak).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectResumeType, DOCX_MIME, PDF_MIME } from '../src/modules/resumes/resume-file.ts';
import { extractResumeText } from '../src/modules/resumes/resume-text.ts';
import { extractCandidateFields } from '../src/modules/resumes/resume-fields.ts';

const iterations = Number(process.argv[2] ?? 50);
const targetBytes = Number(process.argv[3] ?? 100) * 1024;

/** Deterministic pseudo-random words, so that the text does not compress to nothing. */
function makeWords(seed: number): () => string {
  let state = seed;
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'ber', 'gen', 'dri', 'nu', 'pe', 'sol', 'wy', 'zan', 'ho'];
  return () => {
    let word = '';
    const length = 1 + (state % 4);
    for (let i = 0; i < length; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      word += syllables[state % syllables.length];
    }
    return word;
  };
}

function resumeLines(count: number, seed: number): string[] {
  const word = makeWords(seed);
  const lines = [
    'Curriculum Vitae',
    'Marieke van den Heuvel',
    'Email: marieke.vandenheuvel@example.com',
    'Phone: +31 6 2345 6789',
    'LinkedIn: https://www.linkedin.com/in/mariekevdheuvel',
  ];
  for (let i = 0; i < count; i++) {
    lines.push(Array.from({ length: 10 }, word).join(' '));
  }
  return lines;
}

async function buildPdf(targetSize: number): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  let count = 200;
  for (;;) {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    let page = pdf.addPage([595, 842]);
    let y = 790;
    for (const line of resumeLines(count, 7)) {
      if (y < 50) {
        page = pdf.addPage([595, 842]);
        y = 790;
      }
      page.drawText(line, { x: 50, y, size: 10, font });
      y -= 13;
    }
    const bytes = await pdf.save();
    if (bytes.byteLength >= targetSize) return bytes;
    count = Math.ceil(count * (targetSize / bytes.byteLength) * 1.05);
  }
}

async function buildDocx(targetSize: number): Promise<Uint8Array> {
  const { Document, Packer, Paragraph, TextRun } = await import('docx');
  let count = 400;
  for (;;) {
    const document = new Document({
      sections: [{ children: resumeLines(count, 11).map((line) => new Paragraph({ children: [new TextRun(line)] })) }],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(document));
    if (bytes.byteLength >= targetSize) return bytes;
    count = Math.ceil(count * (targetSize / bytes.byteLength) * 1.05);
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rss = (): number => process.memoryUsage().rss;

async function measure(label: string, bytes: Uint8Array, mime: string): Promise<void> {
  const before = rss();
  const parseOnce = async (): Promise<{ chars: number; ok: boolean }> => {
    const type = await detectResumeType(bytes, mime);
    if (!type.ok) throw new Error(type.error);
    const text = await extractResumeText(bytes, type.kind);
    const fields = extractCandidateFields(text);
    return { chars: text.length, ok: fields.email === 'marieke.vandenheuvel@example.com' };
  };

  const firstStart = performance.now();
  const first = await parseOnce();
  const firstMs = performance.now() - firstStart;
  const afterFirst = rss();
  if (!first.ok) throw new Error(`${label}: fields not found`);

  let peak = afterFirst;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    await parseOnce();
    peak = Math.max(peak, rss());
  }
  const totalMs = performance.now() - start;
  const perMs = totalMs / iterations;
  console.log(
    `${label}: ${(bytes.byteLength / 1024).toFixed(0)} KB, ${first.chars} chars of text | first parse ${firstMs.toFixed(0)} ms | ` +
      `${perMs.toFixed(1)} ms/resume (${(1000 / perMs).toFixed(1)} resumes/s, ${iterations} runs) | ` +
      `RSS before ${mb(before)}, after first ${mb(afterFirst)}, peak ${mb(peak)}`,
  );
}

async function child(kind: string, file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  global.gc?.();
  if (kind === 'pdf') await measure('PDF ', bytes, PDF_MIME);
  else await measure('DOCX', bytes, DOCX_MIME);
  global.gc?.();
  const memory = process.memoryUsage();
  console.log(
    `      after gc: RSS ${mb(memory.rss)}, JS heap used ${mb(memory.heapUsed)}, external ${mb(memory.external)}; ` +
      `max RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
}

async function main(): Promise<void> {
  // Inputs are built here; each kind is parsed in a fresh child process, so that its RSS is that of a
  // process that only parses (pdf-lib and docx, used to build the inputs, stay out of it).
  const dir = mkdtempSync(join(tmpdir(), 'measure-parse-'));
  try {
    const docxFile = join(dir, 'resume.docx');
    const pdfFile = join(dir, 'resume.pdf');
    writeFileSync(docxFile, await buildDocx(targetBytes));
    writeFileSync(pdfFile, await buildPdf(targetBytes));
    console.log(`node ${process.version}, ${iterations} runs per kind after one warm-up parse`);
    for (const [kind, file] of [
      ['docx', docxFile],
      ['pdf', pdfFile],
    ] as const) {
      execFileSync(
        process.execPath,
        [
          '--expose-gc',
          fileURLToPath(import.meta.url),
          String(iterations),
          String(targetBytes / 1024),
          '--child',
          kind,
          file,
        ],
        { stdio: 'inherit' },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt === -1) {
  await main();
} else {
  await child(process.argv[childAt + 1] ?? '', process.argv[childAt + 2] ?? '');
}
