/**
 * Recreates the resume corpus in packages/core/test/fixtures/resume-corpus (committed; CI only reads it):
 *
 *   apt-get install -y chromium pandoc libreoffice-writer-nogui fonts-liberation
 *   pnpm --filter @careers/bench exec node src/resume-corpus/generate.ts [--missing]
 *
 * `--missing` renders only the people whose files are not in the folder yet (the committed files keep their bytes:
 * Chromium and pandoc versions differ between machines) and rewrites truth.json for everyone.
 *
 * Every person of people.ts becomes an HTML page (templates.ts), printed to PDF by headless Chromium and converted to
 * DOCX by pandoc; people marked `doc` also become a legacy Word .doc (LibreOffice, from the DOCX). truth.json beside
 * the files holds what a person reading each file would write down.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  RESUME_CORPUS_DIR,
  RESUME_CORPUS_TRUTH_FILE,
  ZCorpusTruth,
  type TCorpusTruth,
  type TCorpusTruthEntry,
} from '@careers/core/testing';
import { PEOPLE, REPORTED_PEOPLE, type TPerson } from './people.ts';
import { profileTruth } from './profile-truth.ts';
import { makeScan } from './scans.ts';
import { synthPeople } from './synth.ts';
import { renderResume } from './templates.ts';

/**
 * Everyone in the corpus, in file-number order (new people go at the end, so existing files keep their numbers): the
 * hand-written people, the reported failures, generated people to tune on (seed 101), generated held-out people
 * (seed 9001: other people, headings and entry layouts; every one also scanned), and more generated people to tune
 * OCR on (seeds 202, 303 and 404: every one scanned, with the tuned part's headings, so OCR misreads have cases to learn from).
 */
export const CORPUS_PEOPLE: TPerson[] = [
  ...PEOPLE,
  ...REPORTED_PEOPLE,
  ...synthPeople(101, 14, { heldOut: false, scanEvery: 4 }),
  ...synthPeople(9001, 12, { heldOut: true, scanEvery: 1, variant: true }),
  ...synthPeople(202, 28, { heldOut: false, scanEvery: 1 }),
  ...synthPeople(303, 21, { heldOut: false, scanEvery: 1 }),
  ...synthPeople(404, 21, { heldOut: false, scanEvery: 1 }),
];

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Fixed dates inside the DOCX, so regenerating unchanged people changes no bytes there. */
const SOURCE_DATE_EPOCH = '1767225600';
const MAX_FILE_BYTES = 100 * 1024;

/** The truth's phone is what libphonenumber-js reads from the written number with the resume's country. */
function checkPhone(person: TPerson): void {
  const parsed = parsePhoneNumberFromString(person.phone, person.country);
  if (parsed?.number !== person.phoneE164) {
    throw new Error(
      `${person.slug}: "${person.phone}" in ${person.country} is ${parsed?.number ?? 'no number'}, not ${person.phoneE164}`,
    );
  }
  // A fictional number must still be one a phone library accepts, or the corpus measures the fake data.
  if (!parsed.isValid() && !(person.fictionalNumber === true && parsed.isPossible()))
    throw new Error(`${person.slug}: ${person.phoneE164} is not a valid number; pick another fake one`);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
}

const onlyMissing = process.argv.includes('--missing');

function keep(file: string): void {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const size = statSync(file).size;
  if (size > MAX_FILE_BYTES) throw new Error(`${name} is ${Math.round(size / 1024)} KB; keep corpus files small`);
  copyFileSync(file, join(RESUME_CORPUS_DIR, name));
  console.log(`  ${name.padEnd(40)} ${String(Math.round(size / 1024)).padStart(4)} KB`);
}

/** The person's scans, made from the corpus PDF (missing ones only with --missing), with the same truth. */
async function scans(
  person: TPerson,
  base: string,
  entry: TCorpusTruthEntry,
  truth: TCorpusTruth,
  work: string,
): Promise<void> {
  for (const kind of person.scans ?? []) {
    const name = `${base}.scan.${kind}`;
    if (!onlyMissing || !existsSync(join(RESUME_CORPUS_DIR, name)))
      keep(await makeScan(join(RESUME_CORPUS_DIR, `${base}.pdf`), work, base, kind));
    truth[name] = { ...entry, scanned: true };
  }
}
const work = mkdtempSync(join(tmpdir(), 'resume-corpus-'));
try {
  const existing = readdirSync(RESUME_CORPUS_DIR).filter((file) =>
    ['.pdf', '.docx', '.doc', '.png', '.jpg'].includes(extname(file)),
  );
  if (!onlyMissing) for (const file of existing) unlinkSync(join(RESUME_CORPUS_DIR, file));
  const truth: TCorpusTruth = {};
  for (const [index, person] of CORPUS_PEOPLE.entries()) {
    checkPhone(person);
    const base = `${String(index + 1).padStart(2, '0')}-${person.slug}`;
    const entry: TCorpusTruthEntry = {
      first_name: person.firstName,
      last_name: person.lastName,
      email: person.email.toLowerCase(),
      phone: person.phoneE164,
      language: person.language,
      layout: person.layout,
      tenant_region: person.tenantRegion,
      held_out: person.heldOut === true,
      profile: profileTruth(person),
    };
    const kept = existing.filter((file) => file.startsWith(`${base}.`) && !file.includes('.scan.'));
    if (onlyMissing && kept.length > 0) {
      for (const file of kept) truth[file] = entry;
      await scans(person, base, entry, truth, work);
      continue;
    }
    const html = join(work, `${base}.html`);
    writeFileSync(html, renderResume(person));

    const pdf = join(work, `${base}.pdf`);
    run(CHROMIUM, [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      `--user-data-dir=${join(work, 'chromium')}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${pdf}`,
      pathToFileURL(html).href,
    ]);
    const docx = join(work, `${base}.docx`);
    run('pandoc', [html, '--from=html', '--to=docx', `--output=${docx}`], { ...process.env, SOURCE_DATE_EPOCH });
    const files = [pdf, docx];
    if (person.doc === true) {
      run('soffice', [
        `-env:UserInstallation=${pathToFileURL(join(work, 'libreoffice')).href}`,
        '--headless',
        '--convert-to',
        'doc',
        '--outdir',
        work,
        docx,
      ]);
      files.push(join(work, `${base}.doc`));
    }

    for (const file of files) {
      keep(file);
      truth[file.slice(work.length + 1)] = entry;
    }
    await scans(person, base, entry, truth, work);
  }
  const sorted = Object.fromEntries(Object.entries(ZCorpusTruth.parse(truth)).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(RESUME_CORPUS_DIR, RESUME_CORPUS_TRUTH_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${Object.keys(sorted).length} resumes written to ${RESUME_CORPUS_DIR}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
