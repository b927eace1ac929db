import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  evaluateCorpus,
  fieldAccuracy,
  formatCorpusReport,
  formatProfileReport,
  profileAccuracy,
  type TCorpusOutcome,
} from '@careers/core/testing';
import type { TReportScenario } from './scenario.ts';

const run = promisify(execFile);
const PARSE_ONE = fileURLToPath(new URL('./resume-parse-one.ts', import.meta.url));
/** Files per type measured in a process of their own for peak memory (OCR files take seconds each: fewer). */
const MEMORY_SAMPLE = { text: 12, ocr: 5 } as const;

/** Issue #31's targets: contact accuracy and F1 per section, on text files and on OCR files (tuned and held out alike). */
const TARGETS: {
  group: 'text' | 'ocr';
  section: 'contact' | 'experience' | 'education' | 'skills' | 'languages';
  floor: number;
}[] = [
  { group: 'text', section: 'contact', floor: 0.99 },
  { group: 'text', section: 'experience', floor: 0.9 },
  { group: 'text', section: 'education', floor: 0.9 },
  { group: 'text', section: 'skills', floor: 0.85 },
  { group: 'text', section: 'languages', floor: 0.9 },
  { group: 'ocr', section: 'contact', floor: 0.95 },
  { group: 'ocr', section: 'experience', floor: 0.8 },
];

/**
 * Extraction quality, not speed: every resume of the corpus through the worker's parse entry, compared with its truth.
 * The corpus and its generator: packages/core/test/fixtures/resume-corpus, bench/src/resume-corpus/generate.ts.
 */
