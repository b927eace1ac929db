import { statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS_FIELDS,
  CORPUS_LANGUAGES,
  RESUME_CORPUS_DIR,
  corpusMisses,
  evaluateCorpus,
  fieldAccuracy,
  listCorpusFiles,
  readCorpusTruth,
  sameField,
  type TCorpusField,
  type TCorpusOutcome,
} from './support/resume-corpus.ts';
import { CORPUS_PROFILE_SECTIONS, profileAccuracy, scoreProfile } from './support/resume-profile-score.ts';

/**
 * Extraction quality on the files with text of the generated resume corpus (scans: resume-ocr.test.ts) (test/fixtures/resume-corpus; generator:
 * bench/src/resume-corpus/generate.ts). Each floor is the fraction of corpus files whose field the resume pipeline
 * gets exactly right, set to what the code achieved when it was last raised: raise a floor whenever extraction
 * improves, never lower one. Full report with the wrong cases: `pnpm bench resumes`.
 */
const FLOORS = {
  first_name: 1,
  last_name: 1,
  email: 1,
  phone: 1,
} as const satisfies Record<TCorpusField, number>;

describe('resume corpus', () => {
  const truth = readCorpusTruth();
  const entries = Object.entries(truth);

  it('has truth for exactly the files it holds, in every format, layout and language it claims to cover', () => {
    expect(listCorpusFiles()).toEqual(Object.keys(truth).sort());
    expect(entries.length).toBeGreaterThanOrEqual(185);
    const formats = new Set(entries.map(([file]) => extname(file)));
    expect([...formats].sort()).toEqual(['.doc', '.docx', '.jpg', '.pdf', '.png']);
    expect(entries.filter(([file]) => file.endsWith('.doc')).length).toBeGreaterThanOrEqual(4);
    expect(new Set(entries.map(([, entry]) => entry.layout)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(entries.map(([, entry]) => entry.language))).toEqual(new Set(CORPUS_LANGUAGES));
  });

  it('keeps every file small', () => {
    for (const [file] of entries) expect(statSync(join(RESUME_CORPUS_DIR, file)).size, file).toBeLessThan(100 * 1024);
  });

  it('has truth a person would write: NFC names, lower-case emails, valid E.164 numbers', () => {
    for (const [file, entry] of entries) {
      expect(entry.first_name.normalize('NFC'), file).toBe(entry.first_name);
      expect(entry.last_name.normalize('NFC'), file).toBe(entry.last_name);
      expect(entry.email, file).toBe(entry.email.toLowerCase());
      const phone = parsePhoneNumberFromString(entry.phone);
      // Valid, or (for the reported UK case) a number of Ofcom's drama range: possible, held back from the plan.
      expect(
        phone?.isValid() === true || (/^\+447700900\d{3}$/u.test(entry.phone) && phone?.isPossible() === true),
        file,
      ).toBe(true);
      expect(phone?.number, file).toBe(entry.phone);
    }
  });
});

describe('resume extraction accuracy on the corpus', () => {
  let outcomes: TCorpusOutcome[] = [];
  beforeAll(async () => {
    outcomes = await evaluateCorpus(undefined, { scanned: false });
  });

  it.each(CORPUS_FIELDS)('%s holds its floor', (field) => {
    const accuracy = fieldAccuracy(outcomes)[field];
    const misses = corpusMisses(outcomes)
      .filter((miss) => miss.field === field)
      .map((miss) => `${miss.file}: expected ${JSON.stringify(miss.expected)}, got ${JSON.stringify(miss.got)}`);
    expect(accuracy, `${field} accuracy fell below its floor; wrong:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(
      FLOORS[field],
    );
  });
});

/**
 * Profile sections on the whole corpus (tuned and held-out files together): headline, location and links as the share
 * of files exactly right, the others as F1 over entries. Same rule: raise when extraction improves, never lower.
 */
const PROFILE_FLOORS = {
  headline: 1,
  location: 1,
  links: 1,
  experience: 1,
  education: 1,
  skills: 1,
  languages: 1,
} as const satisfies Record<(typeof CORPUS_PROFILE_SECTIONS)[number], number>;

describe('resume profile accuracy on the corpus', () => {
  let outcomes: TCorpusOutcome[] = [];
  beforeAll(async () => {
    outcomes = await evaluateCorpus(undefined, { scanned: false });
  });

  it.each(CORPUS_PROFILE_SECTIONS)('%s holds its floor', (section) => {
    const accuracy = profileAccuracy(outcomes.map((outcome) => outcome.profileScore))[section];
    const misses = outcomes
      .filter((outcome) => !outcome.truth.held_out)
      .flatMap((outcome) =>
        outcome.profileScore.misses
          .filter((miss) => miss.startsWith(`${section}:`))
          .map((miss) => `${outcome.file}: ${miss}`),
      );
    expect(
      accuracy,
      `${section} fell below its floor; wrong in the tuned part:\n${misses.join('\n')}`,
    ).toBeGreaterThanOrEqual(PROFILE_FLOORS[section]);
  });
});

describe('corpus comparison', () => {
  it('compares fields exactly: Unicode normalisation aside, case and every letter count', () => {
    expect(sameField('Zoë', 'Zoe\u0308')).toBe(true);
    expect(sameField('Zoë', 'Zoe')).toBe(false);
    expect(sameField('van Dijk', 'Van Dijk')).toBe(false);
    expect(sameField('+31201234567', null)).toBe(false);
  });

  it('counts a wrong field against that field only, and a failed file against every field', () => {
    const base = readCorpusTruth()[listCorpusFiles()[0]!]!;
    const right = { first_name: base.first_name, last_name: base.last_name, email: base.email, phone: base.phone };
    const profile = { profile: null, profileScore: scoreProfile(base.profile, null), ms: 0 };
    const outcomes: TCorpusOutcome[] = [
      { file: 'a.pdf', format: 'pdf', truth: base, got: right, error: null, wrong: [], ...profile },
      {
        file: 'b.pdf',
        format: 'pdf',
        truth: base,
        got: { ...right, phone: '+310' },
        error: null,
        wrong: ['phone'],
        ...profile,
      },
      {
        file: 'c.doc',
        format: 'doc',
        truth: base,
        got: right,
        error: 'corrupt',
        wrong: [...CORPUS_FIELDS],
        ...profile,
      },
      { file: 'd.docx', format: 'docx', truth: base, got: right, error: null, wrong: [], ...profile },
    ];
    expect(fieldAccuracy(outcomes)).toEqual({ files: 4, first_name: 0.75, last_name: 0.75, email: 0.75, phone: 0.5 });
    expect(corpusMisses(outcomes).map((miss) => `${miss.file}:${miss.field}`)).toEqual([
      'c.doc:first_name',
      'c.doc:last_name',
      'c.doc:email',
      'c.doc:phone',
      'b.pdf:phone',
    ]);
  });
});
