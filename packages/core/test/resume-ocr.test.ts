import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jpegBomb, pngBomb } from './support/crafted-resumes.ts';
import {
  RESUME_CORPUS_DIR,
  evaluateCorpusFile,
  readCorpusTruth,
  type TCorpusOutcome,
} from './support/resume-corpus.ts';
import { profileAccuracy } from './support/resume-profile-score.ts';
import { JPEG_MIME, PDF_MIME, PNG_MIME, detectResumeType } from '../src/modules/resumes/resume-file.ts';
import {
  isEnglish,
  jpegAsPdf,
  modelsFor,
  ocrUnavailableReason,
  wordsOfTsv,
  withoutOcrBullets,
} from '../src/modules/resumes/resume-ocr.ts';
import { extractResumeText, ResumeParseError } from '../src/modules/resumes/resume-text.ts';
import { ResumeSandbox } from '../src/modules/resumes/resume-sandbox.ts';

/**
 * Photos and scans of resumes, read by Tesseract (packages/core/scripts/ensure-tesseract.sh installs it before the
 * tests where it can). Without it the OCR tests are skipped, saying why; the size checks run everywhere.
 */
const unavailable = ocrUnavailableReason();
if (unavailable !== null) console.warn(`resume-ocr.test.ts: OCR tests SKIPPED: ${unavailable}`);

const corpusFile = (file: string) => new Uint8Array(readFileSync(join(RESUME_CORPUS_DIR, file)));

describe('images: type and size, before anything decodes them', () => {
  it('accepts PNG and JPEG declared as such, and refuses one declared as the other', async () => {
    const png = corpusFile('27-inigo-etxeberria.scan.png');
    const jpeg = corpusFile('01-priya-raman.scan.jpg');
    expect(await detectResumeType(png, PNG_MIME)).toEqual({ ok: true, kind: 'png' });
    expect(await detectResumeType(jpeg, JPEG_MIME)).toEqual({ ok: true, kind: 'jpeg' });
    expect(await detectResumeType(png, JPEG_MIME)).toEqual({
      ok: false,
      error: 'The file is not a JPEG image (detected: image/png).',
    });
    expect(await detectResumeType(jpeg, PDF_MIME)).toMatchObject({ ok: false });
  });

  it.each([
    ['PNG', () => pngBomb(50_000), 'png'],
    ['JPEG', () => jpegBomb(50_000), 'jpeg'],
  ] as const)(
    'refuses a %s declaring 50 000 × 50 000 pixels at once, without decoding it',
    async (_label, make, kind) => {
      const started = performance.now();
      const error = await extractResumeText(make(), kind).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ResumeParseError);
      expect((error as Error).message).toMatch(/too large \(50000 × 50000 pixels/u);
      expect(performance.now() - started).toBeLessThan(1_000);
    },
  );

  it('refuses an image whose header cannot be read', async () => {
    await expect(extractResumeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'png')).rejects.toThrow(
      'The PNG image could not be read.',
    );
  });
});

