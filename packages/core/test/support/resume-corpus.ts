/**
 * The measuring stick for resume extraction: every file of the generated resume corpus
 * (test/fixtures/resume-corpus, recreated by bench/src/resume-corpus/generate.ts) runs through the worker's own entry
 * (`detectResumeType`, then `parseResume`) and is compared with the truth beside it. `pnpm bench resumes` prints the
 * report; test/resume-corpus.test.ts holds the accuracy at a floor. One module, so both measure the same thing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  DOC_MIME,
  DOCX_MIME,
  JPEG_MIME,
  PDF_MIME,
  PNG_MIME,
  detectResumeType,
  type TResumeKind,
} from '../../src/modules/resumes/resume-file.ts';
import { parseResume } from '../../src/modules/resumes/resume-parse.ts';
import type { TResumeProfile } from '../../src/modules/resumes/resume-profile/profile.ts';
import { ZCorpusProfile, scoreProfile, type TProfileScore } from './resume-profile-score.ts';

export {
  CORPUS_PROFILE_SECTIONS,
  ZCorpusProfile,
  formatProfileReport,
  profileAccuracy,
  type TCorpusProfile,
} from './resume-profile-score.ts';

export const RESUME_CORPUS_DIR = fileURLToPath(new URL('../fixtures/resume-corpus/', import.meta.url));
export const RESUME_CORPUS_TRUTH_FILE = 'truth.json';

/** The fields measured, in the order they are reported. */
export const CORPUS_FIELDS = ['first_name', 'last_name', 'email', 'phone'] as const;
export type TCorpusField = (typeof CORPUS_FIELDS)[number];

export const CORPUS_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pl'] as const;

/** What a person reading the file would write down, and what the file is. */
export const ZCorpusTruthEntry = z.strictObject({
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  email: z.string().min(3),
  /** The candidate's own number in E.164, read with the country the resume names. */
  phone: z.string().regex(/^\+[1-9]\d{6,14}$/u),
  language: z.enum(CORPUS_LANGUAGES),
  /** Which template laid the resume out. */
  layout: z.string().min(1),
  /** The uploading tenant's country: the region for numbers when the resume names no country. */
  tenant_region: z.string().regex(/^[A-Z]{2}$/u),
  /** Kept out of tuning the extraction; reported apart. */
  held_out: z.boolean(),
  /** A scan or photo of the page (read by OCR); reported apart from files with text. */
  scanned: z.boolean().optional(),
  /** The profile a person would write down from the page. */
  profile: ZCorpusProfile,
});
export type TCorpusTruthEntry = z.infer<typeof ZCorpusTruthEntry>;

/** File name → truth. */
export const ZCorpusTruth = z.record(z.string().regex(/^[\w.-]+\.(?:pdf|docx|doc|png|jpg)$/u), ZCorpusTruthEntry);
export type TCorpusTruth = z.infer<typeof ZCorpusTruth>;

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.pdf': PDF_MIME,
  '.docx': DOCX_MIME,
  '.doc': DOC_MIME,
  '.png': PNG_MIME,
  '.jpg': JPEG_MIME,
};

export type TCorpusOutcome = {
  file: string;
  format: TResumeKind;
  truth: TCorpusTruthEntry;
  /** What the pipeline produced per field (null: nothing found). */
  got: Record<TCorpusField, string | null>;
  /** Set when the file was rejected or could not be read; every field then counts as wrong. */
  error: string | null;
  wrong: TCorpusField[];
  /** The profile the pipeline produced (null when the file failed) and how it scores against the truth. */
  profile: TResumeProfile | null;
  profileScore: TProfileScore;
  /** Wall-clock time of type detection and parsing, in ms. */
  ms: number;
};

export function readCorpusTruth(dir: string = RESUME_CORPUS_DIR): TCorpusTruth {
  return ZCorpusTruth.parse(JSON.parse(readFileSync(join(dir, RESUME_CORPUS_TRUTH_FILE), 'utf8')));
}

/** Resume files in the corpus folder (so a file without truth, or truth without a file, is noticed). */
export function listCorpusFiles(dir: string = RESUME_CORPUS_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => MIME_BY_EXTENSION[extname(file)] !== undefined)
    .sort();
}

/** Fields compare exactly as a person would write them: NFC, case-sensitive (emails are lower-cased on both sides). */
export function sameField(expected: string, got: string | null): boolean {
  return got !== null && expected.normalize('NFC') === got.normalize('NFC');
}