export const resumesScenario: TReportScenario = {
  description: 'resume extraction accuracy (contact fields and profile sections) on the resume corpus',
  report: async (options) => {
    const started = performance.now();
    const scanned = options.files === undefined ? undefined : options.files === 'ocr';
    const outcomes = (await evaluateCorpus(undefined, { scanned })).filter(
      (outcome) => options.tunedOnly !== true || !outcome.truth.held_out,
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${outcomes.length} files parsed in ${seconds} s\n`);
    // The held-out part's misses are not shown (contact fields here, profile sections below): not to be tuned on.
    console.log(
      formatCorpusReport(outcomes, {
        worst: options.worst,
        missesOf: (outcome) => !outcome.truth.held_out,
      }),
    );
    console.log(`\nprofile sections (headline, location, links: files exactly right; the rest: F1 over entries)\n`);
    console.log(formatProfileReport(profileGroups(outcomes)));
    const tuned = outcomes.filter((outcome) => !outcome.truth.held_out);
    const misses = tuned.flatMap((outcome) =>
      outcome.profileScore.misses.map((miss) => `  ${outcome.file.padEnd(40)} ${miss}`),
    );
    console.log(
      `\nprofile misses in the tuned part (${Math.min(misses.length, options.worst ?? 40)} of ${misses.length})`,
    );
    console.log(misses.slice(0, options.worst ?? 40).join('\n'));
    console.log('\nparse time per file type (detect + extract + fields + profile, in this process)');
    for (const format of [...new Set(outcomes.map((outcome) => outcome.format))].sort()) {
      const times = outcomes
        .filter((outcome) => outcome.format === format && outcome.error === null)
        .map((outcome) => outcome.ms)
        .sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length / 2)] ?? 0;
      console.log(
        `  ${format.padEnd(6)} ${String(times.length).padStart(4)} files   p50 ${p50.toFixed(0).padStart(6)} ms   max ${(times.at(-1) ?? 0).toFixed(0).padStart(6)} ms`,
      );
    }
    console.log(`\ntargets of #31 (tuned | held out)`);
    for (const line of targetLines(outcomes)) console.log(line);
    await memoryReport(outcomes);
  },
};

function targetLines(outcomes: readonly TCorpusOutcome[]): string[] {
  const lines: string[] = [];
  for (const { group, section, floor } of TARGETS) {
    const members = outcomes.filter((outcome) => (outcome.truth.scanned === true) === (group === 'ocr'));
    const value = (part: readonly TCorpusOutcome[]) =>
      section === 'contact'
        ? contactAccuracy(part)
        : profileAccuracy(part.map((outcome) => outcome.profileScore))[section];
    const parts = [
      members.filter((outcome) => !outcome.truth.held_out),
      members.filter((outcome) => outcome.truth.held_out),
    ].map((part) => {
      const got = value(part);
      return `${(section === 'contact' ? `${(got * 100).toFixed(1)} %` : got.toFixed(3)).padStart(8)} ${got >= floor ? 'ok  ' : 'MISS'} (${part.length})`;
    });
    const target = section === 'contact' ? `≥ ${floor * 100} %` : `≥ ${floor.toFixed(2)}`;
    lines.push(`  ${group.padEnd(5)} ${section.padEnd(11)} ${target.padEnd(8)} ${parts.join('   ')}`);
  }
  return lines;
}

/**
 * Peak resident memory per file type: a sample of each type parsed in a fresh process (`resume-parse-one.ts`) under
 * `/usr/bin/time`, which reports the larger of that process and the OCR tools it waited for. Cold times beside them.
 */
async function memoryReport(outcomes: readonly TCorpusOutcome[]): Promise<void> {
  if (!existsSync('/usr/bin/time')) {
    console.log('\npeak memory: /usr/bin/time is missing (apt-get install -y time); not measured');
    return;
  }
  console.log(
    '\npeak memory per file type (a fresh parse process per file; RSS of the process, and of it or its OCR tools)',
  );
  for (const format of [...new Set(outcomes.map((outcome) => outcome.format))].sort()) {
    const files = outcomes.filter((outcome) => outcome.format === format && outcome.error === null);
    const sample = files.filter(
      (_, index) =>
        index %
          Math.max(
            1,
            Math.ceil(files.length / MEMORY_SAMPLE[format === 'jpeg' || format === 'png' ? 'ocr' : 'text']),
          ) ===
        0,
    );
    const measured: { ms: number; processKb: number; treeKb: number }[] = [];
    for (const outcome of sample) {
      try {
        const { stdout, stderr } = await run('/usr/bin/time', ['-f', '%M', process.execPath, PARSE_ONE, outcome.file], {
          maxBuffer: 1 << 20,
        });
        const own = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ms?: number; rssKb?: number };
        const tree = Number(stderr.trim().split('\n').at(-1));
        if (own.ms !== undefined && own.rssKb !== undefined && Number.isFinite(tree))
          measured.push({ ms: own.ms, processKb: own.rssKb, treeKb: tree });
      } catch (error) {
        console.log(`  ${outcome.file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
    }
    const stat = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
    };
    const mb = (kb: number) => `${(kb / 1024).toFixed(0).padStart(4)} MB`;
    const process_ = stat(measured.map((entry) => entry.processKb));
    const tree = stat(measured.map((entry) => entry.treeKb));
    const cold = stat(measured.map((entry) => entry.ms));
    console.log(
      `  ${format.padEnd(6)} ${String(measured.length).padStart(3)} of ${String(files.length).padStart(3)}   process p50 ${mb(process_.p50)} max ${mb(process_.max)}` +
        `   with OCR tools p50 ${mb(tree.p50)} max ${mb(tree.max)}   cold parse p50 ${cold.p50.toFixed(0).padStart(6)} ms max ${cold.max.toFixed(0).padStart(6)} ms`,
    );
  }
}

/** Contact accuracy: the share of the four contact fields (names, email, phone) that came out right. */
function contactAccuracy(outcomes: readonly TCorpusOutcome[]): number {
  const accuracy = fieldAccuracy(outcomes);
  return (accuracy.first_name + accuracy.last_name + accuracy.email + accuracy.phone) / 4;
}

/** Text files and OCR files apart; the tuned part and the held-out part apart; then per format and language. */
function profileGroups(outcomes: readonly TCorpusOutcome[]): [string, TCorpusOutcome['profileScore'][], number][] {
  const group = (
    label: string,
    members: readonly TCorpusOutcome[],
  ): [string, TCorpusOutcome['profileScore'][], number] => [
    label,
    members.map((outcome) => outcome.profileScore),
    contactAccuracy(members),
  ];
  const ocr = (outcome: TCorpusOutcome) => outcome.truth.scanned === true;
  const text = outcomes.filter((outcome) => !ocr(outcome));
  const scanned = outcomes.filter(ocr);
  const rows = [
    group(
      'text files, tuned',
      text.filter((outcome) => !outcome.truth.held_out),
    ),
    group(
      'text files, held out',
      text.filter((outcome) => outcome.truth.held_out),
    ),
    group(
      'OCR files, tuned',
      scanned.filter((outcome) => !outcome.truth.held_out),
    ),
    group(
      'OCR files, held out',
      scanned.filter((outcome) => outcome.truth.held_out),
    ),
  ];
  for (const format of [...new Set(outcomes.map((outcome) => outcome.format))].sort()) {
    rows.push(
      group(
        `  ${format}`,
        outcomes.filter((outcome) => outcome.format === format),
      ),
    );
  }
  for (const language of [...new Set(outcomes.map((outcome) => outcome.truth.language))].sort()) {
    rows.push(
      group(
        `  ${language}`,
        outcomes.filter((outcome) => outcome.truth.language === language),
      ),
    );
  }
  return rows;
}