describe('OCR output', () => {
  it('puts the words of two columns that tesseract put into one line on baselines of their own', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t1000\t1000\t-1\t',
      '5\t1\t1\t1\t1\t1\t100\t172\t40\t15\t96\tSan',
      '5\t1\t1\t1\t1\t2\t150\t170\t90\t16\t96\tFrancisco',
      '5\t1\t1\t1\t1\t3\t460\t155\t90\t19\t96\tProduct',
      '5\t1\t1\t1\t1\t4\t560\t154\t80\t19\t96\tOwner',
      '5\t1\t1\t1\t1\t5\t700\t150\t10\t10\t40\td',
    ].join('\n');
    const words = wordsOfTsv(tsv);
    expect(words.map((word) => word.str)).toEqual(['San', 'Francisco', 'Product', 'Owner']);
    const [san, francisco, product, owner] = words;
    expect(san!.y).toBe(francisco!.y);
    expect(product!.y).toBe(owner!.y);
    expect(product!.y).not.toBe(san!.y);
  });

  it('reads an English resume again with English alone, a Dutch one with Dutch first, and leaves an unknown one', () => {
    const page = (text: string) => text.split(' ').map((str, x) => ({ str, x, y: 0, width: 1, size: 10 }));
    const english =
      'Amelia Whitmore Financial Analyst Reliable professional with a record of delivering projects on time and within ' +
      'budget. WORK EXPERIENCE Marketing Lead Since 10/2013 Led a team of five across two sites. Cut lead times by 20 % ' +
      'in the first year. EDUCATION MSc Data Science, University of Example SKILLS Python';
    expect(isEnglish(english)).toBe(true);
    expect(modelsFor(page(english))).toBe('eng');
    const dutch =
      'Ruben van den Berg Logistiek medewerker PROFIEL Enthousiaste collega met oog voor detail en plezier in ' +
      'samenwerken. WERKERVARING Software-ontwikkelaar sinds 2012 Leiding aan een team van vijf collega’s. OPLEIDING';
    expect(isEnglish(dutch)).toBe(false);
    expect(modelsFor(page(dutch))).toBe('nld+eng');
    expect(isEnglish('Jan Smit 06 1234 5678 jan@smit.example')).toBe(false);
    expect(modelsFor(page('Jan Smit 06 1234 5678 jan@smit.example'))).toBeNull();
  });

  it('wraps a JPEG as it is in a one-page PDF sized as a 150 dpi scan, with a cross-reference table that is right', async () => {
    const jpeg = corpusFile('01-priya-raman.scan.jpg');
    const pdf = jpegAsPdf(jpeg);
    expect(pdf).not.toBeNull();
    const text = Buffer.from(pdf!).toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text).toMatch(
      /\/Subtype\/Image\/Width \d+\/Height \d+\/ColorSpace\/DeviceGray\/BitsPerComponent 8\/Filter\/DCTDecode/u,
    );
    expect(Buffer.from(pdf!).indexOf(Buffer.from(jpeg))).toBeGreaterThan(0);
    const xref = Number(/startxref\n(\d+)/u.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gmu)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    for (const [index, offset] of offsets.entries())
      expect(text.slice(offset)).toMatch(new RegExp(`^${index + 1} 0 obj`, 'u'));
    expect(await detectResumeType(pdf!, PDF_MIME)).toEqual({ ok: true, kind: 'pdf' });
    // Not a JPEG, or one without a frame header: nothing to wrap.
    expect(jpegAsPdf(corpusFile('27-inigo-etxeberria.scan.png'))).toBeNull();
    expect(jpegAsPdf(new Uint8Array([0xff, 0xd8, 0xff, 0xd9, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
  });

  it('drops list bullets read as signs or letters, and keeps a phone number', () => {
    expect(
      withoutOcrBullets('« Led a team\n+ Scrum\ne Führung eines Teams\n+» Dutch (basic)\n+31 20 123 4567\n«\tSQL'),
    ).toBe('Led a team\nScrum\nFührung eines Teams\nDutch (basic)\n+31 20 123 4567\nSQL');
  });
});

describe.skipIf(unavailable !== null)('OCR of scanned resumes (Tesseract)', () => {
  const truth = readCorpusTruth();
  const outcomes: TCorpusOutcome[] = [];
  let sandbox: ResumeSandbox | undefined;
  afterAll(() => sandbox?.close());

  it.each(['01-priya-raman.scan.jpg', '27-inigo-etxeberria.scan.png', '31-rachid-el-amrani.scan.pdf'])(
    'reads the contact details of %s',
    async (file) => {
      const outcome = await evaluateCorpusFile(RESUME_CORPUS_DIR, file, truth[file]!);
      outcomes.push(outcome);
      expect(outcome.error).toBeNull();
      expect(outcome.wrong, JSON.stringify(outcome.got)).toEqual([]);
    },
    90_000,
  );

  it('reads their positions well enough (experience F1 ≥ 0.8 on these three)', () => {
    expect(outcomes).toHaveLength(3);
    expect(profileAccuracy(outcomes.map((outcome) => outcome.profileScore)).experience).toBeGreaterThanOrEqual(0.8);
  });

  it('reads a photo inside the parse sandbox, within its limits, and refuses a bomb there without a limit stop', async () => {
    const stops: string[] = [];
    sandbox = new ResumeSandbox({ onStop: (reason) => stops.push(reason) });
    const fields = await sandbox.parse(corpusFile('27-inigo-etxeberria.scan.png'), 'png', { defaultRegion: 'ES' });
    expect(fields).toMatchObject({ email: 'ietxe@correo.example', lastName: 'Etxeberria' });
    expect(fields.profile.languages.map((language) => language.language)).toEqual(['es', 'eu', 'en']);
    await expect(sandbox.parse(pngBomb(50_000), 'png')).rejects.toThrow(/too large/u);
    expect(stops).toEqual([]);
  }, 90_000);
});
