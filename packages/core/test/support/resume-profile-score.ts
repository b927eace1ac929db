/**
 * How a profile read from a resume compares with the truth a person wrote down: exact for the headline, the location
 * and the links; F1 over entries for experience (title + employer + dates + current), education (degree + institution +
 * dates), skills and languages (language + level). Text compares as written (NFC, blanks collapsed, case-sensitive).
 */
import { z } from 'zod';
import type { TResumeProfile } from '../../src/modules/resumes/resume-profile/profile.ts';

const ZDate = z
  .string()
  .regex(/^\d{4}(?:-\d{2})?$/u)
  .nullable();

export const ZCorpusProfile = z.strictObject({
  headline: z.string().nullable(),
  location: z
    .strictObject({
      city: z.string().nullable(),
      country_code: z
        .string()
        .regex(/^[A-Z]{2}$/u)
        .nullable(),
    })
    .nullable(),
  links: z.array(z.strictObject({ type: z.enum(['linkedin', 'github', 'website']), url: z.string() })),
  experience: z.array(
    z.strictObject({ title: z.string(), employer: z.string(), start: ZDate, end: ZDate, current: z.boolean() }),
  ),
  education: z.array(z.strictObject({ degree: z.string(), institution: z.string(), start: ZDate, end: ZDate })),
  skills: z.array(z.string()),
  languages: z.array(
    z.strictObject({
      language: z.string().regex(/^[a-z]{2}$/u),
      level: z.enum(['native', 'fluent', 'professional', 'basic']).nullable(),
    }),
  ),
});
export type TCorpusProfile = z.infer<typeof ZCorpusProfile>;

/** Sections scored by exact match per file, and sections scored by F1 over their entries. */
export const EXACT_SECTIONS = ['headline', 'location', 'links'] as const;
export const ENTRY_SECTIONS = ['experience', 'education', 'skills', 'languages'] as const;
export const CORPUS_PROFILE_SECTIONS = [...EXACT_SECTIONS, ...ENTRY_SECTIONS] as const;
export type TExactSection = (typeof EXACT_SECTIONS)[number];
export type TEntrySection = (typeof ENTRY_SECTIONS)[number];

/** Per file: exact sections right or not; entry sections as counts for F1 (true positives, found, expected). */
export type TProfileScore = {
  exact: Record<TExactSection, boolean>;
  entries: Record<TEntrySection, { matched: number; found: number; expected: number }>;
  /** Readable differences, for the report's worst cases. */
  misses: string[];
};

function text(value: string | null | undefined): string {
  return (value ?? '').normalize('NFC').replace(/\s+/gu, ' ').trim();
}

const KEYS: Record<TEntrySection, (entry: never) => string> = {
  experience: (entry: {
    title: string | null;
    employer: string | null;
    start: string | null;
    end: string | null;
    current: boolean;
  }) => [text(entry.title), text(entry.employer), entry.start, entry.end, entry.current].join(' | '),
  education: (entry: { degree: string | null; institution: string | null; start: string | null; end: string | null }) =>
    [text(entry.degree), text(entry.institution), entry.start, entry.end].join(' | '),
  skills: (entry: string) => text(entry),
  languages: (entry: { language: string; level: string | null }) => `${entry.language} ${entry.level ?? '-'}`,
};

function matchEntries(expected: string[], found: string[]): { matched: number; missing: string[]; extra: string[] } {
  const left = [...found];
  const missing: string[] = [];
  let matched = 0;
  for (const key of expected) {
    const at = left.indexOf(key);
    if (at === -1) missing.push(key);
    else {
      matched++;
      left.splice(at, 1);
    }
  }
  return { matched, missing, extra: left };
}

export function scoreProfile(truth: TCorpusProfile, got: TResumeProfile | null): TProfileScore {
  const misses: string[] = [];
  const exactly = (section: TExactSection, expected: unknown, found: unknown): boolean => {
    const same = JSON.stringify(expected) === JSON.stringify(found);
    if (!same) misses.push(`${section}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(found)}`);
    return same;
  };
  const location = (value: TCorpusProfile['location']) =>
    value === null ? null : { city: text(value.city) || null, country_code: value.country_code };
  const exact = {
    headline: exactly(
      'headline',
      truth.headline === null ? null : text(truth.headline),
      got?.headline === null || got === null ? null : text(got.headline),
    ),
    location: exactly('location', location(truth.location), got === null ? null : location(got.location)),
    links: exactly('links', truth.links, got?.links ?? []),
  };
  const entries = {} as TProfileScore['entries'];
  for (const section of ENTRY_SECTIONS) {
    const key = KEYS[section] as (entry: unknown) => string;
    const expected = (truth[section] as unknown[]).map(key);
    const found = ((got?.[section] ?? []) as unknown[]).map(key);
    const { matched, missing, extra } = matchEntries(expected, found);
    entries[section] = { matched, found: found.length, expected: expected.length };
    for (const entry of missing) misses.push(`${section}: missing ${JSON.stringify(entry)}`);
    for (const entry of extra) misses.push(`${section}: extra ${JSON.stringify(entry)}`);
  }
  return { exact, entries, misses };
}

export type TProfileAccuracy = { files: number } & Record<TExactSection, number> & Record<TEntrySection, number>;

/** Exact sections: the share of files right; entry sections: micro-averaged F1 over every file's entries. */
export function profileAccuracy(scores: readonly TProfileScore[]): TProfileAccuracy {
  const accuracy = { files: scores.length } as TProfileAccuracy;
  for (const section of EXACT_SECTIONS) {
    accuracy[section] = scores.length === 0 ? 0 : scores.filter((score) => score.exact[section]).length / scores.length;
  }
  for (const section of ENTRY_SECTIONS) {
    let matched = 0;
    let found = 0;
    let expected = 0;
    for (const score of scores) {
      matched += score.entries[section].matched;
      found += score.entries[section].found;
      expected += score.entries[section].expected;
    }
    const precision = found === 0 ? (expected === 0 ? 1 : 0) : matched / found;
    const recall = expected === 0 ? 1 : matched / expected;
    accuracy[section] = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  }
  return accuracy;
}

function cell(section: (typeof CORPUS_PROFILE_SECTIONS)[number], value: number): string {
  return (
    (EXACT_SECTIONS as readonly string[]).includes(section) ? `${(value * 100).toFixed(1)} %` : value.toFixed(3)
  ).padStart(11);
}

/** Rows of the profile table: one per group, exact sections as percentages, entry sections as F1. */
export function formatProfileReport(
  groups: readonly [label: string, scores: readonly TProfileScore[], contact: number][],
): string {
  const width = 26;
  const lines = [
    `${''.padEnd(width)} files    contact${CORPUS_PROFILE_SECTIONS.map((section) => section.padStart(11)).join('')}`,
  ];
  for (const [label, scores, contact] of groups) {
    if (scores.length === 0) continue;
    const accuracy = profileAccuracy(scores);
    lines.push(
      `${label.padEnd(width)} ${String(scores.length).padStart(5)}  ${`${(contact * 100).toFixed(1)} %`.padStart(9)}${CORPUS_PROFILE_SECTIONS.map((section) => cell(section, accuracy[section])).join('')}`,
    );
  }
  return lines.join('\n');
}
