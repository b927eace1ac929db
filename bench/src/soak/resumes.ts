import { createRequire } from 'node:module';

/** pdf-lib is core's (test-fixture) dependency; it is loaded from there, as the worker benchmark does. */
const requireFromCore = createRequire(new URL('../../../packages/core/package.json', import.meta.url));

type TPdfPage = { drawText: (text: string, options: object) => void };
type TPdfDocument = {
  embedFont: (font: string) => Promise<unknown>;
  addPage: (size: [number, number]) => TPdfPage;
  save: () => Promise<Uint8Array>;
};
type TPdfLib = {
  PDFDocument: { create: (options?: object) => Promise<TPdfDocument> };
  StandardFonts: { Helvetica: string };
};

const FIRST = [
  'Amira',
  'Lars',
  'Chloe',
  'Ravi',
  'Sanne',
  'Tomas',
  'Ines',
  'Noor',
  'Pieter',
  'Marta',
  'Jonas',
  'Yara',
  'Hugo',
  'Lotte',
  'Emre',
];
const LAST = [
  'Bakker',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Patel',
  'Visser',
  'Haddad',
  'Kowalska',
  'Duarte',
  'Jansen',
  'Nguyen',
  'Smit',
  'Rossi',
];

/** A one-page resume of person `n` (name first, as the worker reads the name from the first line). */
async function resumePdf(n: number, lines: number): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = requireFromCore('pdf-lib') as TPdfLib;
  const first = FIRST[n % FIRST.length] ?? 'Alex';
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length] ?? 'Doe';
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const text = [
    `${first} ${last}`,
    'Operations Specialist',
    `Email: ${first.toLowerCase()}.${last.toLowerCase()}.${n}@soak.example`,
    `Phone: +31 6 ${String(10_000_000 + n).slice(1)}`,
    '',
    'Experience',
    ...Array.from(
      { length: lines },
      (_, i) =>
        `${2023 - i} - ${2024 - i}  Specialist at Example ${i + 1} B.V.; planning, reporting and customer contact.`,
    ),
  ];
  let y = 786;
  for (const line of text) {
    if (line) page.drawText(line, { x: 56, y, size: 10, font });
    y -= 14;
  }
  return Buffer.from(await pdf.save());
}

/** `count` distinct resumes (different names and emails), base64 encoded as POST /candidates takes them. */
export async function candidateResumes(count: number): Promise<string[]> {
  const files = await Promise.all(Array.from({ length: count }, (_, n) => resumePdf(n, 6 + (n % 10))));
  return files.map((file) => file.toString('base64'));
}

/** One small PDF for the applications' `documents.resume`. */
export async function applicationResume(): Promise<string> {
  return (await resumePdf(999_999, 4)).toString('base64');
}