/** Runs one corpus file through the pipeline and compares it with its truth. */
export async function evaluateCorpusFile(dir: string, file: string, truth: TCorpusTruthEntry): Promise<TCorpusOutcome> {
  const mime = MIME_BY_EXTENSION[extname(file)];
  const declaredFormat = (extname(file) === '.jpg' ? 'jpeg' : extname(file).slice(1)) as TResumeKind;
  const empty: Record<TCorpusField, string | null> = { first_name: null, last_name: null, email: null, phone: null };
  const failed = (error: string): TCorpusOutcome => ({
    file,
    format: declaredFormat,
    truth,
    got: empty,
    error,
    wrong: [...CORPUS_FIELDS],
    profile: null,
    profileScore: scoreProfile(truth.profile, null),
    ms: 0,
  });
  if (mime === undefined) return failed(`unknown extension of ${file}`);

  const bytes = new Uint8Array(readFileSync(join(dir, file)));
  const started = performance.now();
  const type = await detectResumeType(bytes, mime);
  if (!type.ok) return failed(type.error);
  let fields: Awaited<ReturnType<typeof parseResume>>;
  try {
    fields = await parseResume(bytes, type.kind, { defaultRegion: truth.tenant_region });
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
  const got: Record<TCorpusField, string | null> = {
    first_name: fields.firstName,
    last_name: fields.lastName,
    email: fields.email,
    phone: fields.phone,
  };
  const wrong = CORPUS_FIELDS.filter((field) => !sameField(truth[field], got[field]));
  const ms = performance.now() - started;
  return {
    file,
    format: type.kind,
    truth,
    got,
    error: null,
    wrong,
    profile: fields.profile,
    profileScore: scoreProfile(truth.profile, fields.profile),
    ms,
  };
}

/**
 * Every file of the corpus, in file-name order; `scanned` keeps only the scans (true) or only the files with text
 * (false): OCR takes seconds per file.
 */
export async function evaluateCorpus(
  dir: string = RESUME_CORPUS_DIR,
  options: { scanned?: boolean } = {},
): Promise<TCorpusOutcome[]> {
  const truth = readCorpusTruth(dir);
  const outcomes: TCorpusOutcome[] = [];
  for (const file of Object.keys(truth).sort()) {
    const entry = truth[file]!;
    if (options.scanned !== undefined && (entry.scanned === true) !== options.scanned) continue;
    outcomes.push(await evaluateCorpusFile(dir, file, entry));
  }
  return outcomes;
}

export type TFieldAccuracy = { files: number } & Record<TCorpusField, number>;

/** Fraction of files (0–1) whose field came out right. */
export function fieldAccuracy(outcomes: readonly TCorpusOutcome[]): TFieldAccuracy {
  const files = outcomes.length;
  const accuracy = { files } as TFieldAccuracy;
  for (const field of CORPUS_FIELDS) {
    const right = outcomes.filter((outcome) => !outcome.wrong.includes(field)).length;
    accuracy[field] = files === 0 ? 0 : right / files;
  }
  return accuracy;
}

/** The ways the report slices the corpus. */
export const CORPUS_GROUPINGS = {
  layout: (outcome: TCorpusOutcome) => outcome.truth.layout,
  language: (outcome: TCorpusOutcome) => outcome.truth.language,
  format: (outcome: TCorpusOutcome) => outcome.format,
} as const;

export function accuracyBy(
  outcomes: readonly TCorpusOutcome[],
  key: (outcome: TCorpusOutcome) => string,
): Map<string, TFieldAccuracy> {
  const groups = new Map<string, TCorpusOutcome[]>();
  for (const outcome of outcomes) {
    const group = key(outcome);
    groups.set(group, [...(groups.get(group) ?? []), outcome]);
  }
  return new Map(
    [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, members]) => [group, fieldAccuracy(members)]),
  );
}

export type TCorpusMiss = { file: string; field: TCorpusField; expected: string; got: string | null };

/** Every wrong field, the files with the most wrong fields first. */
export function corpusMisses(outcomes: readonly TCorpusOutcome[]): TCorpusMiss[] {
  return [...outcomes]
    .filter((outcome) => outcome.wrong.length > 0)
    .sort((a, b) => b.wrong.length - a.wrong.length || a.file.localeCompare(b.file))
    .flatMap((outcome) =>
      outcome.wrong.map((field) => ({
        file: outcome.file,
        field,
        expected: outcome.truth[field],
        got: outcome.error === null ? outcome.got[field] : `error: ${outcome.error}`,
      })),
    );
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

function accuracyRow(label: string, accuracy: TFieldAccuracy, width: number): string {
  return `${label.padEnd(width)} ${String(accuracy.files).padStart(5)}  ${CORPUS_FIELDS.map((field) => percent(accuracy[field]).padStart(11)).join('')}`;
}

/** The printed report: per-field accuracy overall and per layout, language and format, then the worst cases. */
export function formatCorpusReport(
  outcomes: readonly TCorpusOutcome[],
  options: { worst?: number; missesOf?: (outcome: TCorpusOutcome) => boolean } = {},
): string {
  const width = 24;
  const header = `${''.padEnd(width)} files  ${CORPUS_FIELDS.map((field) => field.padStart(11)).join('')}`;
  const lines = [header, accuracyRow('all', fieldAccuracy(outcomes), width)];
  for (const [name, key] of Object.entries(CORPUS_GROUPINGS)) {
    lines.push('', `by ${name}`);
    for (const [group, accuracy] of accuracyBy(outcomes, key)) lines.push(accuracyRow(`  ${group}`, accuracy, width));
  }
  const misses = corpusMisses(options.missesOf === undefined ? outcomes : outcomes.filter(options.missesOf));
  const shown = misses.slice(0, options.worst ?? 40);
  const part = options.missesOf === undefined ? '' : ' (held-out files left out)';
  lines.push(
    '',
    `worst cases${part} (${shown.length} of ${misses.length} wrong fields; files with most wrong fields first)`,
  );
  for (const miss of shown) {
    lines.push(
      `  ${miss.file.padEnd(40)} ${miss.field.padEnd(10)} expected ${JSON.stringify(miss.expected)}, got ${JSON.stringify(miss.got)}`,
    );
  }
  return lines.join('\n');
}
