/**
 * Scanned and photographed resumes for the corpus, made from a person's printed PDF the way a scanner or a phone
 * makes them: the first page rasterized (poppler's pdftoppm), slightly rotated, blurred and noisy (ImageMagick's
 * `convert`), saved as a grey JPEG or PNG — or such a JPEG wrapped in a PDF without any text layer (pdf-lib; Debian's
 * ImageMagick refuses to write PDF). Needs `apt-get install -y poppler-utils imagemagick`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';

export type TScan = 'jpg' | 'png' | 'pdf';

/** Debian's ImageMagick 6 (by path: another `convert` may come first on PATH). */
const CONVERT = process.env.CONVERT_PATH ?? '/usr/bin/convert';
/** 150 dpi: what office scanners default to for documents; small files, still readable by OCR. */
const DPI = 150;

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Writes `base.scan.<kind>` for the PDF at `pdf` into `work`; returns the file's path. */
export async function makeScan(pdf: string, work: string, base: string, kind: TScan): Promise<string> {
  const prefix = join(work, `${base}-raster`);
  run('pdftoppm', ['-r', String(DPI), '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  // A page fed a little crooked, a soft focus and some sensor noise; fixed seeds keep the bytes the same each run.
  const degraded = [
    '-rotate',
    kind === 'png' ? '-0.6' : '0.8',
    '-background',
    'white',
    '-blur',
    '0x0.4',
    '-seed',
    '7',
    '-attenuate',
    '0.25',
    '+noise',
    'Gaussian',
    '-colorspace',
    'Gray',
    '-strip',
  ];
  if (kind === 'png') {
    // A black-and-white scan (as a copier sends it): crooked, thresholded to one bit, no noise to keep it small.
    const out = join(work, `${base}.scan.png`);
    run(CONVERT, [
      `${prefix}.png`,
      '-rotate',
      '-0.6',
      '-background',
      'white',
      '-colorspace',
      'Gray',
      '-threshold',
      '62%',
      '-type',
      'Bilevel',
      '-strip',
      '-define',
      'png:compression-level=9',
      out,
    ]);
    return out;
  }
  const jpeg = join(work, `${base}.scan.jpg`);
  run(CONVERT, [`${prefix}.png`, ...degraded, '-quality', '45', '-sampling-factor', '4:2:0', jpeg]);
  if (kind === 'jpg') return jpeg;
  // A scanner's PDF: the page image alone, no text.
  const document = await PDFDocument.create();
  document.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  document.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  document.setProducer('resume corpus scanner');
  const image = await document.embedJpg(readFileSync(jpeg));
  const page = document.addPage([595.28, 841.89]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  const out = join(work, `${base}.scan.pdf`);
  writeFileSync(out, await document.save({ useObjectStreams: false }));
  return out;
}
